"""The turn guide: one seat's six phases as steps on its own buttons.

Each step is a short list of actions; the multi-step choices (which villain, which CIV type,
which trophy icons) are steps of their own, so the screen always shows one question.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.api import Action, Buzz, Effect, Narrate

from .alter_ego_rules import (
    CIV_TYPES,
    cards_to_draw,
    counts_text,
    henchmen_to_draw,
    income,
)

if TYPE_CHECKING:
    from .alter_ego import AlterEgoState

ALTER_EGO_TYPES = ("Job", "Community", "Family")
DISPLAY_MAX = 12  # a seat's own Alter Ego deck: more in one display is a slip of the finger
PAGE = 6


def _act(action_id: str, label: str) -> Action:
    """Every turn step is bookkeeping without chance, so the table may take any back."""
    return Action(action_id, label, undoable=True)


@dataclass
class TurnGuide:
    step: str = "display"
    display: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ALTER_EGO_TYPES, 0))
    target: str = ""  # the villain a hostage or rescue step is about
    page: int = 0

    def start(self, state: AlterEgoState, seat: int) -> list[Effect]:
        state.current = seat
        self.step = "display"
        self.display = dict.fromkeys(ALTER_EGO_TYPES, 0)
        self.target = ""
        self.page = 0
        return [Buzz("turn"), Narrate(f"Seat {seat}'s turn: enter your display.")]

    # --- the counts the phases show ----------------------------------------------------

    def money(self, state: AlterEgoState) -> int:
        return income(self.display["Job"], state.trophies[state.current]["$"])

    def henchmen(self, state: AlterEgoState) -> int:
        return henchmen_to_draw(
            self.display["Community"], state.trophies[state.current]["Community"]
        )

    def draws(self, state: AlterEgoState) -> int:
        return cards_to_draw(self.display["Family"], state.trophies[state.current]["Family"])

    # --- actions per step ----------------------------------------------------------------

    def actions(self, state: AlterEgoState) -> list[Action]:
        simple = {
            "income": [_act("next", "Next: Patrol")],
            "patrol": [_act("next", "Henchman chosen")],
            "cops": [_act("skip", "No cops"), _act("cops", "Call the Cops...")],
            "support": [_act("next", "Next: Equip")],
            "equip": [_act("next", "Next: Crime-fight")],
            "nemesis": [_act("confirm", "Confirm: beaten"), _act("cancel", "Cancel")],
            "recoup": [_act("end", "End turn")],
        }
        if self.step in simple:
            return simple[self.step]
        return {
            "display": self._display_actions,
            "hostages": self._hostage_actions,
            "cops_pick": self._cops_pick_actions,
            "fight": self._fight_actions,
            "rescue_pick": self._rescue_pick_actions,
            "rescue_civ": self._rescue_civ_actions,
            "trophy": self._trophy_actions,
            "arrive": self._arrive_actions,
        }[self.step](state)

    def _display_actions(self, state: AlterEgoState) -> list[Action]:
        actions = []
        if sum(self.display.values()) < DISPLAY_MAX:
            actions = [_act(f"more:{kind}", f"{kind} +1") for kind in ALTER_EGO_TYPES]
        actions.append(_act("done", "Done"))
        if any(self.display.values()):
            actions.append(_act("clear", "Clear"))
        return actions

    def _hostage_actions(self, state: AlterEgoState) -> list[Action]:
        supply = state.city.supply
        actions = [
            Action(f"take:{c}", f"+1 CIV {c + 1} ({supply[c]} left)", undoable=True,
                   confirm=supply[c] == 0)  # none left: the Villains win at once
            for c in range(CIV_TYPES)
        ]
        if any(state.city.held[self.target]):
            actions.append(_act("done", "Done"))
        return actions

    def _cops_pick_actions(self, state: AlterEgoState) -> list[Action]:
        keys = state.city.henchmen()
        items = [_act(f"remove:{key}", self._villain_label(state, key)) for key in keys]
        return self._paged(items, _act("cancel", "Cancel"))

    def _fight_actions(self, state: AlterEgoState) -> list[Action]:
        actions = [_act("rescue", "Rescue...")] if state.city.hostages() else []
        actions.append(_act("done", "Done fighting"))
        if state.ending != "all-win" and state.current not in state.beaten:
            actions.append(_act("nemesis", "Beat my Nemesis..."))
        return actions

    def _rescue_pick_actions(self, state: AlterEgoState) -> list[Action]:
        items = [_act(f"pick:{key}", self._villain_label(state, key)) for key in state.city.held]
        return self._paged(items, _act("back", "Back"))

    def _rescue_civ_actions(self, state: AlterEgoState) -> list[Action]:
        held = state.city.held[self.target]
        actions = [
            _act(f"free:{c}", f"Free CIV {c + 1} ({count})")
            for c, count in enumerate(held)
            if count
        ]
        return actions + [_act("back", "Back")]

    def _trophy_actions(self, state: AlterEgoState) -> list[Action]:
        return [
            _act("done", "No more icons"),
            _act("trophy:$", "+1 $ trophy"),
            _act("trophy:Community", "+1 Community trophy"),
            _act("trophy:Family", "+1 Family trophy"),
        ]

    def _arrive_actions(self, state: AlterEgoState) -> list[Action]:
        arrivals = [
            _act(f"arrive:{i}", f"Arch Villain {i + 1} in") for i in state.waiting_arch_villains()
        ]
        return [_act("none", "None comes in"), *arrivals]

    def _villain_label(self, state: AlterEgoState, key: str) -> str:
        return f"{key} holds {counts_text(state.city.held[key])}"

    def _paged(self, items: list[Action], back: Action) -> list[Action]:
        """At most six choices a page, so a long list of henchmen still fits the buttons."""
        if len(items) <= PAGE + 1:
            return [*items, back]
        pages = -(-len(items) // PAGE)
        start = (self.page % pages) * PAGE
        return [*items[start:start + PAGE], _act("more", "More..."), back]

    # --- applying ------------------------------------------------------------------------

    def apply(self, state: AlterEgoState, name: str, arg: str) -> list[Effect]:
        if name == "more" and self.step == "display":
            self.display[arg] += 1
        elif name == "clear":
            self.display = dict.fromkeys(ALTER_EGO_TYPES, 0)
        elif name == "more":
            self.page += 1
        elif name in ("take", "free", "pick", "remove", "trophy", "arrive"):
            return self._choose(state, name, arg)
        else:
            return self._advance(state, name)
        return []

    def _choose(self, state: AlterEgoState, name: str, arg: str) -> list[Effect]:
        city = state.city
        if name == "take":
            return [] if city.take(self.target, int(arg)) else state.villains_win(int(arg))
        if name == "free":
            return self._rescue(state, int(arg))
        if name == "pick":
            self.target, self.step = arg, "rescue_civ"
            return []
        if name == "remove":
            city.call_the_cops(arg)
            self.step = "support"
            return [Narrate(f"The Cops take {arg} away; its hostages go back to the supply.")]
        if name == "trophy":
            state.trophies[state.current][arg] += 1
            return []
        self.target = city.arch_enters(int(arg))
        self.step = "hostages"
        return [Buzz("alarm"), Narrate(f"Arch Villain {int(arg) + 1} comes into play!")]

    def _advance(self, state: AlterEgoState, name: str) -> list[Effect]:
        """Move on from a step (Next, Done, Back, Cancel...) to the one the rules put next."""
        step = self.step
        if name == "end":
            return self.start(state, state.next_seat())
        if name == "confirm":
            self.step = "fight"
            return state.nemesis_beaten(state.current)
        if step == "patrol":
            self.target = state.city.new_henchman()
            self.step = "hostages"
            return [Narrate(f"{self.target} comes into play and takes hostages.")]
        self.page = 0
        self.step = self._next_step(state, step, name)
        return []

    def _next_step(self, state: AlterEgoState, step: str, name: str) -> str:
        if step == "hostages" and self.target.startswith("H"):
            cops = self.display["Community"] and state.city.henchmen()
            return "cops" if cops else "support"
        if step in ("hostages", "trophy"):
            return "arrive" if state.waiting_arch_villains() else "fight"
        if step == "cops" and name == "cops":
            return "cops_pick"
        if step == "fight":
            return {"rescue": "rescue_pick", "nemesis": "nemesis", "done": "recoup"}[name]
        return {
            "display": "income",
            "income": "patrol",
            "cops": "support",
            "cops_pick": "cops",
            "support": "equip",
            "equip": "fight",
            "rescue_pick": "fight",
            "rescue_civ": "rescue_pick",
            "arrive": "fight",
            "nemesis": "fight",
        }[step]

    def _rescue(self, state: AlterEgoState, civ: int) -> list[Effect]:
        key = self.target
        if not state.city.rescue(key, civ):
            return []
        if key.startswith("AV"):
            self.step = "fight"
            return state.arch_defeated(key)
        self.step = "trophy"
        text = f"{key} is defeated: keep it; place Arch Villain tokens for its icons."
        return [Buzz("win"), Narrate(text)]
