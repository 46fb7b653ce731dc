"""Phone seats on the service's path: a press to its frame, the idle cost and the memory.

The real ``companion play --table FILE`` (bench/service.py's harness: the installed console
script, its ``READY=1``) on a table.toml of ``sizes.phones`` phone seats, its phone server on
its own thread listening on localhost. The service's stdout is a terminal (a pty), so it
prints each seat's link as it does for the person starting it; the bench's phones
(bench/phone_client.py: hello, sealed numbered edges, sealed frames opened with the key of
the link's ``#fragment``, as the page does) each open one over a real socket.

- **Press to frame.** In the lobby each seat in turn taps ACT on Join, taps PEEK (to Leave)
  and ACT again: each ACT press changes the presser's screen (and the lobby on the others).
  A press is timed from just before its sealed edge is written to its socket to the moment
  the phone has read and opened the new frame. The next seat presses once the last frame
  has landed and the 25 ms debounce lockout is over.
- **Idle.** The phones stay connected and press nothing (the lobby has no hourglass); over
  ``sizes.idle_seconds`` the service's CPU (/proc/PID/stat) and its context switches,
  voluntary and involuntary, summed over every thread (/proc/PID/task/*/status). Beside it,
  the same window on the same service with 8 wired seats (bench/realpath.py's two muxes).
- **Memory.** ``VmRSS`` with the phones connected, after their presses, against that wired
  table as long after its ready as bench/idle.py settles (the speaker opened, then its
  mixer closed, on both), and against the phone table itself before any phone opened its
  link.

The Zero 2 W rows scale the CPU figures by :mod:`bench.cortex_a53`'s factor, the published
loop timed here before and after (its sources are there); memory and wake-ups are the same
program's and are not scaled.
"""

from __future__ import annotations

import asyncio
import os
import pty
import re
import socket
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from aiohttp import ClientSession

from . import cortex_a53
from .idle import SETTLE as IDLE_SETTLE
from .phone_client import Phone
from .proc import sample, wakeups_between
from .report import Figure
from .service import SCRATCH, TIMEOUT, Service
from .sizes import Sizes
from .stats import spread

LOCKOUT_GAP = 0.03  # seconds between two edges of one button: over the 25 ms debounce lockout
LINK = re.compile(rb"Phone seat (\d+): (\S+)")


def table_toml(seats: int, port: int) -> str:
    """``seats`` phone seats, the server on ``port`` of localhost only."""
    lines = ['[table]', 'name = "Bench phones"']
    for number in range(1, seats + 1):
        lines += ['[[seat]]', f'number = {number}', 'phone = true']
    lines += ['[phones]', f'port = {port}', 'listen = "127.0.0.1"']
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Idle:
    cpu_percent: float
    wakeups: float  # a second


def measure(sizes: Sizes) -> list[Figure]:
    # As the idle part: the speaker opens after ready and, silent, closes its mixer again.
    settle = min(IDLE_SETTLE, sizes.idle_seconds)
    speed = cortex_a53.Timings(sizes.loop_timings)
    speed.take()
    with tempfile.TemporaryDirectory(prefix="phones-", dir=SCRATCH) as folder:
        for name in ("wired", "phones"):
            (Path(folder) / name).mkdir()
        wired = Service(Path(folder) / "wired", None)
        try:
            wired.start()
            time.sleep(settle)
            wired_rss = wired.rss_kib()
            wired_idle = asyncio.run(_idle(wired.pid(), sizes.idle_seconds))
        finally:
            wired.stop()
        service = Service(Path(folder) / "phones", None, table_toml(sizes.phones, _free_port()))
        terminal, output = pty.openpty()
        try:
            service.start(stdout=output)
            os.close(output)
            links = _links(terminal, sizes.phones)
            time.sleep(settle)
            alone_rss = service.rss_kib()
            presses, idle, phones_rss = asyncio.run(_play(service, links, sizes))
        finally:
            service.stop()
            os.close(terminal)
    speed.take()
    pressed = spread(presses)
    n = sizes.phones
    label = f"press on a phone seat to its frame on the socket, {n} phones ({pressed.count} " \
            "presses)"
    to_mib = 1 / 1024
    factor = speed.cpu_factor()
    return [
        Figure("phones_press_p50", f"{label} p50", pressed.p50 * 1000, "ms"),
        Figure("phones_press_p99", f"{label} p99", pressed.p99 * 1000, "ms", 10.0),
        Figure("phones_press_max", f"{label} max", pressed.max * 1000, "ms"),
        Figure("phones_idle_cpu", f"idle CPU, {n} phones connected", idle.cpu_percent,
               "% core", 1.0, baseline=wired_idle.cpu_percent, baseline_label="8 wired seats"),
        Figure("phones_idle_wakeups", f"idle wake-ups (context switches, every thread), {n} "
               "phones connected", idle.wakeups, "/s", baseline=wired_idle.wakeups,
               baseline_label="8 wired seats"),
        Figure("phones_rss", f"resident memory with {n} phones, above 8 wired seats",
               (phones_rss - wired_rss) * to_mib, "MiB", 10.0),
        Figure("phones_rss_sockets", f"... of which the {n} phones' connections and presses",
               (phones_rss - alone_rss) * to_mib, "MiB"),
        Figure("phones_zero_press_p99", f"Zero 2 W estimate: phone press to frame p99 (here x "
               f"{factor:.1f})", pressed.p99 * 1000 * factor, "ms"),
        Figure("phones_zero_idle_cpu", f"Zero 2 W estimate: idle CPU, {n} phones (here x "
               f"{factor:.1f})", idle.cpu_percent * factor, "% core"),
    ]


