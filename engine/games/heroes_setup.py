"""Heroes Love to Lie setup: Monster values read off the physical cards, then the first player.

A mixin of :class:`~engine.games.heroes.HeroesState`. The rulebook prints only some Monster
strengths and Gem rewards; the first seat enters the others from the cards (or keeps them
unknown), and then the table picks who starts ("the one who best knows how to lie").
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.api import Action, Buzz, Narrate, SeatView
from engine.entry import NumberEntry

from .heroes_cards import MONSTERS

# Sensible starting points, shown as "?" until the seat first presses +1 or -1.
STRENGTH_DEFAULT, STRENGTH_MAX = 5, 15
GEMS_DEFAULT, GEMS_MAX = 2, 9


@dataclass
class Entry(NumberEntry):
    """A Monster value read off its card, or a number chosen (the Exorcist's bet)."""

    may_stay_unknown: bool = True

    def actions(self) -> list[Action]:
        moves = [Action("plus", "+1", undoable=True, repeat=True),
                 Action("minus", "-1", undoable=True, repeat=True)]
        if self.value is not None:
            return [*moves, Action("ok", "OK")]
        if self.may_stay_unknown:
            return [*moves, Action("ok", "Keep unknown")]
        return moves

    def press(self, action_id: str) -> bool:
        """Apply a press; True when the value is settled (OK)."""
        if action_id == "ok":
            return True
        self.step(1 if action_id == "plus" else -1)
        return False


def monster_entries() -> list[Entry]:
    """The values the rulebook leaves out, Monster by Monster."""
    entries = []
    for name, monster in MONSTERS.items():
        if monster.strength is None:
            entries.append(
                Entry(f"strength:{name}", f"{name} strength", STRENGTH_DEFAULT, 0, STRENGTH_MAX)
            )
        if monster.gems is None:
            entries.append(Entry(f"gems:{name}", f"{name} Gems", GEMS_DEFAULT, 0, GEMS_MAX))
    return entries


def loot_entry(monster: str) -> Entry:
    """Asked when a Monster whose Gems are still unknown is defeated."""
    return Entry(f"gems:{monster}", f"{monster} Gems", GEMS_DEFAULT, 0, GEMS_MAX,
                 may_stay_unknown=False)


class SetupPhases:
    """Phases ``monster_values`` (the first seat) and ``who_starts`` (every seat)."""

    def _start_setup(self, monster_values: str) -> None:
        self.entries = monster_entries() if monster_values == "enter" else []
        self.phase = "monster_values" if self.entries else "who_starts"

    def _actions_monster_values(self, seat: int) -> list[Action]:
        return self.entries[0].actions()

    def _do_monster_values(self, seat: int, action_id: str, now: float) -> None:
        entry = self.entries[0]
        if not entry.press(action_id):
            return
        self._settle(entry)
        self.entries.pop(0)
        if not self.entries:
            self.phase = "who_starts"

    def _settle(self, entry: Entry) -> None:
        """Keep a value read off a card for the rest of the game (None stays unknown)."""
        field, monster = entry.key.split(":")
        values = self.table.strengths if field == "strength" else self.table.loot
        values[monster] = entry.value

    def _actions_who_starts(self, seat: int) -> list[Action]:
        return [Action("start", "I lie best: I start")]

    def _do_who_starts(self, seat: int, action_id: str, now: float) -> None:
        self.turn_seat = seat
        self.phase = "turn"
        self._fx += [Buzz("start"), Narrate(f"Seat {seat} lies best and starts.")]

    def _setup_view(self, seat: int | None) -> SeatView:
        if self.phase == "monster_values":
            entry = self.entries[0]
            if seat == self.seats[0]:
                return SeatView("Monster cards", (entry.prompt,), big=entry.shown(),
                                highlight=True, secret=self._secret_face(seat))
            lines = (f"Seat {self.seats[0]} enters", "Monster values", "from the cards")
            return SeatView("Setup", lines, secret=self._secret_face(seat))
        lines = ("The best liar starts:", "press ACT.", "Hold PEEK: your Hero")
        return SeatView("Who lies best?", lines, highlight=seat is not None,
                        secret=self._secret_face(seat))
