"""The small interfaces every hardware backend implements.

Backends (gpiozero pins, luma OLEDs, serial pods, the terminal simulator, the pygame window)
turn physical things into :class:`ButtonEdge` events and frames into light. Library callbacks
run on library threads, so a backend only ever hands events to the ``sink`` it was given (the
app's queue); all logic (debounce, holds, peeks) lives in one thread in the companion.
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from PIL import Image

from .closing import Closing

SCREEN_SIZE = (128, 64)


class ButtonName(enum.Enum):
    ACT = "act"
    PEEK = "peek"


@dataclass(frozen=True)
class ButtonEdge:
    """A raw level change on a seat button, stamped with the monotonic clock.

    Edges are raw (they bounce); the companion debounces them on the leading edge.
    """

    seat: int
    button: ButtonName
    pressed: bool
    at: float


@dataclass(frozen=True)
class QuitRequested:
    """The person at the keyboard (terminal simulator, emulator window) asked to stop."""

    reason: str = "quit"


@dataclass(frozen=True)
class SeatLink:
    """A seat's link went down (a pod unplugged: the game pauses its timers) or came back up."""

    seat: int
    up: bool


Sink = Callable[[object], None]


class Wire(Protocol):
    """A thread sending screens' bytes (a bus's writer): while it has work, a press may be
    waiting on it, so the companion's garbage collection waits for it to be quiet."""

    @property
    def quiet(self) -> bool:
        """Nothing queued, nothing being sent."""
        ...

    def when_drained(self, drained: Callable[[], None] | None) -> None:
        """Call ``drained`` (on the wire's thread) each time its work runs out; None: stop."""
        ...


class SeatScreen(ABC):
    """One seat's 128x64 monochrome screen."""

    size: tuple[int, int] = SCREEN_SIZE

    @abstractmethod
    def show(self, image: Image.Image) -> None:
        """Make the screen show ``image`` (mode "1"), sending only what changed. A shown
        image is not changed afterwards: a screen may keep what it made of it.

        Raises :class:`OSError` when the display is unreachable (unplugged, bus error).
        """

    def awaited(self) -> None:
        """The next update answers a press on this seat: on a wire shared with other seats
        it goes before their bytes (docs/ARCHITECTURE.md §10). A screen alone on its link
        (a pod, a window, a phone) has nobody to go before."""

    def disclose(self, image: Image.Image) -> None:
        """Show a private face: the whole frame is written, whatever changed, so the bytes
        on a wire (an activity LED, a scope) never depend on which pixels the secret lit.

        Screens with no wire to watch (a window, a terminal) just show it.
        """
        self.show(image)

    @abstractmethod
    def conceal(self, image: Image.Image) -> None:
        """End a peek: switch the display off first, write ``image``, then switch it on.

        The order matters: a secret must never be visible while the new frame is written;
        and, as for :meth:`disclose`, the whole frame goes, whatever the secret was.
        """

    @abstractmethod
    def blank(self) -> None:
        """Clear the screen and switch it off (start-up, shut-down): an OLED keeps its image."""

    def reconnect(self) -> None:
        """Re-initialise after an OSError; the next :meth:`show` sends a whole frame."""

    def wire(self) -> Wire | None:
        """The thread this screen's bytes go through; None: :meth:`show` sends them itself
        (or hands them to a link that never holds the loop's presses back)."""
        return None

    def close(self) -> None:
        """Release the bus or port."""


class Buzzer(ABC):
    """A buzzer: the table's shared one, or a seat pod's own piezo. Its tunes are heard by
    everyone (never a secret cue)."""

    @abstractmethod
    def play(self, tune: str, volume: float = 1.0) -> None:
        """Start a named tune from :mod:`hardware.tunes` without blocking, at ``volume``
        (0 silent .. 1 loudest)."""

    def sounds(self) -> bool:
        """Whether it makes a sound at all: a simulator's buzzer is text, and a pod without
        a piezo is silent. Where no buzzer sounds, the speaker plays the tunes."""
        return True

    def close(self) -> None:
        """Release the pin."""


class Vibrator(ABC):
    """A seat's private vibration motor."""

    @abstractmethod
    def pulse(self, pattern: str) -> None:
        """Start a pattern named in :data:`hardware.tunes.VIBRATION_PATTERNS` without blocking."""

    def close(self) -> None:
        """Release the pin."""


