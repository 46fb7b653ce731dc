"""``companion doctor [TABLE.toml] [--no-wait]`` in a terminal: findings as lines, an exit status.

The maker answers at the keyboard: Enter skips the button being waited for, y or n says
whether the buzzer or a motor was heard. Without a terminal (or with ``--no-wait``) nobody is
asked, so a script or the service's health check gets only what needs no person.
"""

from __future__ import annotations

import sys
import threading
from typing import TextIO

from hardware.config import load_config

from . import report
from .findings import SKIP, Events, Level, Machine


class KeyboardMaker:
    """Asks on ``out``; each line typed while a button is awaited skips that button."""

    def __init__(self, events: Events, keys: TextIO = sys.stdin, out: TextIO = sys.stdout) -> None:
        self._keys = keys
        self._out = out
        self._events = events
        self._answers: list[str] = []
        self._typed = threading.Condition()
        self._asking = False
        self._ended = False  # the keys ended (Ctrl-D): every question from then on is skipped
        threading.Thread(target=self._read, name="doctor-keys", daemon=True).start()

    def ask(self, prompt: str) -> None:
        print(f"      {prompt} (Enter: skip)", file=self._out, flush=True)

    def heard(self, question: str) -> bool | None:
        print(f"      {question} [y/n, Enter: skip]", file=self._out, flush=True)
        with self._typed:
            self._asking = True
            self._typed.wait_for(lambda: bool(self._answers) or self._ended)
            self._asking = False
            answer = self._answers.pop(0).strip().lower() if self._answers else ""
        return None if not answer else answer.startswith("y")

    def _read(self) -> None:
        for line in self._keys:
            with self._typed:
                if self._asking:
                    self._answers.append(line)
                    self._typed.notify()
                    continue
            self._events.put(SKIP)
        with self._typed:
            self._ended = True
            self._typed.notify()


def run_doctor(path: str, no_wait: bool, machine: Machine | None = None) -> int:
    """Print each finding; 1 if anything failed, else 0."""
    config = load_config(path)
    machine = machine or Machine()
    interactive = not no_wait and sys.stdin.isatty()
    maker = KeyboardMaker(machine.events) if interactive else None
    print(f"{path}: {config.name}, {len(config.seats)} seats" +
          ("" if interactive else " (nobody asked: --no-wait or no terminal)"))
    findings = report(config, machine, maker)
    for finding in findings:
        print("\n".join(finding.lines()))
    failed = sum(finding.level is Level.FAIL for finding in findings)
    print(f"{failed} problem{'s' if failed != 1 else ''}" if failed else "all well")
    return 1 if failed else 0
