"""Test support for the secrecy suites: what a screen shows, and whether it shows a secret.

The engine lists, per seat, the phrases that seat must not see now
(``State.secrets_hidden_from``); everything here compares by value. A screen is checked twice:
its words (the :class:`~companion.render.Face` text) and its pixels, by searching the
rendered 128x64 frame for each secret phrase drawn in the screen's small font, upright and
inverted (a title bar), at any position. The pixel search is what makes a test notice a
secret that reaches the glass by any path the face text does not describe.
"""

from __future__ import annotations

import hashlib
import math
import queue
import threading
from collections.abc import Callable, Iterable
from functools import cache

from PIL import Image, ImageDraw

from companion import sealed
from companion.app import App
from companion.clock import FakeClock
from companion.composer import face_for, secret_face_for
from companion.journal import Journal
from companion.lobby import StartGame
from companion.render import Face, render, small_font
from engine import registry
from engine.api import Effect, GameOver, Narrate, Reveal, SeatView, State
from engine.rng import SeededRandom
from hardware.base import ButtonName, PublicPage, PublicScreen
from hardware.closing import Closing
from hardware.drivers.bus import BusWriter, RecordingBus, Tca9548a
from hardware.drivers.chorus import Chorus
from hardware.drivers.oled import CONTROLLERS, OledScreen
from hardware.headless import HeadlessTable
from tests.dealing import deal

ROW_SEPARATOR = "|"
HANG = 30.0  # seconds: only a writer that never gets to the gate, or a gate never let go


# --------------------------------------------------------------------------- words


def face_words(view: SeatView) -> list[str]:
    """The words of a seat's public face (what neighbours can glimpse)."""
    return [view.title, *view.lines, view.big or "", view.banner or ""]


def page_words(page: PublicPage) -> list[str]:
    """Every word on a page of the public screen (it has no field for a secret)."""
    code = [page.code.label, page.code.text] if page.code else []
    return [page.title, *page.lines, page.big or "", page.banner or "", *code]


def peek_words(view: SeatView) -> list[str]:
    """The words of a seat's PEEK face (drawn only while it holds PEEK)."""
    return [view.secret.title, *view.secret.lines] if view.secret else []


def effect_words(effects: Iterable[Effect]) -> list[str]:
    """Everything an effect puts on every screen or speaker."""
    words = []
    for effect in effects:
        if isinstance(effect, Narrate | Reveal):
            words.append(effect.text)
        elif isinstance(effect, GameOver):
            words.append(effect.outcome)
    return words


def leaked(texts: Iterable[str], hidden: Iterable[str]) -> list[tuple[str, str]]:
    """Each (secret, text) pair where a hidden phrase occurs in a text."""
    hidden = [phrase for phrase in hidden if phrase]
    return [(phrase, text) for text in texts for phrase in hidden if phrase in text]


def assert_no_leak(texts: Iterable[str], hidden: Iterable[str], where: str) -> None:
    found = leaked(texts, hidden)
    assert not found, f"{where} shows {found[0][0]!r} in {found[0][1]!r}"


# --------------------------------------------------------------------------- pixels


def frame_rows(image: Image.Image) -> list[str]:
    """The frame as rows of '0' and '1' characters (PIL packs mode "1" MSB first)."""
    width, height = image.size
    data = image.convert("1").tobytes()
    stride = (width + 7) // 8
    rows = []
    for y in range(height):
        bits = int.from_bytes(data[y * stride : (y + 1) * stride], "big")
        rows.append(format(bits, f"0{stride * 8}b")[:width])
    return rows


@cache
def phrase_glyphs(phrase: str) -> tuple[tuple[str, ...], int]:
    """``phrase`` in the small font, cropped to its ink: the pattern a screen would hold, and
    the row with the most ink (the one searched for first)."""
    width = 6 * len(phrase) + 8
    image = Image.new("1", (width, 16), 0)
    ImageDraw.Draw(image).text((1, 0), phrase, font=small_font(), fill=1)
    box = image.getbbox()
    if box is None:
        return (), 0
    pattern = tuple(frame_rows(image.crop(box)))
    return pattern, max(range(len(pattern)), key=lambda r: pattern[r].count("1"))


