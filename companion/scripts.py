"""Table scripts: plain-text plays of a whole table (docs/table-scripts.md).

A script presses, holds and releases seat buttons on the simulated table's mock pins, lets
time pass on a fake clock, and checks what each seat's screen says. Tests, bug reports and
house rules all use the same files; the grammar is in docs/table-scripts.md. Every error
names the script line.
"""

from __future__ import annotations

import inspect
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass

from hardware.base import ButtonName

from .app import App
from .clock import FakeClock
from .exc import Expectation, ScriptError

TAP_TIME = 0.08
HOLD_TIME = 0.6
MAX_STEPS_PER_WAIT = 1_000_000


@dataclass(frozen=True)
class Command:
    line: int
    verb: str
    args: tuple[str, ...]


def parse(text: str) -> tuple[dict[str, Command], list[Command]]:
    """The header settings (``table``, ``key``, ``one-button``) and the commands."""
    settings: dict[str, Command] = {}
    commands: list[Command] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = _strip_comment(raw).strip()
        if not line:
            continue
        try:
            words = shlex.split(line)
        except ValueError as error:
            raise ScriptError(number, f"cannot read this line ({error})") from None
        verb, args = words[0].lower(), tuple(words[1:])
        if verb in ("table", "key", "one-button"):
            settings[verb] = Command(number, verb, args)
        elif verb in VERBS:
            commands.append(Command(number, verb, args))
        else:
            known = ", ".join(sorted(VERBS))
            raise ScriptError(number, f"unknown command '{verb}' (commands: {known})")
    return settings, commands


def _strip_comment(line: str) -> str:
    """Drop a ``#`` comment that is not inside quotes."""
    quoted = False
    for index, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted:
            return line[:index]
    return line


_DURATION = re.compile(r"^(?:(\d+)m)?(?:(\d+(?:\.\d+)?)s)?(?:(\d+)ms)?$")


def parse_duration(text: str) -> float:
    """``90s``, ``1m30s``, ``250ms``, ``1.5s`` -> seconds."""
    match = _DURATION.match(text)
    if not text or not match or not any(match.groups()):
        raise ValueError(f"'{text}' is not a duration (try 30s, 1m30s or 250ms)")
    minutes, seconds, millis = match.groups()
    return int(minutes or 0) * 60 + float(seconds or 0) + int(millis or 0) / 1000


