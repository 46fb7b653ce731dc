"""They Live setup: characters, values entered from the physical cards, identities, the check.

A mixin of :class:`~engine.games.they_live.TheyLiveState`: it owns the phases before the
first wave. Each seat works through its own queue at its own pace; the table moves on once
every seat is done, so no seat waits on a shared cursor.
"""

from __future__ import annotations

from engine.api import Action, Buzz, Effect, Narrate, SeatView
from engine.entry import NumberEntry
from engine.narration import NarrationRun

from .they_live_check import CHECK_TITLE, MEET_STEP, script_for
from .they_live_rules import CHARACTERS, DIE_FACES, DIE_RESULTS

# Sensible starting points for values entered from a card (Frank's 15 health and 4-card
# hand, Dixon's CRITICAL 3); shown as "?" until the seat first presses +1 or -1.
_FIELDS = {
    "health": ("health", 15, 1, 40),
    "critical": ("CRITICAL at", 3, 1, 39),
    "hand_limit": ("hand limit", 4, 1, 15),
}
_PLAYER_ATTRIBUTES = {"health": "max_health", "critical": "critical", "hand_limit": "hand_limit"}
_DIE_FACE_DEFAULT = 2
_DIE_FACE_MAX = 12




def character_entries(name: str) -> list[NumberEntry]:
    """The values the rulebook leaves out for this character, in the order they are asked."""
    card = CHARACTERS[name]
    missing = [field for field in _FIELDS if getattr(card, field) is None]
    return [NumberEntry(field, *_FIELDS[field]) for field in missing]


def die_entries() -> list[NumberEntry]:
    """Face counts for a virtual Bubblegum die, unless the data file ever knows them."""
    if DIE_FACES is not None:
        return []
    return [
        NumberEntry(f"die:{result}", f"{result} faces"[:21], _DIE_FACE_DEFAULT, 0, _DIE_FACE_MAX)
        for result in DIE_RESULTS
    ]


class SetupPhases:
    """Phases ``character``, ``values``, ``identity`` and ``check``."""

    # --- character ----------------------------------------------------------------------

    def _taken(self) -> set[str]:
        return {p.character for p in self.players.values() if p.character}

    def _actions_character(self, seat: int) -> list[Action]:
        if self.players[seat].character:
            return [Action("unpick", "Change character", undoable=True)]
        free = [name for name in CHARACTERS if name not in self._taken()]
        return [Action(f"pick:{name}", name, undoable=True) for name in free]

    def _apply_character(self, seat: int, action_id: str, now: float) -> list[Effect]:
        player = self.players[seat]
        if action_id == "unpick":
            player.character = None
            return []
        player.character = action_id.split(":", 1)[1]
        if all(p.character for p in self.players.values()):
            return self._begin_values()
        return []

    def _begin_values(self) -> list[Effect]:
        self.phase = "values"
        for seat, player in self.players.items():
            card = CHARACTERS[player.character]
            player.max_health, player.critical = card.health, card.critical
            player.hand_limit = card.hand_limit
            self.entries[seat] = character_entries(player.character)
        if self.options["die"] == "virtual":
            self.entries[self.seats[0]].extend(die_entries())
        return self._finish_values_if_done() or [Narrate("Set the values from your cards")]

    # --- values entered from the cards -----------------------------------------------------

    def _actions_values(self, seat: int) -> list[Action]:
        queue = self.entries[seat]
        if not queue:
            return []
        actions = [Action("+1", "+1", undoable=True, repeat=True),
                   Action("-1", "-1", undoable=True, repeat=True)]
        if queue[0].value is not None and self._entry_acceptable(seat, queue[0]):
            actions.append(Action("ok", "OK", undoable=True))
        return actions

    def _entry_acceptable(self, seat: int, entry: NumberEntry) -> bool:
        """A virtual die needs at least one face; every other value is already in bounds."""
        if entry.key != f"die:{DIE_RESULTS[-1]}":
            return True
        return sum(self.die_faces.values()) + entry.value > 0

    def _apply_values(self, seat: int, action_id: str, now: float) -> list[Effect]:
        entry = self.entries[seat][0]
        if action_id != "ok":
            entry.step(1 if action_id == "+1" else -1)
            return []
        self._store_entry(seat, self.entries[seat].pop(0))
        return self._finish_values_if_done()

    def _store_entry(self, seat: int, entry: NumberEntry) -> None:
        player = self.players[seat]
        if entry.key.startswith("die:"):
            self.die_faces[entry.key[4:]] = entry.value
            return
        setattr(player, _PLAYER_ATTRIBUTES[entry.key], entry.value)
        if entry.key == "health":
            for later in self.entries[seat]:
                if later.key == "critical":
                    later.high = max(1, entry.value - 1)

    def _finish_values_if_done(self) -> list[Effect]:
        if any(self.entries.values()):
            return []
        for player in self.players.values():
            player.left = player.max_health
        self.phase = "identity"
        return [Narrate("Hold PEEK to see your identity, then press Done"), Buzz("start")]

    # --- identity and the Invader check ----------------------------------------------------

    def _actions_identity(self, seat: int) -> list[Action]:
        if seat in self.ready:
            return []
        return [Action("done", "Done")]

    def _apply_identity(self, seat: int, action_id: str, now: float) -> list[Effect]:
        self.ready.add(seat)
        if self.ready != set(self.seats):
            return []
        if len(self.seats) < 4:
            return self._begin_wave()
        self.phase = "check"
        self.check_run = NarrationRun(script_for(self.options["check"]), now)
        self.check_step = 0
        return self._check_step_effects(0)

    def _check_step_effects(self, index: int) -> list[Effect]:
        step = self.check_run.script.steps[index]
        if index == MEET_STEP:
            self.invaders_met = True
        return [Narrate(step.text), Buzz(step.tune)]

    def _check_deadline(self) -> float | None:
        steps = self.check_run.script.steps
        return self.check_run.started + sum(s.seconds for s in steps[: self.check_step + 1])

    def _advance_check(self, now: float) -> list[Effect]:
        effects: list[Effect] = []
        while self.phase == "check" and self._check_deadline() <= now:
            self.check_step += 1
            if self.check_step == len(self.check_run.script.steps):
                self.check_run = None
                effects += self._begin_wave()
            else:
                effects += self._check_step_effects(self.check_step)
        return effects

    # --- views --------------------------------------------------------------------------

    def _view_setup(self, seat: int | None) -> SeatView:
        if self.phase == "check":
            return SeatView(CHECK_TITLE, (self.check_run.script.steps[self.check_step].text,))
        if seat is None:
            return SeatView("They Live: setup", (f"Phase: {self.phase}",))
        if self.phase == "character":
            return self._view_character(seat)
        if self.phase == "values" and self.entries[seat]:
            return self._view_entry(seat, self.entries[seat][0])
        if self.phase == "identity" and seat not in self.ready:
            return SeatView("Your identity", ("Hold PEEK to see it", "then press Done"),
                            highlight=True)
        return SeatView("They Live: setup", ("Waiting for others",))

    def _view_entry(self, seat: int, entry: NumberEntry) -> SeatView:
        if entry.key in _FIELDS:
            title, line = f"{self.players[seat].character}: {entry.prompt}", "From your card"
        else:
            title, line = entry.prompt, "Count them on the die"
        return SeatView(title, (line,), big=entry.shown(), highlight=True)

    def _view_character(self, seat: int) -> SeatView:
        chosen = self.players[seat].character
        if chosen:
            return SeatView("Your character", (chosen, "Waiting for others"))
        return SeatView("Pick a character", ("PEEK: next, ACT: pick",), highlight=True)