@cache
def sealed_cells(phrase: str) -> tuple[tuple[str, ...], int]:
    """``phrase`` as a sealed row draws it (companion/sealed.py): its cells side by side, the
    dark pixels as ones, and the row with the most of them."""
    width = sealed.CELL_WIDTH * len(phrase)
    mask = Image.new("1", (width, sealed.CELL_HEIGHT), 0)
    for index, ch in enumerate(phrase):
        for x, y in sealed.cell(ch, small_font()):
            mask.putpixel((sealed.CELL_WIDTH * index + x, y), 1)
    pattern = tuple(frame_rows(mask))
    return pattern, max(range(len(pattern)), key=lambda r: pattern[r].count("1"))


def _found_in(rows: list[str], text: str, glyphs: tuple[tuple[str, ...], int]) -> bool:
    pattern, anchor = glyphs
    stride = len(rows[0]) + 1
    position = text.find(pattern[anchor])
    while position != -1:
        y, x = divmod(position, stride)
        top = y - anchor
        if top >= 0 and top + len(pattern) <= len(rows) and all(
            rows[top + r][x : x + len(line)] == line for r, line in enumerate(pattern)
        ):
            return True
        position = text.find(pattern[anchor], position + 1)
    return False


def drawn_phrases(image: Image.Image, phrases: Iterable[str]) -> list[str]:
    """The phrases whose glyphs appear in ``image``, light on dark or dark on light, or in the
    sealed card's cells (each glyph with the dots that even out its ink)."""
    rows = frame_rows(image)
    inverted = [row.translate(_INVERT) for row in rows]
    texts = ROW_SEPARATOR.join(rows), ROW_SEPARATOR.join(inverted)
    return [phrase for phrase in phrases if phrase_glyphs(phrase)[0] and (
        _found_in(rows, texts[0], phrase_glyphs(phrase))
        or _found_in(inverted, texts[1], phrase_glyphs(phrase))
        or _found_in(inverted, texts[1], sealed_cells(phrase)))]


_INVERT = str.maketrans("01", "10")
_KEPT: set[tuple[Face, frozenset[str]]] = set()  # faces already checked: games repeat them


def assert_face_keeps(face: Face, hidden: frozenset[str], where: str) -> None:
    """Neither the words nor the pixels of ``face`` hold a hidden phrase."""
    if (face, hidden) in _KEPT:
        return
    assert_no_leak([face.text(), face.bar_right], hidden, where)
    found = drawn_phrases(render(face), hidden)
    assert not found, f"{where}: the pixels spell {found[0]!r}"
    _KEPT.add((face, hidden))


# --------------------------------------------------------------------------- whole states


def seat_faces(state: State, seat: int | None, now: float) -> tuple[Face, Face]:
    """The public face (with the first action on its bar) and the PEEK face of ``seat``."""
    view = state.view(seat, now)
    actions = state.legal_actions(seat) if seat is not None else []
    bar = f"> {actions[0].label}" if actions else ""
    return face_for(view, bar), secret_face_for(view)


def assert_state_keeps_secrets(state: State, now: float) -> None:
    """Every seat's face, bar labels and PEEK face, and the public face, at ``now``."""
    public = state.secrets_hidden_from(None)
    for seat in (*state.seats, None):
        own = state.secrets_hidden_from(seat)
        assert own <= public, f"seat {seat} may not see {sorted(own - public)}, the public may"
        face, peek = seat_faces(state, seat, now)
        assert_face_keeps(face, public, f"seat {seat}'s face")
        labels = [a.label for a in state.legal_actions(seat)] if seat is not None else []
        assert_no_leak(labels, public, f"seat {seat}'s actions")
        if seat is not None:
            assert_face_keeps(peek, own, f"seat {seat}'s PEEK face")
        else:
            assert_no_leak(peek_words(state.view(None, now)), public, "the public PEEK face")


def generators(value: object, depth: int = 4) -> list[SeededRandom]:
    """Every :class:`SeededRandom` reachable from ``value`` through attributes and containers."""
    if isinstance(value, SeededRandom):
        return [value]
    if depth == 0 or isinstance(value, str | bytes | int | float | type(None)):
        return []
    if isinstance(value, dict):
        children = list(value.values())
    elif isinstance(value, list | tuple | set | frozenset):
        children = list(value)
    else:
        children = list(getattr(value, "__dict__", {}).values())
    return [found for child in children for found in generators(child, depth - 1)]


