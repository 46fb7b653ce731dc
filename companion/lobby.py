"""Before a game: seats join by pressing ACT, one seat picks the game and its options.

The public screen says which seats are phones, and any joined seat may free a phone seat
(a lost phone, the wrong person): its device lets go and its link opens on another. A joined
wired seat may show a phone seat's link as a QR code on its own screen.

The lobby is one of the table's modes (:class:`companion.mode.Mode`), so the seats drive it
with the same two buttons and the same screens, and table scripts play it like a game. It is
pure: Start reports a :class:`StartGame` switch that the session carries out (it owns the
companion's key).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine import registry
from engine.api import LABEL, Action, Buzz, Effect, Game, Option, SeatView
from engine.cues import Tune
from engine.exc import IllegalAction
from engine.text import fit
from hardware.base import Code

from .cue_menu import CueMenu
from .effects import FreePhone, PageCode, ShowCode, Tell
from .memory import TableMemory
from .mode import Applied, StartGame

NARRATED, SILENT = "narrated", "silent"  # an option with both: narration spoken or not
NO_SPEAKER = "No speaker: silent"


@dataclass
class Lobby:
    """Joining, then the game menu, then the options of the chosen game."""

    table_seats: tuple[int, ...]
    joined: list[int] = field(default_factory=list)
    host: int | None = None  # the seat that opened the menu drives it
    game: Game | None = None
    options: dict[str, str] = field(default_factory=dict)
    message: str = ""
    memory: TableMemory = field(default_factory=TableMemory)
    has_speaker: bool = True  # without one, narration is text on screens nobody may read
    cues: CueMenu = field(default_factory=CueMenu)  # the settings each seat is offered
    phones: tuple[int, ...] = ()  # the seats that are phones (the app sets it, as cues)
    page: bool = False  # the table serves its page: a joined seat may ask for its code

    @classmethod
    def prepared(
        cls, table_seats: Sequence[int], joined: Sequence[int] = (), game_key: str | None = None,
        *, memory: TableMemory | None = None, has_speaker: bool = True,
    ) -> Lobby:
        """A lobby with seats already joined and a game already chosen (``companion play X``)."""
        lobby = cls(tuple(table_seats), joined=sorted(joined), memory=memory or TableMemory(),
                    has_speaker=has_speaker)
        if game_key is not None:
            lobby.host = lobby.joined[0] if lobby.joined else None
            lobby._choose(registry.get(game_key))
        return lobby

    def fresh(self) -> Lobby:
        """A new lobby at the same table, with the same seats joined (after a game)."""
        return Lobby(self.table_seats, joined=list(self.joined), memory=self.memory,
                     has_speaker=self.has_speaker, cues=self.cues, phones=self.phones,
                     page=self.page)

    # --- the mode ----------------------------------------------------------------------------

    def offers(self, seat: int) -> list[Action]:
        if self.host is None:
            if seat not in self.joined:
                return [Action("join", "Join")]
            return [Action("menu", "Choose game"), Action("leave", "Leave"),
                    *(Action(f"free:{n}", f"Free phone seat {n}") for n in self.phones
                      if n != seat),
                    *(Action(f"code:{n}", f"Show seat {n}'s link") for n in self.phones
                      if seat not in self.phones),
                    *self.cues.actions(self.memory, seat), *self._page_entry()]
        if seat != self.host:
            return []
        if self.game is None:
            return [*self._game_actions(), Action("back", "Back")]
        return [Action("start", "Start game"), *self._option_actions(), Action("back", "Back")]

    def apply(self, seat: int, action: Action, at: float) -> Applied:
        if action.id not in {a.id for a in self.offers(seat)}:
            raise IllegalAction("Not now")
        self.message = ""
        kind, _, arg = action.id.partition(":")
        if kind == "pagecode":
            return Applied(effects=(PageCode(seat),))
        request = getattr(self, f"_do_{kind}")(seat, arg)
        effects: tuple[Effect, ...] = ()
        if kind == "join":
            effects = (Buzz(Tune.JOIN),)
        elif kind == "free":
            effects = (FreePhone(int(arg)), Tell(f"Seat {arg} freed"))
        elif kind == "code":
            effects = (ShowCode(seat, int(arg)),)
        return Applied(effects=effects, then=request)

    def view(self, seat: int | None, now: float) -> SeatView:
        if self.host is None:
            return self._join_view(seat)
        if self.game is None:
            title = "Choose a game" if seat == self.host else f"Seat {self.host} chooses"
            return SeatView(title=title, lines=self._joined_lines(), highlight=seat == self.host)
        return self._options_view(seat)

    def question(self, seat: int) -> str | None:
        return None

    def public_code(self) -> Code | None:
        return None

    def _page_entry(self) -> list[Action]:
        return [Action("pagecode", PageCode.ENTRY)] if self.page else []

    # --- actions ---------------------------------------------------------------------------

    def _do_join(self, seat: int, _: str) -> None:
        self.joined = sorted({*self.joined, seat})

    def _do_leave(self, seat: int, _: str) -> None:
        self.joined.remove(seat)

    def _do_free(self, seat: int, phone: str) -> None:
        """The freed seat leaves too: whoever opens its link next joins anew."""
        self.joined = [n for n in self.joined if n != int(phone)]

    def _do_code(self, seat: int, _: str) -> None:
        """Shown on the seat's screen (the effect): nothing changes in the lobby."""

    def _do_menu(self, seat: int, _: str) -> None:
        self.host = seat

    def _do_back(self, seat: int, _: str) -> None:
        if self.game is None:
            self.host = None
        else:
            self.game = None

    def _do_game(self, seat: int, key: str) -> None:
        self._choose(registry.get(key))

    def _do_cue(self, seat: int, name: str) -> None:
        self.memory.next_cue(seat, name)

    def _do_option(self, seat: int, key: str) -> None:
        assert self.game is not None
        option = next(o for o in self.game.options if o.key == key)
        index = option.choices.index(self.options[key])
        self.options[key] = option.choices[(index + 1) % len(option.choices)]

    def _do_start(self, seat: int, _: str) -> StartGame | None:
        assert self.game is not None
        count = len(self.joined)
        if not self.game.min_players <= count <= self.game.max_players:
            self.message = f"Needs {self.game.min_players}-{self.game.max_players} players"
            return None
        return StartGame(self.game, tuple(self.joined), dict(self.options))

    def _choose(self, game: Game) -> None:
        """The options the table last played the game with; without a speaker, a narration
        nobody would hear starts silent (the table can still turn it back)."""
        self.game = game
        self.options = self.memory.options_for(game)
        if not self.has_speaker and game.key not in self.memory.options:
            for option in self._narrations():
                self.options[option.key] = SILENT

    def _narrations(self) -> list[Option]:
        assert self.game is not None
        return [o for o in self.game.options if {NARRATED, SILENT} <= set(o.choices)]

    # --- views -----------------------------------------------------------------------------

    def _game_actions(self) -> list[Action]:
        """Every game, the ones this table played last first: the usual game is one press."""
        recent = self.memory.recent
        games = sorted(registry.all_games(),
                       key=lambda g: recent.index(g.key) if g.key in recent else len(recent))
        return [Action(f"game:{g.key}", g.name) for g in games]

    def _option_actions(self) -> list[Action]:
        assert self.game is not None
        return [
            Action(f"option:{o.key}", _option_label(o.label, self.options[o.key]), repeat=True)
            for o in self.game.options
        ]

    def _joined_lines(self) -> tuple[str, ...]:
        seats = " ".join(str(s) for s in self.joined) or "none yet"
        return (f"Players: {len(self.joined)}", f"Seats: {seats}")

    def _join_view(self, seat: int | None) -> SeatView:
        if seat is not None and seat not in self.joined:
            lines = ("Press ACT to join", *self._joined_lines())
            return SeatView(title="Table companion", lines=lines)
        phones = () if seat or not self.phones else (
            "Phones: " + " ".join(str(n) for n in self.phones),)
        return SeatView(title="Joined" if seat else "Table companion",
                        lines=(*self._joined_lines(), *phones, "Then: Choose game"))

    def _options_view(self, seat: int | None) -> SeatView:
        assert self.game is not None
        lines = [self.message] if self.message else []
        if not self.has_speaker and self._narrations():
            lines.append(NO_SPEAKER)
        lines += [f"{len(self.joined)} players", "PEEK: next  ACT: set"]
        if seat != self.host:
            lines = [f"Seat {self.host} sets up", *lines[:2]]
        return SeatView(title=self.game.name, lines=tuple(lines[:3]), highlight=seat == self.host)


def _option_label(label: str, value: object) -> str:
    """"Ending: first-nemesis", closed up to leave the bar's count its cell."""
    return fit(f"{label}: {value}", f"{label}:{value}", width=LABEL)