@dataclass
class ScriptRunner:
    """Plays commands against an :class:`App` on a simulated table with a fake clock."""

    app: App
    clock: FakeClock
    drive: Callable[[int, ButtonName, bool], None]  # press or release a seat button's pin
    pump: Callable[[], None]  # hand queued events to the app
    unplug: Callable[[int, bool], None] | None = None
    pace: float = 0.0  # a player reads the screen this long before each press
    presses: int = 0  # taps and holds since ``count``
    counted_from: float = 0.0

    def run(self, commands: list[Command]) -> int:
        for command in commands:
            verb = getattr(self, "_" + command.verb.replace("-", "_"))
            try:
                inspect.signature(verb).bind(*command.args)
            except TypeError:
                raise ScriptError(command.line, f"'{command.verb}' takes other words: write "
                                  f"{USAGE[command.verb]}") from None
            try:
                verb(*command.args)
            except ScriptError:
                raise
            except (ValueError, KeyError, TypeError, AssertionError) as error:
                raise ScriptError(command.line, str(error)) from None
            except Expectation as failed:
                raise ScriptError(command.line, str(failed)) from None
        return len(commands)

    # --- time ----------------------------------------------------------------------------------

    def wait(self, seconds: float) -> None:
        target = self.clock.now + seconds
        for _ in range(MAX_STEPS_PER_WAIT):
            deadline = self.app.next_deadline()
            if deadline is None or deadline > target:
                break
            self.clock.now = max(self.clock.now, deadline)
            self.app.advance()
        else:
            raise Expectation("time stopped moving: a deadline never cleared")
        self.clock.now = target
        self.app.advance()

    def _wait(self, duration: str) -> None:
        self.wait(parse_duration(duration))

    # --- buttons -------------------------------------------------------------------------------

    def _seat(self, text: str) -> int:
        """A seat number this table has, or what to write instead."""
        seats = self.app.seat_numbers
        try:
            number = int(text)
        except ValueError:
            number = None
        if number not in seats:
            raise ValueError(f"'{text}' is not a seat at this table: write a number from "
                             f"{seats[0]} to {seats[-1]}")
        return number

    def _set(self, seat: str, button: str, pressed: bool) -> None:
        self.drive(self._seat(seat), _button(button), pressed)
        self.pump()

    def _press(self, seat: str, button: str) -> None:
        self._set(seat, button, True)

    def _release(self, seat: str, button: str) -> None:
        self._set(seat, button, False)

    def _pace(self, duration: str) -> None:
        self.pace = parse_duration(duration)

    def _read_first(self) -> None:
        """One more press, after the player's reading time (``pace``)."""
        if self.pace:
            self.wait(self.pace)
        self.presses += 1

    def _count(self) -> None:
        """Count presses and time from here (``expect presses`` and ``expect time``)."""
        self.presses, self.counted_from = 0, self.clock.now

    def _tap(self, seat: str, button: str = "act") -> None:
        self._read_first()
        self._set(seat, button, True)
        self.wait(TAP_TIME)
        self._set(seat, button, False)
        self.wait(TAP_TIME)

    def _hold(self, seat: str, button: str = "peek", duration: str = "") -> None:
        """Press and keep holding (past the hold time); ``release`` ends it."""
        self._read_first()
        self._set(seat, button, True)
        self.wait(parse_duration(duration) if duration else HOLD_TIME)

    def _join(self, *seats: str) -> None:
        for seat in seats:
            self._choose(seat, "Join")

    def _cut(self, *seats: str) -> None:
        """Each seat in turn cuts the deck: one ACT, at the moment the script has reached."""
        for seat in seats:
            self._choose(seat, "Cut the deck")

    def _choose(self, seat: str, label: str) -> None:
        """Tap PEEK until the bar offers ``label``, then ACT."""
        number = self._seat(seat)
        actions = self.app.actions(number)
        labels = [a.label for a in actions]
        matches = [a for a in actions if a.label.lower().startswith(label.lower())]
        if not matches:
            raise Expectation(f"seat {number} is not offered '{label}' (offered: {labels})")
        target = matches[0].id
        for _ in range(len(actions)):
            current, _ = self.app.ui[number].current(self.app.actions(number))
            if current is not None and current.id == target:
                self._tap(seat, "act")
                return
            self._tap(seat, "peek")
        raise Expectation(f"seat {number}: could not reach '{label}'")

    # --- expectations --------------------------------------------------------------------------

    def _expect(self, *args: str) -> None:
        """``expect ... within 5s`` waits, deadline by deadline, until the expectation holds."""
        if len(args) >= 2 and args[-2].lower() == "within":
            self._expect_within(parse_duration(args[-1]), args[:-2])
        else:
            self._expect_now(*args)

    def _expect_within(self, limit: float, args: tuple[str, ...]) -> None:
        target = self.clock.now + limit
        while True:
            try:
                self._expect_now(*args)
                return
            except Expectation:
                deadline = self.app.next_deadline()
                if self.clock.now >= target:
                    raise
                moment = min(target, deadline) if deadline is not None else target
                self.wait(max(0.0, moment - self.clock.now))

    def _expect_now(self, *args: str) -> None:
        if not args:
            raise Expectation("expect what?")
        head, rest = args[0].lower(), args[1:]
        if head in EXPECT_USAGE:
            check = getattr(self, f"_expect_{head}")
            try:
                inspect.signature(check).bind(*rest)
            except TypeError:
                raise ValueError(f"write {EXPECT_USAGE[head]}") from None
            check(*rest)
        elif head in ("presses", "time"):
            self._expect_at_most(head, *rest)
        elif head == "public":
            self._expect_text("the public view", self._public_text(), *rest)
        elif head == "all":
            state = self.app.session.state
            for number in state.seats if state else self.app.seat_numbers:
                self._expect_text(f"seat {number}", self._seat_text(number), *rest)
        else:
            number = self._seat(head)
            self._expect_text(f"seat {number}", self._seat_text(number), *rest)

    def _seat_text(self, number: int) -> str:
        face = self.app.screens.faces.get(number)
        return face.text() if face else ""

    def _public_text(self) -> str:
        view = self.app.view(None)
        return "\n".join([view.title, view.banner or "", view.big or "", *view.lines])

    def _expect_text(self, where: str, text: str, *args: str) -> None:
        negate = bool(args) and args[0].lower() == "not"
        wanted = args[1:] if negate else args
        if len(wanted) != 1:
            raise Expectation('write: expect SEAT "text"  or  expect SEAT not "text"')
        found = wanted[0].lower() in text.lower()
        if found == negate:
            shown = text.replace("\n", " | ")
            verb = "shows" if negate else "does not show"
            raise Expectation(f"{where} {verb} '{wanted[0]}' (it shows: {shown})")

    def _expect_tune(self, tune: str) -> None:
        if tune not in self.app.effects.tunes:
            played = self.app.effects.tunes[-8:]
            raise Expectation(f"tune '{tune}' was not played (played: {played})")

    def _expect_over(self, *words: str) -> None:
        state = self.app.session.state
        if state is None or not state.is_terminal():
            raise Expectation("the game is not over")
        result = state.result() or ""
        if words and words[0].lower() not in result.lower():
            raise Expectation(f"the game ended '{result}', not '{words[0]}'")

    def _expect_at_most(self, what: str, *args: str) -> None:
        """``expect presses at most 30`` / ``expect time at most 60s``, since ``count``."""
        if len(args) != 3 or [a.lower() for a in args[:2]] != ["at", "most"]:
            raise Expectation(f"write: expect {what} at most N")
        if what == "presses":
            if not (args[2].isascii() and args[2].isdigit()):
                raise Expectation("write: expect presses at most N, N a whole number")
            limit, used, unit = float(args[2]), float(self.presses), " presses"
        else:
            limit, used, unit = parse_duration(args[2]), self.clock.now - self.counted_from, " s"
        if used > limit:
            raise Expectation(f"{used:g}{unit} since count, more than {args[2]}")

    def _expect_offline(self, seat: str) -> None:
        if self.app.links.is_up(self._seat(seat)):
            raise Expectation(f"seat {seat} is not offline")

    def _unplug(self, seat: str) -> None:
        if self.unplug is None:
            raise Expectation("this table cannot unplug displays")
        self.unplug(self._seat(seat), True)

    def _replug(self, seat: str) -> None:
        if self.unplug is None:
            raise Expectation("this table cannot unplug displays")
        self.unplug(self._seat(seat), False)