def generator_positions(state: State) -> list[tuple[int, bytes]]:
    """Where each of the state's generators stands: equal before and after means no draw."""
    return [(rng._counter, rng._pool) for rng in generators(state)]


# --------------------------------------------------------------------------- a whole table


class RecordingPublic(PublicScreen):
    """The HDMI screen as a list of the pages it was handed, and the tunes it flashed."""

    def __init__(self) -> None:
        self.pages: list[PublicPage] = []
        self.tunes: list[str] = []

    def show(self, page: PublicPage, now: float) -> None:
        self.pages.append(page)

    def cue(self, tune: str, now: float) -> None:
        self.tunes.append(tune)


class _Gate:
    """A task that holds its writer's thread until let go: whatever is handed to the writer
    meanwhile waits behind it, all of it pending at once when the first transfer is planned."""

    def __init__(self) -> None:
        self.inside = threading.Event()
        self.open = threading.Event()
        self.held_too_long = False

    def step(self) -> bool:
        self.inside.set()
        self.held_too_long = not self.open.wait(HANG)
        return False


class SharedWire:
    """Every seat's screen behind one TCA9548A on one recording bus, with one writer and one
    chorus, as hardware/build.py wires a userspace mux: screens that are to show the same
    frame get its bytes once, the mux's select byte then having a bit set for each.

    Which screens share depends on which have work pending at once on the writer's thread,
    so :meth:`moment` takes the timing out of it: the writer is held in a gate while the
    table acts, every screen's update queues behind the gate, and the wire is drained once
    the gate is let go. The same moments on the same table then put the same bytes on the
    wire, whatever the threads did meanwhile.
    """

    def __init__(self, driver: str = "ssd1306", address: int = 0x3C) -> None:
        self.bus = RecordingBus()
        self._mux = Tca9548a(self.bus)
        self._writer = BusWriter("i2c-1")
        self._chorus = Chorus(address, CONTROLLERS[driver], self._writer, self._mux)
        self._driver, self._address = driver, address

    def screen(self, number: int) -> OledScreen:
        """Seat ``number``'s screen, on the mux's channel ``number - 1``."""
        return OledScreen(self._mux.channel(number - 1), driver=self._driver,
                          address=self._address, writer=self._writer, chorus=self._chorus)

    def moment(self, action: Callable[[], object]) -> None:
        """Do ``action`` with the writer held, then send all it handed over."""
        gate = _Gate()
        self._writer.submit(gate, lambda error: None)
        assert gate.inside.wait(HANG), "the writer never got to the gate"
        try:
            action()
        finally:
            gate.open.set()
        self.drain()
        assert not gate.held_too_long, "the moment waited for the wire it held"

    def drain(self) -> None:
        """Wait until everything handed to the writer so far is on the wire."""
        self._writer.call(lambda: None)

    def settle(self) -> None:
        """Drain, then connect the first seat's channel: after moments nobody compares (the
        start, two games the rules set apart) two tables' muxes may be left on different
        seats, and the next moment would select a seat on one wire and not on the other."""
        def first() -> None:
            with self._mux.selected(0):
                pass

        self._writer.call(first)


