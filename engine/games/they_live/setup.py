"""They Live setup: characters, values entered from the physical cards, the identities.

Each seat works through its own queue at its own pace; the table moves on once every seat is
done, so no seat waits on a shared cursor. With four or more players the Invader check
(:mod:`.check`) follows; with three the first wave starts at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.api import Action, Buzz, Effect, Narrate
from engine.cues import Tune
from engine.entry import NumberEntry
from engine.known import Learned
from engine.text import fit

from .cards import CHARACTERS, DIE_RESULTS, DIE_SIDES
from .check import start_check
from .turns import begin_wave

if TYPE_CHECKING:
    from .state import TheyLiveState

# Sensible starting points for values entered from a card (Frank's 15 health, Dixon's
# CRITICAL 3); shown as "?" until the seat accepts the starting point or presses +1 or -1.
# The hand limit is printed on the card and only the player needs it, so it is never asked.
CARD_VALUES = {
    "health": ("health", 15, 1, 40),
    "critical": ("CRITICAL", 3, 1, 39),
}
_PLAYER_ATTRIBUTES = {"health": "max_health", "critical": "critical"}
_DIE_SIDES_DEFAULT = 2
_DIE_SIDES_MAX = 12
_DIE_PREFIX = "die:"


def value_name(character: str | None, entry_key: str) -> str:
    """The name a value is remembered by for the table: "Nada.health", "die:Chew Bubblegum"."""
    return entry_key if entry_key.startswith(_DIE_PREFIX) else f"{character}.{entry_key}"


def character_value_entries(name: str) -> list[NumberEntry]:
    """The values the rulebook leaves out for this character, in the order they are asked."""
    card = CHARACTERS[name]
    missing = [field for field in CARD_VALUES if getattr(card, field) is None]
    return [NumberEntry(field, *CARD_VALUES[field]) for field in missing]


def die_value_entries() -> list[NumberEntry]:
    """How many sides show each result of a virtual Bubblegum die, unless the data knows."""
    if DIE_SIDES is not None:
        return []
    return [
        NumberEntry(f"{_DIE_PREFIX}{result}", fit(f"{result} faces"), _DIE_SIDES_DEFAULT, 0,
                    _DIE_SIDES_MAX)
        for result in DIE_RESULTS
    ]


# --- character ------------------------------------------------------------------------------


def offer_character(state: TheyLiveState, seat: int) -> list[Action]:
    if state.players[seat].character:
        return [Action("unpick", "Change character", undoable=True)]
    free = [name for name in CHARACTERS if name not in state.taken_characters()]
    return [Action(f"pick:{name}", name, undoable=True) for name in free]


def unpick_character(state: TheyLiveState, seat: int, arg: str, now: float) -> list[Effect]:
    state.players[seat].character = None
    return []


def pick_character(state: TheyLiveState, seat: int, name: str, now: float) -> list[Effect]:
    state.players[seat].character = name
    if all(p.character for p in state.players.values()):
        return _begin_values(state)
    return []


def _begin_values(state: TheyLiveState) -> list[Effect]:
    """Values the table entered in an earlier game are taken as known; the rest are asked."""
    state.phase = "values"
    for seat, player in state.players.items():
        card = CHARACTERS[player.character]
        player.max_health, player.critical = card.health, card.critical
        player.hand_limit = card.hand_limit
        state.value_entries[seat] = _still_unknown(state, seat,
                                                   character_value_entries(player.character))
    if state.options["die"] == "virtual":
        state.value_entries[state.seats[0]].extend(
            _still_unknown(state, state.seats[0], die_value_entries()))
    return _finish_values_if_done(state) or [Narrate("Set the values from your cards")]


def _still_unknown(state: TheyLiveState, seat: int,
                   entries: list[NumberEntry]) -> list[NumberEntry]:
    """Store the values already known for ``seat``; return the entries left to ask."""
    asked = []
    for entry in entries:
        known = state.known.get(value_name(state.players[seat].character, entry.key))
        if known is None:
            asked.append(entry)
        else:
            entry.value = known
            _store(state, seat, entry)
    return asked


def offer_change_values(state: TheyLiveState, seat: int) -> list[Action]:
    """A seat whose values were remembered may enter them again (a misread card)."""
    if state.players[seat].character is None or not _changeable(state, seat):
        return []
    return [Action("change", "Change values", undoable=True)]


def _changeable(state: TheyLiveState, seat: int) -> list[NumberEntry]:
    entries = character_value_entries(state.players[seat].character)
    if seat == state.seats[0] and state.options["die"] == "virtual":
        entries += die_value_entries()
    return entries


def change_values(state: TheyLiveState, seat: int, arg: str, now: float) -> list[Effect]:
    """Ask this seat's values again, each starting from the value in use."""
    entries = _changeable(state, seat)
    for entry in entries:
        entry.default = _value_in_use(state, seat, entry.key)
    state.value_entries[seat] = entries
    state.ready.discard(seat)
    return []


