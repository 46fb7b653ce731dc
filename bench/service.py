"""The real service: ``companion play --table FILE`` started, reloaded and stopped as systemd does.

The command is the installed console script, unchanged, on a table.toml of 8 seats behind two
muxes (:func:`bench.realpath.table_toml`) with a journaled, unfinished game in its state
directory. This machine has no GPIO and no I2C: gpiozero's mock pins stand in
(``GPIOZERO_PIN_FACTORY=mock``) and bench/fakepi/ is first on ``PYTHONPATH`` with an
``smbus2`` whose buses answer every write; SDL's dummy audio driver stands in for a sound
card, so the speaker opens as on a Pi with one.

Ready is the service's own ``READY=1`` on ``$NOTIFY_SOCKET`` (a socket the bench listens
on), sent once every seat is blank, the journal replayed and a first frame drawn; a launch is
timed from just before ``exec`` to that datagram. Memory is ``VmRSS`` from /proc: at ready,
once the speaker has opened after it, and after ``sizes.reloads`` SIGHUPs (each a whole new
table, journal and app, as after an edit of table.toml), each waited for until READY again.
"""

from __future__ import annotations

import os
import signal
import socket
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from companion.statedir import journal_path

from .proc import resident_kib
from .processes import PYTHON, REPO, companion_command, environment, run_child
from .realpath import table_toml
from .report import Figure
from .sizes import Sizes
from .startup import BARE, FLOOR, _journal_a_game, _timed

FAKE_PI = Path(__file__).resolve().parent / "fakepi"
SCRATCH = Path(__file__).resolve().parent
SETTLE = 3.0  # seconds after ready for the speaker to open on its own thread
WARM_RELOADS = 2  # reloads before the baseline: caches and the allocator settle
TIMEOUT = 60.0


class Service:
    """One ``companion play --table`` process and the notify socket it reports to."""

    def __init__(self, folder: Path, moves: int | None, table: str | None = None) -> None:
        """``table`` is table.toml's text (default: 8 seats behind two muxes); ``moves`` of a
        journaled game to resume, or None to start in the lobby."""
        self.table = folder / "table.toml"
        self.table.write_text(table or table_toml(8), encoding="utf-8")
        self.state = folder / "state"
        self.state.mkdir(mode=0o700)
        if moves is not None:
            _journal_a_game(journal_path(self.state), moves)
        self.socket_path = folder / "notify.sock"
        self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.notify.bind(str(self.socket_path))
        self.notify.settimeout(TIMEOUT)
        self.process: subprocess.Popen | None = None

    def start(self, stdout: int = subprocess.DEVNULL) -> float:
        """Launch the service (its output to ``stdout``); seconds from launch to READY."""
        env = environment()
        env["PYTHONPATH"] = os.pathsep.join((str(FAKE_PI), env["PYTHONPATH"]))
        env.update(GPIOZERO_MOCK_PIN_CLASS="mockpwmpin", NOTIFY_SOCKET=str(self.socket_path))
        for name in ("WATCHDOG_USEC", "WATCHDOG_PID"):
            env.pop(name, None)
        command = [*companion_command(), "play", "--table", str(self.table),
                   "--state-dir", str(self.state)]
        launched = time.monotonic()
        self.process = subprocess.Popen(command, cwd=REPO, env=env, stdout=stdout,
                                        stderr=subprocess.DEVNULL)
        self.wait_ready()
        return time.monotonic() - launched

    def wait_ready(self) -> None:
        while "READY=1" not in self.notify.recv(4096).decode():
            pass

    def reload(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGHUP)
        self.wait_ready()

    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def rss_kib(self) -> int:
        return resident_kib(self.pid())[0]

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(TIMEOUT)
        self.notify.close()


def measure(sizes: Sizes) -> list[Figure]:
    seconds: list[float] = []
    for _ in range(sizes.launches):
        with tempfile.TemporaryDirectory(prefix="service-", dir=SCRATCH) as folder:
            service = Service(Path(folder), sizes.resume_moves)
            try:
                seconds.append(service.start())
            finally:
                service.stop()
    with tempfile.TemporaryDirectory(prefix="service-", dir=SCRATCH) as folder:
        service = Service(Path(folder), sizes.resume_moves)
        try:
            service.start()
            at_ready = service.rss_kib()
            time.sleep(SETTLE)
            speaking = service.rss_kib()
            for _ in range(WARM_RELOADS):
                service.reload()
            before = service.rss_kib()
            for _ in range(sizes.reloads):
                service.reload()
            after = service.rss_kib()
        finally:
            service.stop()
    reconnects = run_child("reconnects", str(sizes.reloads))
    floor = statistics.median(_timed([PYTHON, "-c", "pass"]) for _ in range(sizes.launches))
    bare = run_child("bare")["rss_kib"] / 1024
    return [
        Figure("service_ready", f"companion play --table: start to ready, 8 seats, "
               f"{sizes.resume_moves} moves resumed (median of {sizes.launches})",
               statistics.median(seconds), "s", 0.5, baseline=floor, baseline_label=FLOOR),
        Figure("service_ready_max", "companion play --table: start to ready, slowest",
               max(seconds), "s"),
        Figure("service_rss_ready", "companion play --table: resident memory at ready",
               at_ready / 1024, "MiB", 48.0, baseline=bare, baseline_label=BARE),
        Figure("service_rss_speaker", f"... {SETTLE:.0f} s later, the speaker open",
               speaking / 1024, "MiB"),
        Figure("service_rss_reloads", f"resident memory growth over {sizes.reloads} reloads "
               "(SIGHUP)", (after - before) / 1024, "MiB", 1.0),
        Figure("service_rss_reconnects", f"resident memory growth over {sizes.reloads} "
               "reconnects of all 8 displays", reconnects["growth_kib"] / 1024, "MiB", 1.0),
    ]