class Table(Closing):
    """The app on the headless table (mock pins, luma over recording buses), a fake clock,
    a recording public screen, and every status line the app wrote.

    ``wire``: the seats' screens are behind one mux on it instead, and each of the table's
    moments (a press, an action, a wake-up) is one of the wire's. The start (blanking, then
    the lobby, drawn while the writer races the loop: ``App.start`` blanks through the
    writer, so it cannot be held) is left off its record: no game is on, nothing is secret,
    and those bytes would tell apart only two runs of the threads."""

    def __init__(self, seats: int = 4, *, journal: Journal | None = None,
                 key: bytes = b"side paths key 0123456789abcdef!",
                 wire: SharedWire | None = None) -> None:
        self.clock = FakeClock()
        self.events: queue.Queue = queue.Queue()
        self.wire = wire
        self.headless = HeadlessTable(range(1, seats + 1), self.events.put, clock=self.clock,
                                      screens=None if wire is None else wire.screen)
        self.public = RecordingPublic()
        self.headless.hardware.public = self.public
        self.status: list[str] = []
        self.keys = [key]  # the companion's key for each deal, in order
        self.app = App(self.headless.hardware, clock=self.clock, journal=journal,
                       key_source=self._next_key, on_status=self.status.append)
        self.app.start()
        if wire is not None:
            wire.settle()
            wire.bus.clear()
        self.checked_status = 0
        self.checked_pages = 0

    def moment(self, action: Callable[[], object]) -> None:
        """Do ``action`` and let the screens show it (on a shared wire: all of it sent)."""
        if self.wire is None:
            action()
        else:
            self.wire.moment(action)

    def _next_key(self, count: int) -> bytes:
        key = self.keys[-1]
        self.keys.append(hashlib.sha256(key).digest())
        return key[:count]

    def deal_secrets(self) -> frozenset[str]:
        """What must stay hidden about the deal until the end: the key and the seed."""
        record = self.app.session.record
        assert record is not None
        return frozenset({record.key.hex()[:16], record.seed.hex()[:16]})

    def start(self, key: str, players: int, options: dict[str, str] | None = None) -> State:
        game = registry.get(key)

        def started() -> None:
            deal(self.app, StartGame(game, tuple(range(1, players + 1)), options or {}),
                 self.clock())
            self.app.redraw()

        self.moment(started)
        assert self.app.session.state is not None
        return self.app.session.state

    def pump(self) -> None:
        self.moment(self._handle)

    def _handle(self) -> None:
        while not self.events.empty():
            self.app.handle(self.events.get_nowait())
        self.app.advance()

    def wait(self, seconds: float, each: Callable[[], object] = lambda: None) -> None:
        """Let ``seconds`` pass, waking at every deadline as the app loop would, and call
        ``each`` after every wake-up's redraw (a test that reads every screen).

        Deadlines are on the game clock, which a resumed game offsets from the fake one."""
        target = self.app.clock() + seconds
        while (deadline := self.app.next_deadline()) is not None and deadline <= target:
            self._wake(deadline)
            each()
        self._wake(target)
        each()

    def _wake(self, at: float) -> None:
        def woken() -> None:
            self._reach(at)
            self.app.advance()

        self.moment(woken)

    def _reach(self, moment: float) -> None:
        """Move the fake clock on until the game clock reads at least ``moment`` (exactly,
        though the offset's rounding could leave it a hair short)."""
        raw = max(self.clock.now, moment - self.app.clock.offset)
        while raw + self.app.clock.offset < moment:
            raw = math.nextafter(raw, math.inf)
        self.clock.now = raw

    def choose(self, seat: int, action_id: str) -> None:
        def chosen() -> None:
            self.app.choose(seat, action_id, self.app.clock())
            self.app.redraw()

        self.moment(chosen)

    def press(self, seat: int, button: ButtonName, pressed: bool) -> None:
        self.headless.drive(seat, button, pressed)
        self.pump()

    def close(self) -> None:
        self.headless.close()


def random_table_step(table: Table, player: SeededRandom, *, system: bool = True) -> None:
    """A seat (active ones mostly) picks a random offered action, then 0-3 s pass."""
    app = table.app
    active = sorted(app.session.state.active_seats()) if app.session.state is not None else []
    seats = active if active and player.below(4) else list(app.seat_numbers)
    seat = player.choice(seats)
    actions = [a for a in app.actions(seat) if system or not a.id.startswith("sys:")]
    if actions:
        table.choose(seat, player.choice(actions).id)
    table.wait(player.below(4))


def assert_table_keeps_secrets(table: Table, hidden: frozenset[str] = frozenset()) -> None:
    """Every seat's face as drawn (a peeking seat: its own secrets), the public screen's pages
    and the status lines since the last check, against the state's secrets plus ``hidden``."""
    app = table.app
    state = app.session.state
    public = hidden | (state.secrets_hidden_from(None) if state is not None else frozenset())
    for seat in app.seat_numbers:
        face = app.screens.faces.get(seat)
        if face is None:
            continue
        own = public
        if app.ui[seat].peeking and state is not None and seat in state.seats:
            own = hidden | state.secrets_hidden_from(seat)
        assert_face_keeps(face, own, f"seat {seat} (peeking: {app.ui[seat].peeking})")
    for page in table.public.pages[table.checked_pages:]:
        assert_no_leak(page_words(page), public, "the public screen")
    assert_no_leak(table.status[table.checked_status:], public, "a status line")
    table.checked_pages, table.checked_status = len(table.public.pages), len(table.status)