async def _play(service: Service, links: list[str],
                sizes: Sizes) -> tuple[list[float], Idle, int]:
    """Every phone seated; the presses timed; the idle window; the memory with them."""
    phones = [Phone(link) for link in links]
    async with ClientSession() as http:
        for phone in phones:
            await phone.connect(http)
        await asyncio.sleep(LOCKOUT_GAP)
        presses: list[float] = []
        turn = 0
        while len(presses) < sizes.phone_presses:
            phone = phones[turn % len(phones)]
            turn += 1
            presses.append(await _press(phone, "act"))  # Join
            await _tap(phone, "peek")  # to Leave
            presses.append(await _press(phone, "act"))  # Leave
        await asyncio.sleep(min(IDLE_SETTLE, sizes.idle_seconds))  # the last redraws, tunes
        idle = await _idle(service.pid(), sizes.idle_seconds)
        rss = service.rss_kib()
        for phone in phones:
            await phone.close()
    return presses, idle, rss


async def _press(phone: Phone, button: str) -> float:
    """A tap whose press changes the screen: seconds from the edge sent to the frame opened."""
    phone.forget_frames()  # the others' frames of the last press
    sent = time.perf_counter()
    await phone.send_edge(button, True)
    arrived, _ = await asyncio.wait_for(phone.frames.get(), TIMEOUT)
    await asyncio.sleep(LOCKOUT_GAP)
    await phone.send_edge(button, False)
    await asyncio.sleep(LOCKOUT_GAP)
    return arrived - sent


async def _tap(phone: Phone, button: str) -> None:
    """A PEEK tap: the next offer is shown when it is let go."""
    phone.forget_frames()
    await phone.send_edge(button, True)
    await asyncio.sleep(LOCKOUT_GAP)
    await phone.send_edge(button, False)
    await asyncio.wait_for(phone.frames.get(), TIMEOUT)
    await asyncio.sleep(LOCKOUT_GAP)


async def _idle(pid: int, seconds: float) -> Idle:
    """The process's CPU and wake-ups over ``seconds`` (phones, if any, answer its pings)."""
    first = sample(pid)
    started = time.monotonic()
    await asyncio.sleep(seconds)
    last = sample(pid)
    elapsed = time.monotonic() - started
    return Idle(100 * (last.cpu_seconds - first.cpu_seconds) / elapsed,
                wakeups_between(first, last) / elapsed)




def _links(terminal: int, count: int) -> list[str]:
    """The links the service printed on its terminal, in seat order."""
    printed = b""
    while len(LINK.findall(printed)) < count:
        chunk = os.read(terminal, 4096)
        if not chunk:
            raise RuntimeError(f"the service printed {printed!r} and no more links")
        printed += chunk
    return [link.decode() for _, link in sorted(LINK.findall(printed), key=lambda m: int(m[0]))]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
