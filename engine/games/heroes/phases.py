"""The whole flow of Heroes Love to Lie as one table: setup, then the steps of a turn.

A turn starts in ``turn`` (POWER, COMBAT or UNMASK); a claim opens a ``window`` in which the
other seats may react, and the claim's powers then wait in ``target``, ``pick_monster``,
``guess`` or ``bet`` for the choices they need; ``loot_gems`` reads an unknown Monster's Gems
off its card. Every phase but OVER refuses a press with the same reasons.
"""

from __future__ import annotations

from functools import partial

from engine.phases import OVER, Phase, over_phase

from . import challenges, combat, powers, setup, text, turns, unmasking, views
from .numbers import lower_number, raise_number

NUMBER = {"plus": raise_number, "minus": lower_number}

PHASES: dict[str, Phase] = {
    "monster_values": Phase(
        offer=setup.offer_monster_value,
        rules={**NUMBER, "ok": setup.enter_monster_value, "card": setup.take_card_value},
        view=views.monster_values_view,
        why_not=turns.why_not,
        begin=setup.ask_values,
    ),
    "who_starts": Phase(
        offer=setup.offer_start,
        rules={"start": setup.start_as_best_liar, "change": setup.change_values},
        view=views.who_starts_view,
        why_not=turns.why_not,
    ),
    "turn": Phase(
        offer=turns.offer_actions,
        rules={"power": turns.take_power, "combat": turns.take_combat,
               "unmask": turns.take_unmask},
        view=partial(views.play_view, headline=text.choosing),
        why_not=turns.why_not,
    ),
    "discard": Phase(
        offer=turns.offer_discard,
        rules={"discard": turns.discard_face_up},
        view=partial(views.play_view, headline=text.discarding),
        why_not=turns.why_not,
    ),
    "fight_monster": Phase(
        offer=turns.offer_fights,
        rules={"fight": turns.pick_fight, "back": turns.back_to_actions},
        view=partial(views.play_view, headline=text.picking_fight),
        why_not=turns.why_not,
    ),
    "claim_hero": Phase(
        offer=turns.offer_heroes,
        rules={"claim": turns.claim_hero, "page": turns.turn_page,
               "back": turns.back_to_actions},
        view=partial(views.play_view, headline=text.claiming_hero),
        why_not=turns.why_not,
    ),
    "claim_powers": Phase(
        offer=turns.offer_powers,
        rules={"use": turns.claim_powers, "back": turns.back_to_heroes},
        view=partial(views.play_view, headline=text.claiming_powers),
        why_not=turns.why_not,
    ),
    "window": Phase(
        offer=challenges.offer_reactions,
        rules={"challenge": challenges.challenge, "pass": challenges.let_pass,
               "allow": challenges.let_pass, "giant": challenges.cancel_as_giant,
               "knight": challenges.announce_knight},
        view=views.window_view,
        deadline=challenges.window_deadline,
        expire=challenges.close_on_time,
        why_not=turns.why_not,
    ),
    "target": Phase(
        offer=powers.offer_targets,
        rules={"target": powers.choose_target, "back": unmasking.give_up_unmasking},
        view=partial(views.play_view, headline=text.targeting),
        why_not=turns.why_not,
    ),
    "pick_monster": Phase(
        offer=powers.offer_renewals,
        rules={"renew": powers.renew_chosen_monster},
        view=partial(views.play_view, headline=text.renewing),
        why_not=turns.why_not,
    ),
    "guess": Phase(
        offer=unmasking.offer_guesses,
        rules={"guess": unmasking.name_hero, "page": turns.turn_page,
               "back": unmasking.back_to_targets},
        view=partial(views.play_view, headline=text.guessing),
        why_not=turns.why_not,
    ),
    "bet": Phase(
        offer=unmasking.offer_bet,
        rules={**NUMBER, "ok": unmasking.place_bet},
        view=partial(views.number_view, headline=text.betting),
        why_not=turns.why_not,
    ),
    "loot_gems": Phase(
        offer=combat.offer_loot_number,
        rules={**NUMBER, "ok": combat.take_loot},
        view=partial(views.number_view, headline=text.reading_loot),
        why_not=turns.why_not,
    ),
    OVER: over_phase(views.final_view),
}
