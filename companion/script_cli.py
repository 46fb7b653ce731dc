"""``companion script FILE``: play a table script on the headless table and report."""

from __future__ import annotations

import hashlib
import queue
from pathlib import Path

from engine.rng import KEY_BYTES
from hardware.closing import Closing
from hardware.exc import UnreadableFile
from hardware.headless import HeadlessTable
from hardware.textfile import read_small_text

from .app import App
from .clock import FakeClock
from .exc import ScriptError, ScriptFailed
from .scripts import Command, ScriptRunner, parse

MAX_SCRIPT_BYTES = 1024 * 1024  # a whole game is a few KiB of presses


class ScriptSession(Closing):
    """A headless table, an app on a fake clock, and a runner for one script's commands."""

    def __init__(self, text: str, name: str = "script") -> None:
        settings, self.commands = parse(text)
        seats = range(1, _count(settings.get("table")) + 1)
        one_button = _one_button(settings.get("one-button"))
        key = _key(settings.get("key"), name)
        self.events: queue.Queue = queue.Queue()
        self.clock = FakeClock()
        self.table = HeadlessTable(seats, self.events.put, clock=self.clock, one_button=one_button)
        self.app = App(self.table.hardware, clock=self.clock, key_source=lambda n: key)
        self.runner = ScriptRunner(self.app, self.clock, self.table.drive, self.pump,
                                   self.table.unplug)
        self.app.start()

    def pump(self) -> None:
        """Hand every queued hardware event to the app, then let due deadlines fire: one
        step, as the loop takes it."""
        events = []
        while not self.events.empty():
            events.append(self.events.get_nowait())
        self.app.step(*events)

    def run(self) -> int:
        return self.runner.run(self.commands)

    def close(self) -> None:
        self.table.close()


def run_script(text: str, name: str = "script") -> tuple[App, int]:
    """Run a script's text to the end; returns the app (to inspect) and the command count."""
    with ScriptSession(text, name) as session:
        return session.app, session.run()


def run_script_file(path: str) -> int:
    file = Path(path)
    try:
        text = read_small_text(file, MAX_SCRIPT_BYTES, "table script")
    except UnreadableFile as error:
        raise ScriptFailed(str(error)) from None
    try:
        _, count = run_script(text, file.stem)
    except ScriptError as error:
        raise ScriptFailed(f"{file}:{error.line}: {error.message}") from None
    print(f"{file.name}: ok, {count} commands")
    return 0


def _count(setting: Command | None) -> int:
    if setting is None:
        return 4
    text = " ".join(setting.args)
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= 8:
        raise ScriptError(setting.line, f"table: 1 to 8 seats, not '{text}'")
    return int(text)


def _one_button(setting: Command | None) -> list[int]:
    if setting is None:
        return []
    if not all(arg.isascii() and arg.isdigit() for arg in setting.args):
        raise ScriptError(setting.line, "one-button: list seat numbers, e.g. one-button 2 3")
    return [int(arg) for arg in setting.args]


def _key(setting: Command | None, name: str) -> bytes:
    """The companion's key for the script's deal: with the script's cut, it fixes the seed."""
    if setting is None:
        return hashlib.sha256(f"table script {name}".encode()).digest()
    text = "".join(setting.args)
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != KEY_BYTES:
        raise ScriptError(setting.line, f"key: {KEY_BYTES} bytes in hex "
                                        f"({2 * KEY_BYTES} hex digits)")
    return key
