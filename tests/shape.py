"""Test support for the shape-neutrality suite: two tables in lockstep, one of them dealt
differently, and everything a neighbour could notice of either, compared.

Table A plays a seeded random game. Before every move, table B is given a copy of A's game
in which the secrets that are still secret are dealt again among the seats (a permutation
with the same public facts, from :data:`REDEALS`). Both tables then get exactly the same
presses, holds, releases, actions and passing time, and after each of them this holds:

- every seat's I2C traffic is the same: the same transfers in the same order, commands byte
  for byte, data of the same lengths (the pixels a secret lights may differ, not how many
  bytes carry them or when); with every seat behind one mux, the whole wire's traffic, in
  its order, the mux's select bytes whole (which seats were sent one frame together);
- every cue is the same: tunes, vibrations (seat and pattern), speech, the public screen;
- a seat that is not peeking shows the same face; a peeking seat's face has the same
  outline: per 8-pixel page, the columns where lit pixels start and end, and the same
  words outside its secret (its bar, its page count, how many lines it has);
- a peeking seat's face, every page of it, blurred as a glance from a metre sees it (a
  Gaussian of 2.5 pixels, about one character cell), differs by at most :data:`GLANCE_BOUND`
  of 255 anywhere: the ink of each cell tells nothing either.

A step whose narration differs between A and B is one where the rules tell the table
something that depends on the secret (a death shows the identity; a challenged Hero is
shown): from there on the two games differ by the rules, so nothing is compared until B is
dealt again from A, before the next move.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable

from PIL import Image, ImageChops, ImageFilter

from companion.composer import secret_face_for
from companion.render import SEALED_ROWS, Face, render
from companion.sealed import GLANCE_BLUR
from engine.api import State
from engine.rng import SeededRandom
from hardware.base import ButtonName, Speaker, Vibrator
from hardware.drivers.bus import MUX_ADDRESSES, RecordingBus, Transfer
from hardware.drivers.planner import PAGES, WIDTH, page_bytes
from tests.secrecy import SharedWire, Table

DATA_CONTROL = 0x40  # luma's control byte before display data (0x00: commands)
HOLD = 0.5  # past the hold time: PEEK shows the private face
EAGER = frozenset({"ok", "done"})  # an entry or a step finished: the game moves on
RELUCTANT = frozenset({"unpick", "-1"})  # taking back what was just done
# A sealed cell's blurred ink is at most 24 of 255 off a blank cell's (the heaviest glyphs,
# "p" "k" "H", cannot shed ink); two secrets differ at a point by at most two such cells, one
# in each: 48, against 96 to 121 when whole words and row lengths showed through. Above this
# a cell's ink, not only its shape, would tell secrets apart.
GLANCE_BOUND = 48


# --------------------------------------------------------------------------- re-dealing


def _shuffled(rng: SeededRandom, items: list) -> list:
    items = list(items)
    rng.shuffle(items)
    return items


def _they_live(state: State, rng: SeededRandom) -> None:
    """Identities (and the spare card) among the seats not yet revealed, keeping at least
    one living Invader and one living Human (else the game would be over)."""
    hidden = [s for s in state.seats if not state.players[s].revealed]
    spare = state.spare is not None and not state.spare_revealed
    cards = [state.identities[s] for s in hidden] + ([state.spare] if spare else [])
    for _ in range(8):
        dealt = _shuffled(rng, cards)
        identities = {**state.identities, **dict(zip(hidden, dealt, strict=False))}
        alive = {identities[s] for s in state.seats if state.players[s].alive}
        if alive >= {"Human", "Invader"}:
            state.identities = identities
            if spare:
                state.spare = dealt[-1]
            return


def _mind_invaders(state: State, rng: SeededRandom) -> None:
    hidden = [s for s in state.seats if s not in state.revealed]
    dealt = _shuffled(rng, [state.characters[s] for s in hidden])
    state.characters = {**state.characters, **dict(zip(hidden, dealt, strict=True))}


def _heroes(state: State, rng: SeededRandom) -> None:
    """Hands among the living seats holding as many cards; what a Mage saw follows the card."""
    table = state.table
    seen = {mage: (target, table.hand(target).index(hero))
            for mage, (target, hero) in state.peeks.items() if hero in table.hand(target)}
    by_size: dict[int, list[int]] = {}
    for seat in table.living():
        by_size.setdefault(len(table.hand(seat)), []).append(seat)
    for seats in by_size.values():
        hands = _shuffled(rng, [list(table.hand(s)) for s in seats])
        for seat, hand in zip(seats, hands, strict=True):
            table.purses[seat].hand = hand
    state.peeks = {mage: (target, table.hand(target)[index])
                   for mage, (target, index) in seen.items()}


def _alter_ego(state: State, rng: SeededRandom) -> None:
    dealt = _shuffled(rng, [state.nemesis_row[s] for s in state.seats])
    state.nemesis_row = dict(zip(state.seats, dealt, strict=True))


def _nothing_secret(state: State, rng: SeededRandom) -> None:
    """Staying Alive: roles and stamina lie face up; the only other deal is the same one."""


REDEALS: dict[str, Callable[[State, SeededRandom], None]] = {
    "they-live": _they_live,
    "mind-invaders": _mind_invaders,
    "heroes-love-to-lie": _heroes,
    "alter-ego": _alter_ego,
    "staying-alive": _nothing_secret,
}


def redealt(key: str, state: State, rng: SeededRandom) -> State:
    """A copy of ``state`` with its secrets dealt again; before the deal (its players still
    cutting with their first presses) there is no secret to deal."""
    other = copy.deepcopy(state)
    if state.dealt:
        REDEALS[key](other, rng)
    return other


# --------------------------------------------------------------------------- what is seen


def outline(image) -> tuple[tuple[int, int] | None, ...]:
    """Per 8-pixel page, the first and last column with a lit pixel (None: a dark page)."""
    frame = page_bytes(image)
    spans = []
    for page in range(PAGES):
        row = frame[page * WIDTH : (page + 1) * WIDTH]
        lit = [x for x, column in enumerate(row) if column]
        spans.append((lit[0], lit[-1]) if lit else None)
    return tuple(spans)


def face_shape(face: Face) -> tuple:
    """A face with its secret words taken out: what else a glance could tell apart."""
    words = (len(face.lines), face.bar, face.bar_right)
    return (face.sealed, face.inverted_title, words, outline(render(face)))


def glance(face: Face) -> Image.Image:
    """``face`` as a neighbour a metre away sees it: blurred over about a character cell."""
    return render(face).convert("L").filter(ImageFilter.GaussianBlur(GLANCE_BLUR))


def glance_gap(ours: Face, theirs: Face) -> int:
    """How far apart two faces look at a glance: the largest difference, of 255."""
    return ImageChops.difference(glance(ours), glance(theirs)).getextrema()[1]


def peek_pages(view) -> list[Face]:
    """Every page of the PEEK face of ``view``, as it is drawn in turn while PEEK is held."""
    lines = view.secret.lines if view.secret else ()
    return [secret_face_for(view, page) for page in range(max(1, -(-len(lines) // SEALED_ROWS)))]


def transfer_shape(transfer: Transfer) -> tuple:
    """A transfer as a wire shows it: commands whole, display data by its length only."""
    if transfer.control == DATA_CONTROL:
        return transfer.address, transfer.control, len(transfer.data)
    return transfer.address, transfer.control, transfer.data


class RecordingVibrator(Vibrator):
    def __init__(self, seat: int, cues: list) -> None:
        self.seat, self.cues = seat, cues

    def pulse(self, pattern: str) -> None:
        self.cues.append(("vibrate", self.seat, pattern))


class RecordingSpeaker(Speaker):
    def __init__(self, cues: list) -> None:
        self.cues = cues

    def say(self, text: str, volume: float = 1.0) -> None:
        self.cues.append(("say", text))

    def play(self, tune: str, volume: float = 1.0) -> None:
        self.cues.append(("tune", tune))


class Watched(Table):
    """A headless table whose every output is recorded, and read since the last look;
    ``mux``: its seats' screens behind one mux (:class:`tests.secrecy.SharedWire`)."""

    def __init__(self, seats: int, *, mux: bool = False) -> None:
        super().__init__(seats, wire=SharedWire() if mux else None)
        self.cues: list = []
        hardware = self.headless.hardware
        for number, seat in hardware.seats.items():
            seat.vibrator = RecordingVibrator(number, self.cues)
        hardware.speaker = RecordingSpeaker(self.cues)
        self._marks: dict[str, int] = {}

    def since(self, name: str, items: list) -> list:
        start = self._marks.get(name, 0)
        self._marks[name] = len(items)
        return items[start:]

    def shapes(self, name: str, bus: RecordingBus) -> list[tuple]:
        return [transfer_shape(t) for t in self.since(name, bus.transfers)]

    def seen(self) -> dict:
        """Everything a neighbour could notice since the last call."""
        app = self.app
        status = self.since("status", self.status)
        seen = {
            "words": [line for line in status if not line.startswith("♪")],
            "cues": [*self.since("cues", self.cues), *self.since("tunes", app.effects.tunes)],
            "public": self.since("public", self.public.pages),
        }
        if self.wire is not None:  # every seat's traffic in its order, the mux's selects
            seen["wire"] = self.shapes("wire", self.wire.bus)
        for number in app.seat_numbers:
            if (bus := self.headless.buses.get(number)) is not None:
                seen[f"bus {number}"] = self.shapes(f"bus {number}", bus)
            face = app.screens.faces.get(number)
            if face is not None:
                seen[f"face {number}"] = face_shape(face) if app.ui[number].peeking else face
        return seen


