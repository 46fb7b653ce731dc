"""Mind Invaders' flow as one table: setup, then contests of I-IV, collection and cleanup.

Each step names what follows it (``then``) once nobody is left to act; phases II-IV come
round again while a seat is still green (``turns.end_round``). At any moment of a contest a
seat may also investigate, declare its victory or its elimination (``ANYTIME``).
"""

from __future__ import annotations

from engine.phases import OVER, Phase, Rule, over_phase

from . import anytime, setup, turns, views
from .step import Step

ANYTIME: dict[str, Rule] = {
    "investigate": anytime.open_investigation,
    "target": anytime.choose_target,
    "reveal": anytime.reveal_character,
    "victory": anytime.open_victory,
    "win": anytime.declare_victory,
    "eliminated": anytime.open_elimination,
    "out": anytime.leave_the_game,
    "cancel": anytime.cancel_menu,
}

PHASES: dict[str, Phase] = {
    "setup": Step(
        offer=setup.offer_ready,
        rules={"ready": setup.ready},
        view=views.view_setup,
        why_not=views.refusal,
        then=turns.start_contest,
    ),
    "block": Step(
        offer=turns.offer_block,
        rules={"blocked": turns.block_card, **ANYTIME},
        view=views.view_block,
        why_not=views.refusal,
        in_turn=True,
        then=turns.start_round,
    ),
    "hidden": Step(
        offer=turns.offer_hidden,
        rules={"played": turns.play_hidden, **ANYTIME},
        view=views.view_hidden,
        why_not=views.refusal,
        in_turn=True,
        then=turns.start_reveal,
    ),
    "reveal": Step(
        offer=turns.offer_reveal,
        rules={"revealed": turns.reveal_powers, **ANYTIME},
        view=views.view_reveal,
        why_not=views.refusal,
        in_turn=True,
        then=turns.start_hold,
    ),
    "hold": Step(
        offer=turns.offer_hold,
        rules={"hold": turns.hold, "intensify": turns.intensify, **ANYTIME},
        view=views.view_hold,
        why_not=views.refusal,
        in_turn=True,
        then=turns.end_round,
    ),
    "collect": Step(
        offer=turns.offer_collect,
        rules={"collected": turns.collected, **ANYTIME},
        view=views.view_collect,
        why_not=views.refusal,
        then=turns.start_cleanup,
    ),
    "cleanup": Step(
        offer=turns.offer_cleanup,
        rules={"power": turns.power_in_hand, **ANYTIME},
        view=views.view_cleanup,
        why_not=views.refusal,
        then=turns.next_contest,
    ),
    OVER: over_phase(views.view_over),
}