def _value_in_use(state: TheyLiveState, seat: int, key: str) -> int:
    if key.startswith(_DIE_PREFIX):
        return state.die_sides[key.removeprefix(_DIE_PREFIX)]
    return getattr(state.players[seat], _PLAYER_ATTRIBUTES[key])


# --- values entered from the cards ----------------------------------------------------------


def offer_values(state: TheyLiveState, seat: int) -> list[Action]:
    """Until the seat has looked, ACT says the usual value aloud ("Card says 15") and takes
    it in one press; +1 / -1 show it and move from there."""
    queue = state.value_entries[seat]
    if not queue:
        return []
    entry = queue[0]
    moves = [Action("+1", "+1", undoable=True, repeat=True),
             Action("-1", "-1", undoable=True, repeat=True)]
    if entry.value is None:
        return [Action("ok", f"Card says {entry.default}", undoable=True), *moves]
    if _acceptable(state, entry):
        return [*moves, Action("ok", "OK", undoable=True)]
    return moves


def _acceptable(state: TheyLiveState, entry: NumberEntry) -> bool:
    """A virtual die needs at least one side; every other value is already in bounds."""
    if entry.key != f"{_DIE_PREFIX}{DIE_RESULTS[-1]}":
        return True
    return sum(state.die_sides.values()) + entry.current > 0


def raise_value(state: TheyLiveState, seat: int, arg: str, now: float) -> list[Effect]:
    state.value_entries[seat][0].step(1)
    return []


def lower_value(state: TheyLiveState, seat: int, arg: str, now: float) -> list[Effect]:
    state.value_entries[seat][0].step(-1)
    return []


def accept_value(state: TheyLiveState, seat: int, arg: str, now: float) -> list[Effect]:
    entry = state.value_entries[seat].pop(0)
    _store(state, seat, entry)
    learned = Learned({value_name(state.players[seat].character, entry.key): entry.current})
    return [learned, *_finish_values_if_done(state)]


def _store(state: TheyLiveState, seat: int, entry: NumberEntry) -> None:
    if entry.key.startswith(_DIE_PREFIX):
        state.die_sides[entry.key.removeprefix(_DIE_PREFIX)] = entry.current
        return
    setattr(state.players[seat], _PLAYER_ATTRIBUTES[entry.key], entry.current)
    if entry.key == "health":
        for later in state.value_entries[seat]:
            if later.key == "critical":
                later.high = max(1, entry.current - 1)


def _finish_values_if_done(state: TheyLiveState) -> list[Effect]:
    if any(state.value_entries.values()):
        return []
    for player in state.players.values():
        player.left = player.max_health
    if state.phase == "identity":
        return []  # a seat changed its values while the others looked at their identities
    state.phase = "identity"
    return [Narrate("Hold PEEK to see your identity, then press Done"), Buzz(Tune.START)]


# --- identities -------------------------------------------------------------------------------


def offer_identity(state: TheyLiveState, seat: int) -> list[Action]:
    """Done once looked; a seat may first enter its card values again."""
    if state.value_entries[seat]:
        return offer_values(state, seat)
    if seat in state.ready:
        return []
    return [Action("done", "Done"), *offer_change_values(state, seat)]


def identity_seen(state: TheyLiveState, seat: int, arg: str, now: float) -> list[Effect]:
    """Once every seat has looked: the Invader check with four or more, else the first wave."""
    state.ready.add(seat)
    if state.ready != set(state.seats):
        return []
    if len(state.seats) < 4:
        return begin_wave(state)
    return start_check(state, now)