@dataclass(frozen=True)
class Sand:
    """The hourglass as of one moment: the public screen runs the sand on by itself.

    ``shown`` is ``exact`` (the sand and its seconds), ``bar`` (the sand only) or ``none``
    (only whether it runs).
    """

    remaining: float
    length: float
    running: bool
    shown: str = "exact"

    def left(self, elapsed: float) -> float:
        """The top bulb's seconds ``elapsed`` seconds after this moment."""
        return max(0.0, self.remaining - elapsed) if self.running else self.remaining


@dataclass(frozen=True)
class Code:
    """A fair deal's public check value, shown whole as text and as a QR code: the commitment
    from the cut on, the companion's key once the game is over (docs/fairness.md)."""

    label: str
    text: str


@dataclass(frozen=True)
class PublicPage:
    """What the public screen shows: words and the hourglass, every one of them public.

    The companion makes it from the public view (companion/public_view.py); a page has no
    field for a secret, so a public screen cannot draw one.
    """

    title: str
    lines: tuple[str, ...] = ()
    big: str | None = None
    sand: Sand | None = None
    banner: str | None = None
    highlight: bool = False  # "it is someone's turn": the title bar lights up
    code: Code | None = None
    joinable: tuple[int, ...] = ()  # phone seats a phone may open now (their links: give_links)


class PublicScreen(ABC):
    """A screen the whole table sees (HDMI): it is only ever handed a :class:`PublicPage`."""

    @abstractmethod
    def show(self, page: PublicPage, now: float) -> None:
        """Draw ``page`` as of ``now`` (it may animate between calls on its own)."""

    def reveal(self, text: str, now: float) -> None:
        """Show a public reveal the rules call for (an identity at death) prominently."""

    @abstractmethod
    def cue(self, tune: str, now: float) -> None:
        """Flash a tune's name briefly, for a player who did not hear it (tunes are public;
        vibrations are private and never reach this screen)."""

    def give_links(self, links: dict[int, str]) -> None:
        """The phone seats' links, each holding its seat's key: a screen only the table sees
        (HDMI, the window) shows a joinable seat's as a QR code; a screen any device on the
        network may read (a browser's) keeps the default and never takes them."""

    def tell_table(self, text: str, now: float) -> None:
        """Words for those at the table only (the table page's code): a screen only the table
        sees (HDMI, the window) shows them for a while; a screen any device on the network
        may read (a browser's) keeps this default and never takes them."""

    def close(self) -> None:
        """Release the display."""


class Speaker(ABC):
    """A loudspeaker for narration (where there is none, text on the screens stands in) and
    for the tunes when no buzzer sounds."""

    @abstractmethod
    def say(self, text: str, volume: float = 1.0) -> None:
        """Start speaking ``text`` without blocking, at ``volume`` (0 silent .. 1 loudest)."""

    @abstractmethod
    def play(self, tune: str, volume: float = 1.0) -> None:
        """Start a named tune from :mod:`hardware.tunes` without blocking, over any speech."""

    def close(self) -> None:
        """Release the audio device."""


@dataclass
class SeatHardware:
    """Everything wired to one seat. ``inputs`` is whatever must be kept alive (gpiozero
    Buttons, a pod link); ``one_button`` seats map short press to ACT and hold to PEEK;
    ``buzzer`` is the seat's own piezo (a pod's), whose loudness the seat sets; a phone seat's
    ``phone_link`` is the address its phone opens (its key in the ``#fragment``: a secret) and
    ``free_phone`` lets go of the device holding it, so the link opens on another."""

    number: int
    screen: SeatScreen
    one_button: bool = False
    vibrator: Vibrator | None = None
    inputs: list[object] = field(default_factory=list)
    buzzer: Buzzer | None = None
    phone_link: str | None = None
    free_phone: Callable[[], None] | None = None

    def has_own_sound(self) -> bool:
        return self.buzzer is not None and self.buzzer.sounds()


@dataclass
class TableHardware(Closing):
    """A whole table: its seats by number and the shared buzzer."""

    seats: dict[int, SeatHardware]
    buzzer: Buzzer | None = None
    public: PublicScreen | None = None
    speaker: Speaker | None = None
    server: Closing | None = None  # the web server: phone seats, the table's page

    def wires(self) -> list[Wire]:
        """The seats' screens' wires, each once."""
        wires = (seat.screen.wire() for seat in self.seats.values())
        return list({id(wire): wire for wire in wires if wire is not None}.values())

    def close(self) -> None:
        for seat in self.seats.values():
            for device in seat.inputs:
                close = getattr(device, "close", None)
                if close:
                    close()
            for output in (seat.vibrator, seat.buzzer):
                if output is not None:
                    output.close()
            seat.screen.close()
        for device in (self.buzzer, self.public, self.speaker, self.server):
            if device is not None:
                device.close()