# --------------------------------------------------------------------------- lockstep


@dataclasses.dataclass
class Lockstep:
    """Tables A and B, driven alike; B is dealt again from A before every move."""

    key: str
    players: int
    options: dict[str, str]
    number: int
    mux: bool = False  # every seat behind one mux, on one wire
    a: Watched = dataclasses.field(init=False)
    b: Watched = dataclasses.field(init=False)
    compared: int = 0
    told_apart: int = 0  # compared moments at which some seat's PEEK face said other words
    glanced: int = 0  # the largest glance_gap between two deals' PEEK pages, of 255
    undealt: int = 0  # compared moments before the deal (the players cutting in play)
    parted: bool = False  # the rules told the table something of the secret: until re-dealt
    together: int = 0  # compared select bytes that connected several seats (mux: one frame)

    def __post_init__(self) -> None:
        self.a = Watched(self.players, mux=self.mux)
        self.b = Watched(self.players, mux=self.mux)
        self.player = SeededRandom(f"shape player {self.key} {self.number}".encode())
        self.dealer = SeededRandom(f"shape dealer {self.key} {self.number}".encode())
        for table in (self.a, self.b):
            table.start(self.key, self.players, self.options)
        self.check("the start")

    def close(self) -> None:
        self.a.close()
        self.b.close()

    def redeal(self) -> None:
        """B's game becomes A's with its secrets dealt again (nothing is drawn for it)."""
        session, theirs = self.b.app.session, self.a.app.session
        game, their_game = session.game, theirs.game
        game.state = redealt(self.key, their_game.state, self.dealer)
        if self.parted:  # B's game went its own way (it may even have ended): A's history
            game.record = copy.deepcopy(their_game.record)
            game.ended_at = their_game.ended_at
        session.changed()  # what each seat is offered is worked out again
        if self.parted:
            self._rejoin()
        self.a.seen(), self.b.seen()  # a new deal is not a move: nothing is compared

    def _rejoin(self) -> None:
        """After the games went apart, B takes A's seat news (notices, highlights) and both
        tables redraw every screen whole, so they start the next move alike."""
        for number in self.a.app.seat_numbers:
            ours, theirs = self.a.app.ui[number], self.b.app.ui[number]
            theirs.__dict__.update(copy.deepcopy(ours.__dict__))
            for table in (self.a, self.b):
                table.app.screens.forget(number)
        for table in (self.a, self.b):
            table.moment(table.app.redraw)
            if table.wire is not None:
                table.wire.settle()
        self.parted = False

    def both(self, move: Callable[[Watched], None], what: str) -> None:
        for table in (self.a, self.b):
            move(table)
        self.check(what)

    def check(self, what: str) -> None:
        ours, theirs = self.a.seen(), self.b.seen()
        self.parted = self.parted or ours["words"] != theirs["words"]
        if self.parted:
            return  # the two games went apart by the rules: nothing more to compare
        self.told_apart += any(
            self.a.app.ui[number].peeking and face != self.b.app.screens.faces.get(number)
            for number, face in self.a.app.screens.faces.items())
        for name, value in ours.items():
            assert value == theirs[name], (
                f"{self.key} game {self.number}, {what}: {name} differs between two deals"
                f" with the same public facts:\n{value}\n{theirs[name]}")
        self._glance(what)
        self.compared += 1
        self.together += sum(1 for address, control, data in ours.get("wire", ())
                             if address in MUX_ADDRESSES and control is None
                             and data[0].bit_count() > 1)
        self.undealt += not self.a.app.session.state.dealt

    def _glance(self, what: str) -> None:
        """Every page of every peeking seat's face, blurred, is the same on both tables."""
        for number in self.a.app.seat_numbers:
            if not self.a.app.ui[number].peeking:
                continue
            pages = [peek_pages(t.app.composer.view(number, t.app.clock()))
                     for t in (self.a, self.b)]
            for page, (ours, theirs) in enumerate(zip(*pages, strict=True)):
                gap = glance_gap(ours, theirs)
                self.glanced = max(self.glanced, gap)
                assert gap <= GLANCE_BOUND, (
                    f"{self.key} game {self.number}, {what}: seat {number}'s PEEK page {page + 1}"
                    f" differs by {gap} of 255 at a glance between two deals:\n{ours}\n{theirs}")

    def step(self, holding: set[int] | None = None) -> None:
        """One moment: some seats (``holding``; by default a random few, now and then all)
        start or stop holding PEEK, one seat acts, time passes."""
        state = self.a.app.session.state
        if state is None or state.is_terminal():
            return
        self.redeal()
        if holding is None:
            everyone = self.player.below(4) == 0
            holding = {n for n in self.a.app.seat_numbers if everyone or self.player.below(3) == 0}
        for number in self.a.app.seat_numbers:
            pressed = number in holding
            self.both(lambda t, n=number, p=pressed: t.press(n, ButtonName.PEEK, p),
                      f"seat {number} {'holds' if pressed else 'lets go of'} PEEK")
        self.both(lambda t: t.wait(HOLD), "a hold")
        active = sorted(state.active_seats())
        seat = self.player.choice(active or list(self.a.app.seat_numbers))
        actions = [a for a in self.a.app.actions(seat) if not a.id.startswith("sys:")]
        # Mostly an eager player (it finishes entries, never takes back), so games get past
        # their setup; now and then any action at all.
        eager = [a for a in actions if a.id in EAGER] or [
            a for a in actions if a.id not in RELUCTANT]
        if self.player.below(6):
            chosen = eager[:1]
        else:
            chosen = [self.player.choice(actions)] if actions else []
        for action in chosen:
            self.both(lambda t, a=action.id: t.choose(seat, a), f"seat {seat} {action.id!r}")
        pause = self.player.below(4)
        self.both(lambda t: t.wait(pause), f"{pause} s passing")