def _button(text: str) -> ButtonName:
    try:
        return ButtonName(text.lower())
    except ValueError:
        raise ValueError(f"'{text}' is not a button: write act or peek") from None


USAGE = {  # what to write, for a line whose words do not fit its command
    "wait": "wait DURATION (e.g. wait 30s)",
    "press": "press SEAT BUTTON (e.g. press 2 act)",
    "release": "release SEAT BUTTON (e.g. release 2 act)",
    "tap": "tap SEAT [BUTTON] (e.g. tap 2 or tap 2 peek)",
    "hold": "hold SEAT [BUTTON] [DURATION] (e.g. hold 2 peek 1s)",
    "join": "join SEAT... (e.g. join 1 2 3)",
    "cut": "cut SEAT... (e.g. cut 1 2 3)",
    "choose": 'choose SEAT "LABEL" (e.g. choose 2 "End turn")',
    "expect": 'expect SEAT "TEXT" (e.g. expect 2 "Your turn")',
    "unplug": "unplug SEAT (e.g. unplug 2)",
    "replug": "replug SEAT (e.g. replug 2)",
    "pace": "pace DURATION (e.g. pace 2s)",
    "count": "count (alone on its line)",
}
VERBS = set(USAGE)
EXPECT_USAGE = {
    "tune": "expect tune NAME (e.g. expect tune start)",
    "over": 'expect over ["RESULT"] (e.g. expect over "escaped")',
    "offline": "expect offline SEAT (e.g. expect offline 2)",
}
