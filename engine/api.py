"""The shape every game takes (after OpenSpiel and boardgame.io).

A :class:`Game` describes; a :class:`State` is one game in progress. The companion only ever
asks a state who may act (``active_seats``), what they may do (``legal_actions``), applies a
choice (``apply``), lets time pass (``advance``) and draws ``view`` results. Views are the only
thing renderers see, so a seat's screen is built from data that never held another seat's
secret: that is the structural guarantee behind every secrecy test.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .cues import Pattern, Tune
from .exc import IllegalAction, SetupError

# --------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Action:
    """One thing a seat may do now.

    ``id`` is stable and journaled (``"flip"``, ``"strain:3"``); ``label`` fits one line of a
    128-pixel screen. ``undoable`` marks pure bookkeeping that the table may take back;
    anything that draws from the seed or moves time is never undoable.
    """

    id: str
    label: str
    undoable: bool = False
    confirm: bool = False  # a second ACT is needed: for a press that cannot be taken back
    repeat: bool = False  # the highlight stays on it, so ACT can be pressed again (+1, -1)
    counts: bool = False  # a count's step (+1, +5, -1): a held ACT repeats it, ever faster


# --------------------------------------------------------------------------- effects


@dataclass(frozen=True)
class Effect:
    """Something the companion plays after an action: never part of the state itself."""


@dataclass(frozen=True)
class Narrate(Effect):
    """Text for the table (spoken where a speaker exists, else on every screen)."""

    text: str


@dataclass(frozen=True)
class Buzz(Effect):
    """A tune on the shared buzzer; every seat hears it, so it must carry no secret."""

    tune: Tune


@dataclass(frozen=True)
class Vibrate(Effect):
    """A private cue felt only by one seat."""

    seat: int
    pattern: Pattern = Pattern.SHORT


@dataclass(frozen=True)
class Reveal(Effect):
    """A public reveal the rules call for (an identity at death, a challenged Hero)."""

    text: str


@dataclass(frozen=True)
class GameOver(Effect):
    outcome: str


# --------------------------------------------------------------------------- views

# A view's line holds at most this many characters: a title, a body line, an action's label
# with its room. The engine decides what a view may hold; each screen the companion draws is
# made to show that much (companion/render.py: its font sets 21 cells across 128 pixels).
LINE = 21
# An action's label leaves the bar's last cell to its count ("3/5", drawn small beside it).
LABEL = LINE - 1



@dataclass(frozen=True)
class HourglassView:
    """What a screen shows of the hourglass: ``shown`` is ``exact``, ``bar`` or ``none``."""

    remaining: float
    length: float
    running: bool
    shown: str = "exact"


SECRET_PAGE = 3  # lines a PEEK face shows at a time (the companion's sealed face's rows)


@dataclass(frozen=True)
class SecretFace:
    """The PEEK face: drawn only while the seat holds PEEK, :data:`SECRET_PAGE` lines a
    page. ``page_titles`` names pages that are about something else than ``title`` says
    (They Live's Hoffman Lenses results): page ``n`` is titled ``page_titles[n]`` when
    there is one."""

    title: str
    lines: tuple[str, ...] = ()
    page_titles: tuple[str, ...] = ()

    def title_of(self, page: int) -> str:
        return self.page_titles[page] if page < len(self.page_titles) else self.title


@dataclass(frozen=True)
class SeatView:
    """Everything one seat's screen may show, already filtered for that seat.

    ``view(None)`` gives the public face (the public screen, the simulator's overview); it is
    built by the same code with no seat, so it can only hold public facts.
    """

    title: str
    lines: tuple[str, ...] = ()
    big: str | None = None
    hourglass: HourglassView | None = None
    banner: str | None = None
    secret: SecretFace | None = None
    highlight: bool = False  # "it is your turn": the renderer inverts the title bar


# --------------------------------------------------------------------------- options


@dataclass(frozen=True)
class Option:
    """A setup choice offered in the game menu; the first choice is the default."""

    key: str
    label: str
    choices: tuple[str, ...]

    @property
    def default(self) -> str:
        return self.choices[0]


# Card values a table entered in an earlier game ride along with the options as
# "known:<name>" (see engine/known.py), so the journal replays a game with the same values.
KNOWN_PREFIX = "known:"


def resolve_options(options: Sequence[Option], given: Mapping[str, str]) -> dict[str, str]:
    """Fill defaults and reject unknown keys or values with a message a host can act on;
    known card values (``known:...``) pass through untouched."""
    known = {opt.key: opt for opt in options}
    for key, value in given.items():
        if key.startswith(KNOWN_PREFIX):
            continue
        if key not in known:
            raise SetupError(f"no option '{key}' (options: {', '.join(known) or 'none'})")
        if value not in known[key].choices:
            choices = ", ".join(known[key].choices)
            raise SetupError(f"option {key}: '{value}' is not one of {choices}")
    resolved = {opt.key: given.get(opt.key, opt.default) for opt in options}
    return resolved | {k: v for k, v in given.items() if k.startswith(KNOWN_PREFIX)}


# --------------------------------------------------------------------------- game and state


class Game(ABC):
    """A registered game: its name, its player counts, its options and how to start one."""

    key: str
    name: str
    min_players: int
    max_players: int
    options: tuple[Option, ...] = ()
    state_class: type[State]
    # The game opens with a public phase that needs no seed (They Live's character pick):
    # its state is made with ``seed`` None, each seat's first press is that seat's cut, and
    # the state is dealt (``State.deal``) once every seat has made it (engine/rng.py).
    first_press_cuts: bool = False

    def check_players(self, seats: Sequence[int]) -> None:
        if not self.min_players <= len(seats) <= self.max_players:
            raise SetupError(
                f"{self.name} needs {self.min_players} to {self.max_players} players,"
                f" not {len(seats)}"
            )

    def new_state(
        self, seats: Sequence[int], options: Mapping[str, str], seed: bytes | None
    ) -> State:
        """Deal and set up. ``seats`` are clockwise; ``seed`` drives every random choice (None:
        not yet, for a game whose first presses cut; :meth:`State.deal` brings it).

        The default builds ``state_class(seats, options, seed)`` after checking the player
        count and filling in the options' defaults; games with other needs override it.
        """
        self.check_players(seats)
        return self.state_class(seats, resolve_options(self.options, options), seed)

    def parse_deck_list(self, text: str) -> tuple[str, ...]:
        """Cards of a table-supplied list (They Live's War Table deck), one entry per card.

        Only games that can shuffle and name a table's own cards take one; the rulebooks do
        not list every card, so the engine never invents a deck.
        """
        raise SetupError(f"{self.name} takes no deck list")

    def new_state_with_deck(
        self,
        seats: Sequence[int],
        options: Mapping[str, str],
        seed: bytes | None,
        deck_list: Sequence[str] | None,
    ) -> State:
        """:meth:`new_state` with the table's deck list, if it gave one."""
        if deck_list is not None:
            raise SetupError(f"{self.name} takes no deck list")
        return self.new_state(seats, options, seed)


class State(ABC):
    """One game in progress. Subclasses keep everything needed to answer the methods below.

    Every game's state is made the same way, ``State(seats, options, seed)``: the seats in
    clockwise order, the options already resolved (:func:`resolve_options`: every key, its
    value checked, plus the table's ``known:`` card values), and the seed every random choice
    comes from (None for a game whose first presses cut: :meth:`deal` brings it). A game with
    a seed draws its deal in the constructor; nothing else is passed in.

    ``apply`` with ``seat=None`` is reserved for the table itself (pause, resume, and "end":
    the game ended early), so the companion can journal those alongside player actions.
    """

    def __init__(self, seats: Sequence[int], options: Mapping[str, str],
                 seed: bytes | None) -> None:
        self.seats: tuple[int, ...] = tuple(seats)
        self.options: dict[str, str] = dict(options)
        self.seed = seed  # None until the players' first presses have cut (Game.first_press_cuts)
        self.paused = False

    @property
    def dealt(self) -> bool:
        return self.seed is not None

    def deal(self, seed: bytes) -> None:
        """The seed arrives, once every seat has cut: draw what the game draws from it. Only a
        game whose first presses cut is made without one, and a game is dealt once."""
        if self.seed is not None:
            raise RuntimeError("a game is dealt once")
        self.seed = seed
        self._deal()

    def _deal(self) -> None:
        """Draw from ``self.seed`` (a game whose first presses cut overrides this)."""
        raise NotImplementedError(f"{type(self).__name__} is dealt when it is made")

    @abstractmethod
    def active_seats(self) -> frozenset[int]:
        """Seats that may act now: a set, because votes and challenges are simultaneous."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """What ``seat`` may do now, the most likely first (it is what ACT does at once)."""

    @abstractmethod
    def _apply(self, seat: int, action: Action, now: float) -> list[Effect]:
        """Carry out an action already checked to be legal."""

    @abstractmethod
    def view(self, seat: int | None, now: float) -> SeatView:
        """The seat's screen (or the public one for ``None``)."""

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def result(self) -> str | None:
        """The outcome in words once terminal (``"Win: everyone escaped"``)."""

    def apply(self, seat: int | None, action: Action | str, now: float) -> list[Effect]:
        """Check and carry out ``action``; raise :class:`IllegalAction` with a readable why.

        The companion passes the :class:`Action` it offered; a journal replay or a test passes
        the action's id, as journaled. Either way the action must be legal now.
        """
        action_id = action if isinstance(action, str) else action.id
        if seat is None:
            return self._table_action(action_id, now)
        if self.is_terminal():
            raise IllegalAction("The game is over")
        if self.paused:
            raise IllegalAction("Paused: resume first")
        for legal in self.legal_actions(seat):
            if legal.id == action_id:
                return self._apply(seat, legal, now)
        raise IllegalAction(self.why_not(seat, action_id))

    def why_not(self, seat: int, action_id: str) -> str:
        """Why ``action_id`` is refused; games override this for more specific reasons."""
        return "Not now"

    def is_undoable(self, seat: int, action_id: str) -> bool:
        """Whether the action (once applied) may be taken back: asked before applying."""
        return any(a.id == action_id and a.undoable for a in self.legal_actions(seat))

    # --- time ----------------------------------------------------------------------------

    def next_deadline(self) -> float | None:
        """When ``advance`` must next be called (hourglass expiry, narration step)."""
        return None

    def advance(self, now: float) -> list[Effect]:
        """Let time pass to ``now``: timers that ran out take effect here."""
        return []

    def _table_action(self, action_id: str, now: float) -> list[Effect]:
        if action_id == "pause":
            if not self.paused:
                self.paused = True
                self.on_pause(now)
            return []
        if action_id == "resume":
            if self.paused:
                self.paused = False
                self.on_resume(now)
            return []
        if action_id == "end":
            if self.is_terminal():
                raise IllegalAction("The game is over")
            return self.end_early(now)
        raise IllegalAction(f"unknown table action '{action_id}'")

    def end_early(self, now: float) -> list[Effect]:
        """The table ends the game before the rules do ("End game"): it becomes terminal
        with an outcome that says so, and reveals what the rules reveal at the end."""
        raise IllegalAction(f"{type(self).__name__} cannot be ended early")

    def on_pause(self, now: float) -> None:
        """Stop every timer; the default game has none."""

    def on_resume(self, now: float) -> None:
        """Restart the timers stopped by :meth:`on_pause`."""

    # --- secrecy -------------------------------------------------------------------------

    def secrets_hidden_from(self, seat: int | None) -> frozenset[str]:
        """Texts that ``seat``'s screen (or the public face, for None) must not show now.

        Games with hidden information list, per seat, the phrases that would give a secret
        away (e.g. ``"Seat 3: Invader"``); the secrecy suite checks views, frames, logs and
        errors against them by value.
        """
        return frozenset()
