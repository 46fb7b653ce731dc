"""They Live setup: characters, values entered from the physical cards, the identities.

Each seat works through its own queue at its own pace; the table moves on once every seat is
done, so no seat waits on a shared cursor (when each phase is done is said in :mod:`.phases`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.api import Action, Buzz, Effect, Narrate
from engine.cues import Tune
from engine.entry import FIVE, NumberEntry, entry_buttons
from engine.known import Learned
from engine.text import fit

from .cards import CHARACTERS, DIE_RESULTS, DIE_SIDES

if TYPE_CHECKING:
    from .state import TheyLiveState

# The bounds of values entered from a card: "?" until the first +1, which shows the least
# (no usual value is invented: the rulebook prints only Frank's health and two CRITICALs).
# A character lives with 1 health square; its CRITICAL is below its health (set once the
# health is in). The hand limit is printed on the card and only the player needs it, so it
# is never asked.
CARD_VALUES = {
    "health": ("health", 1, 40),
    "critical": ("CRITICAL", 1, 39),
}
_PLAYER_ATTRIBUTES = {"health": "max_health", "critical": "critical"}
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
        NumberEntry(f"{_DIE_PREFIX}{result}", fit(f"{result} faces"), 0, _DIE_SIDES_MAX)
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
    return []


def all_picked(state: TheyLiveState) -> bool:
    return all(p.character for p in state.players.values())


def ask_values(state: TheyLiveState, now: float) -> list[Effect]:
    """Values the table entered in an earlier game are taken as known; the rest are asked
    (none left to ask: the phase is done at once, and says nothing)."""
    for seat, player in state.players.items():
        card = CHARACTERS[player.picked]
        player.max_health, player.critical = card.health or 0, card.critical or 0
        player.hand_limit = card.hand_limit
        state.value_entries[seat] = _still_unknown(state, seat,
                                                   character_value_entries(player.picked))
    if state.options["die"] == "virtual":
        state.value_entries[state.seats[0]].extend(
            _still_unknown(state, state.seats[0], die_value_entries()))
    return [] if values_entered(state) else [Narrate("Set the values from your cards")]


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
    entries = character_value_entries(state.players[seat].picked)
    if seat == state.seats[0] and state.options["die"] == "virtual":
        entries += die_value_entries()
    return entries


def change_values(state: TheyLiveState, seat: int, arg: str, now: float) -> list[Effect]:
    """Ask this seat's values again, each showing the value in use (OK keeps it)."""
    entries = _changeable(state, seat)
    for entry in entries:
        entry.value = _value_in_use(state, seat, entry.key)
    state.value_entries[seat] = entries
    return []


def _value_in_use(state: TheyLiveState, seat: int, key: str) -> int:
    if key.startswith(_DIE_PREFIX):
        return state.die_sides[key.removeprefix(_DIE_PREFIX)]
    value: int = getattr(state.players[seat], _PLAYER_ATTRIBUTES[key])
    return value


# --- values entered from the cards ----------------------------------------------------------


def offer_values(state: TheyLiveState, seat: int) -> list[Action]:
    """From "?", +5 / +1 count up from the least the card allows (a health of 12 is two +5
    and two +1); OK once a value shows. No usual value is offered: none is given."""
    queue = state.value_entries[seat]
    if not queue:
        return []
    entry = queue[0]
    ups = [Action("+1", "+1", undoable=True, repeat=True, counts=True)]
    if entry.wide:
        ups.insert(0, Action(f"+1:{FIVE}", f"+{FIVE}", undoable=True, repeat=True, counts=True))
    ok = Action("ok", "OK", undoable=True)
    down = Action("-1", "-1", undoable=True, repeat=True, counts=True)
    buttons = entry_buttons(entry, ups, ok, down)
    return buttons if _acceptable(state, entry) else [b for b in buttons if b is not ok]


def _acceptable(state: TheyLiveState, entry: NumberEntry) -> bool:
    """A virtual die needs at least one side; every other value is already in bounds."""
    if entry.key != f"{_DIE_PREFIX}{DIE_RESULTS[-1]}":
        return True
    return sum(state.die_sides.values()) + (entry.value or 0) > 0


def raise_value(state: TheyLiveState, seat: int, arg: str, now: float) -> list[Effect]:
    """+1, or +5 (the argument)."""
    state.value_entries[seat][0].step(int(arg) if arg else 1)
    return []


def lower_value(state: TheyLiveState, seat: int, arg: str, now: float) -> list[Effect]:
    state.value_entries[seat][0].step(-1)
    return []


def accept_value(state: TheyLiveState, seat: int, arg: str, now: float) -> list[Effect]:
    entry = state.value_entries[seat].pop(0)
    _store(state, seat, entry)
    return [Learned({value_name(state.players[seat].character, entry.key): entry.entered})]


def _store(state: TheyLiveState, seat: int, entry: NumberEntry) -> None:
    if entry.key.startswith(_DIE_PREFIX):
        state.die_sides[entry.key.removeprefix(_DIE_PREFIX)] = entry.entered
        return
    setattr(state.players[seat], _PLAYER_ATTRIBUTES[entry.key], entry.entered)
    if entry.key == "health":
        for later in state.value_entries[seat]:
            if later.key == "critical":
                later.high = max(1, entry.entered - 1)


def values_entered(state: TheyLiveState) -> bool:
    return not any(state.value_entries.values())


def start_at_full_health(state: TheyLiveState, now: float) -> list[Effect]:
    """Every value is in: every player starts the game at full health."""
    for player in state.players.values():
        player.left = player.max_health
    return []


# --- identities -------------------------------------------------------------------------------


def show_identities(state: TheyLiveState, now: float) -> list[Effect]:
    return [Narrate("Hold PEEK to see your identity, then press Done"), Buzz(Tune.START)]


def offer_identity(state: TheyLiveState, seat: int) -> list[Action]:
    """Done once looked; a seat may first enter its card values again."""
    if state.value_entries[seat]:
        return offer_values(state, seat)
    if seat not in state.waiting_for:
        return []
    return [Action("done", "Done"), *offer_change_values(state, seat)]


def accept_changed_value(state: TheyLiveState, seat: int, arg: str,
                         now: float) -> list[Effect]:
    """A value entered again while the others look; once the last is in, every player
    starts at full health again."""
    effects = accept_value(state, seat, arg, now)
    if values_entered(state):
        start_at_full_health(state, now)
    return effects

