"""The effect player: what the table hears and sees after something was applied.

Games name effects (a tune, a vibration, narration, a reveal, the end); the session adds the
table's own (a notice, a status line, the companion's key revealed, seats forgetting an old
game). Every output is reached through one small method here (:meth:`buzz`, :meth:`vibrate`,
:meth:`say`, :meth:`reveal_publicly`, :meth:`show_public`), and no output can take the table
down: a cue an output cannot render, or an output that fails, is logged and skipped, never
raised into the loop.

:meth:`play` changes what the seats' screens will show (notices, forgetting) at once, and
holds the outputs back until :meth:`release`: the app releases them once the journal holds
the step's writes, having drawn the presser's screen while the disk flushed.

A vibration's failure names neither the seat nor the pattern: both are private.

Who renders a tune (public: every seat may hear and see it): the shared buzzer, at the table's
volume; the speaker at the same volume only when no buzzer sounds (a simulator's buzzer is
text, so there the speaker plays it; with a real buzzer a tune is heard once, not twice);
every seat pod's own piezo at that seat's volume; the public screen flashes its name. A
vibration (private) goes to its seat's motor alone, or its simulated panel.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import ClassVar

from engine.api import Buzz, Effect, GameOver, Narrate, Reveal, SeatView, Vibrate
from hardware.base import Code, TableHardware

from .memory import TableMemory
from .public_view import public_page
from .seat_ui import SeatUI

log = logging.getLogger(__name__)

KEY_NOTICE = "Key: hold PEEK"


@dataclass(frozen=True)
class Tell(Effect):
    """A notice on the screen of one seat (a refusal), or of every seat (``seat`` None)."""

    text: str
    seat: int | None = None
    important: bool = False  # never dropped for routine news (the journal's: not saving...)


@dataclass(frozen=True)
class Status(Effect):
    """A line for the table's status display (the simulator's message line)."""

    text: str


@dataclass(frozen=True)
class KeyRevealed(Effect):
    """The game is over: the companion's key may be checked now against the commitment shown
    before the cut (status line, and every seat's PEEK)."""

    key: bytes


@dataclass(frozen=True)
class Recall(Effect):
    """A seat asked for its last results: the notices it was told are shown to it again."""

    seat: int


@dataclass(frozen=True)
class FreePhone(Effect):
    """A player freed a phone seat: the device holding it lets go, and its link opens on
    another device (a lost phone, the wrong person)."""

    seat: int


@dataclass(frozen=True)
class ShowCode(Effect):
    """A wired seat asked to show a phone seat's link as a QR code on its own screen."""

    seat: int
    phone: int


@dataclass(frozen=True)
class PageCode(Effect):
    """A seat asked for the table page's code (docs/table-page.md): the player draws one
    (``code``) and shows it on that seat and on the table's own public screen, never on a
    screen that can be read away from the table."""

    seat: int
    code: str | None = None  # None: asked for, not drawn yet

    ENTRY: ClassVar[str] = "Table page code"  # the menu entry that asks for it


@dataclass(frozen=True)
class Forget(Effect):
    """A game began or ended: every seat drops its news, highlight and half-confirmed press."""


class EffectPlayer:
    def __init__(self, hardware: TableHardware, ui: Mapping[int, SeatUI],
                 on_status: Callable[[str], None], memory: TableMemory | None = None,
                 page_code: Callable[[], str] | None = None) -> None:
        self.hardware = hardware
        self.ui = ui
        self.on_status = on_status
        self.memory = memory or TableMemory()  # each seat's own cues
        self.page_code = page_code  # draws the table page's code (companion.table_desk)
        self.tunes: list[str] = []  # every tune played, for scripts and tests
        self._due: list[tuple[Effect, float]] = []  # outputs held back until release()

    def play(self, effects: Iterable[Effect], at: float) -> None:
        """Take ``effects``: the seats' notices now, the outputs at :meth:`release`."""
        for effect in effects:
            if isinstance(effect, PageCode) and self.page_code is not None:
                effect = PageCode(effect.seat, self.page_code())
            self._show(effect, at)
            self._due.append((effect, at))

    def release(self) -> None:
        """Play every output held back, in order (the journal holds what caused them)."""
        due, self._due = self._due, []
        for effect, at in due:
            self._output(effect, at)

    def _show(self, effect: Effect, at: float) -> None:
        """What ``effect`` changes on the seats' screens-to-be."""
        if isinstance(effect, Narrate | Reveal):  # results: never given way for newer news
            self._tell(effect.text, at, important=True)
        elif isinstance(effect, GameOver):
            for seat in self.ui.values():
                seat.drop_waiting_notices()  # the end matters more than older news
        elif isinstance(effect, KeyRevealed):
            self._tell(KEY_NOTICE, at)
        elif isinstance(effect, Tell):
            self._tell(effect.text, at, seat=effect.seat, important=effect.important)
        elif isinstance(effect, Recall):
            self.ui[effect.seat].recall(at)
        elif isinstance(effect, ShowCode):
            self.ui[effect.seat].show_code(effect.phone, at)
        elif isinstance(effect, PageCode) and effect.code is not None:
            self._tell(f"Page code {effect.code}", at, seat=effect.seat, important=True)
        elif isinstance(effect, Forget):
            for seat in self.ui.values():
                seat.forget()

    def _output(self, effect: Effect, at: float) -> None:
        """What ``effect`` plays, sounds or shows beyond the seats' screens."""
        if isinstance(effect, Buzz):
            self.buzz(effect.tune, at)
        elif isinstance(effect, Vibrate):
            self.vibrate(effect.seat, effect.pattern)
        elif isinstance(effect, Narrate | Reveal):
            self.status(effect.text)
            self.say(effect.text)
            if isinstance(effect, Reveal):
                self.reveal_publicly(effect.text, at)
        elif isinstance(effect, GameOver):
            self.status(effect.outcome)
        elif isinstance(effect, FreePhone):
            self.free_phone(effect.seat)
        elif isinstance(effect, KeyRevealed):
            self.status(f"Key revealed: {effect.key.hex()}")
        elif isinstance(effect, Status):
            self.status(effect.text)
        elif isinstance(effect, PageCode):
            if effect.code is not None:
                self.tell_table(f"Table page code {effect.code}", at)
        elif not isinstance(effect, Tell | Forget | Recall | ShowCode):
            log.warning("no output plays %s; skipped", type(effect).__name__)

    def _tell(self, text: str, at: float, *, seat: int | None = None,
              important: bool = False) -> None:
        for ui in self.ui.values() if seat is None else (self.ui[seat],):
            ui.tell(text, at, important=important)

    # --- the outputs: one method each --------------------------------------------------------

    def buzz(self, tune: str, at: float) -> None:
        self.tunes.append(tune)
        self.status(f"♪ {tune}")
        hardware, volume = self.hardware, self.memory.volume(None)
        buzzer, speaker, public = hardware.buzzer, hardware.speaker, hardware.public
        if buzzer is not None:
            _guarded(f"the buzzer playing '{tune}'", lambda: buzzer.play(tune, volume))
        if speaker is not None and not (buzzer is not None and buzzer.sounds()):
            _guarded(f"the speaker playing '{tune}'", lambda: speaker.play(tune, volume))
        if public is not None:
            _guarded(f"the public screen showing '{tune}'", lambda: public.cue(tune, at))
        for number, seat in hardware.seats.items():
            own = seat.buzzer
            if own is not None:
                _guarded(f"seat {number}'s own buzzer playing '{tune}'",
                         partial(own.play, tune, self.memory.volume(number)))

    def vibrate(self, seat: int, pattern: str) -> None:
        """Felt only by ``seat``, unless that seat turned its vibration off."""
        if self.memory.cue(seat, "vibration") == "off":
            return

        def pulse() -> None:
            vibrator = self.hardware.seats[seat].vibrator
            if vibrator is not None:
                vibrator.pulse(pattern)

        _guarded("a seat's vibration motor", pulse, private=True)

    def say(self, text: str) -> None:
        speaker, volume = self.hardware.speaker, self.memory.volume(None)
        if speaker is not None:
            _guarded("the speaker", lambda: speaker.say(text, volume))

    def reveal_publicly(self, text: str, at: float) -> None:
        public = self.hardware.public
        if public is not None:
            _guarded("the public screen's reveal", lambda: public.reveal(text, at))

    def show_public(self, view: SeatView, code: Code | None, now: float,
                    joinable: tuple[int, ...] = ()) -> None:
        """The public view, ``code`` (the commitment, or the key once revealed) to show
        whole, as text and as a QR code, and the phone seats a phone may join now."""
        public = self.hardware.public
        if public is not None:
            _guarded("the public screen",
                     lambda: public.show(public_page(view, code, joinable), now))

    def free_phone(self, seat: int) -> None:
        free = self.hardware.seats[seat].free_phone
        if free is not None:
            _guarded(f"freeing phone seat {seat}", free)

    def tell_table(self, text: str, at: float) -> None:
        """Words for those at the table only, on its own public screen (never logged: a
        failure names no words)."""
        public = self.hardware.public
        if public is not None:
            _guarded("the public screen's note", lambda: public.tell_table(text, at),
                     private=True)

    def status(self, text: str) -> None:
        _guarded("the status line", lambda: self.on_status(text))


def _guarded(what: str, output: Callable[[], None], *, private: bool = False) -> None:
    """Run one output; a failure is logged and skipped. ``private``: log no details (a
    vibration's pattern or seat, even in an error's message, would tell a secret cue)."""
    try:
        output()
    except Exception as error:  # any failure of any output: the table must go on
        detail = type(error).__name__ if private else f"{type(error).__name__}: {error}"
        log.warning("%s failed (%s); skipped", what, detail)
