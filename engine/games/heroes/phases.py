"""The whole flow of Heroes Love to Lie as one table: setup, then the steps of a turn.

Setup
  ``monster_values``  the first seat reads, one by one, the Monster values no earlier game
                      entered off the cards (begin: the known ones are kept; with none to
                      read, or the table leaving them unknown, it ends at once); after the
                      last, ``who_starts``.
  ``who_starts``      any seat presses: the best liar starts (next: ``turn``); the first seat
                      may instead read every value again in ``change_values`` (then back).

A turn (only the seat on turn is offered anything, but in the windows)
  ``turn``            POWER (draw: ``discard``), COMBAT (the Monster: its ``fight_monster``
                      menu, "Other action" back; then ``claim_hero``) or UNMASK (``target``).
  ``discard``         POWER: one of the two Heroes goes face up; then ``claim_hero``.
  ``claim_hero``      the Hero announced; COMBAT may go back to ``turn``. POWER picks the
                      powers in the ``claim_powers`` menu ("Other Hero" back). The claim
                      opens the ``challenge`` window.
  ``challenge``       waits for every other living seat: the first Challenge settles it
                      truthfully; silence (or time) lets it stand. What the claim then does
                      (its powers, the fight) says where the turn goes.
  ``target``          a power's target; UNMASK may go back to ``turn``. Naming a Hero for an
                      unmasking is its ``guess`` menu ("Other target" back), then perhaps
                      the Exorcist's ``bet``. A theft asks the target in ``giant``.
  ``giant``           waits for the target of a theft: "I am the Giant" is a claim (its own
                      ``challenge``); letting it happen moves the Gems.
  ``pick_monster``    the Troll's Monster to renew.
  ``loot_gems``       a defeated Monster's Gems read off its card, the first time.
  ``knights``         after a fight that won Gems, waits for every other living seat: each
                      Knight announced claims in turn (each its own ``challenge``).
  The turn ends when its powers are used or its claim is caught: the next living seat
  clockwise starts a new ``turn``. The game ends (``end.py``) the moment a seat reaches
  4 Glory or is the last with Life Points.

Every phase but OVER refuses a press with the same reasons.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

from engine.phases import OVER, Hook, Menu, Offer, Phase, Rule, Waits, over_phase

from . import challenges, combat, powers, setup, text, turns, unmasking, views
from .claims import Window
from .numbers import lower_number, raise_number
from .steps import MenuName

NUMBER = {"plus": raise_number, "minus": lower_number}


def monster_values(begin: Hook) -> Phase:
    """The first seat reads Monster values off the cards, one by one; ``begin`` says which."""
    return Phase(offer=setup.offer_monster_value,
                 rules={**NUMBER, "ok": setup.enter_monster_value},
                 view=views.monster_values_view, why_not=turns.why_not, begin=begin,
                 next="who_starts")


def window(offer: Offer, rules: Mapping[str, Rule], waits: Waits) -> Phase:
    """A reaction window: the seats it waits for answer at once, against its clock."""
    return Phase(offer=offer, rules=rules, view=views.window_view, waits=waits,
                 begin=challenges.start_clock, deadline=challenges.window_deadline,
                 expire=challenges.close_on_time, why_not=turns.why_not)


PHASES: dict[str, Phase] = {
    "monster_values": monster_values(setup.ask_unknown_values),
    "who_starts": Phase(
        offer=setup.offer_start,
        rules={"start": setup.start_as_best_liar, "change": setup.change_values},
        view=views.who_starts_view,
        why_not=turns.why_not,
        next="turn",
    ),
    "change_values": monster_values(setup.ask_values_again),
    "turn": Phase(
        offer=turns.offer_actions,
        rules={"power": turns.take_power, "combat": turns.take_combat,
               "unmask": turns.take_unmask},
        view=partial(views.play_view, headline=text.choosing),
        why_not=turns.why_not,
        menus={MenuName.FIGHT: Menu(turns.offer_fights,
                                    {"fight": turns.pick_fight, "back": turns.close_menu})},
    ),
    "discard": Phase(
        offer=turns.offer_discard,
        rules={"discard": turns.discard_face_up},
        view=partial(views.play_view, headline=text.discarding),
        why_not=turns.why_not,
    ),
    "claim_hero": Phase(
        offer=turns.offer_heroes,
        rules={"claim": turns.claim_hero, "page": turns.turn_page,
               "back": turns.back_to_actions},
        view=partial(views.play_view, headline=text.claiming_hero),
        why_not=turns.why_not,
        begin=turns.start_paging,
        menus={MenuName.POWERS: Menu(turns.offer_powers,
                                     {"use": turns.claim_powers, "back": turns.close_menu})},
    ),
    Window.CHALLENGE: window(
        challenges.offer_challenge,
        {"challenge": challenges.challenge, "pass": challenges.let_pass},
        Waits(challenges.claim_answerers),
    ),
    Window.GIANT: window(
        challenges.offer_giant,
        {"allow": challenges.let_pass, "giant": challenges.cancel_as_giant},
        Waits(challenges.threatened),
    ),
    Window.KNIGHTS: window(
        challenges.offer_knight,
        {"pass": challenges.let_pass, "knight": challenges.announce_knight},
        Waits(challenges.fight_watchers),
    ),
    "target": Phase(
        offer=powers.offer_targets,
        rules={"target": powers.choose_target, "back": unmasking.give_up_unmasking},
        view=partial(views.play_view, headline=text.targeting),
        why_not=turns.why_not,
        begin=turns.start_paging,
        menus={MenuName.GUESS: Menu(unmasking.offer_guesses,
                                    {"guess": unmasking.name_hero, "page": turns.turn_page,
                                     "back": turns.close_menu})},
    ),
    "pick_monster": Phase(
        offer=powers.offer_renewals,
        rules={"renew": powers.renew_chosen_monster},
        view=partial(views.play_view, headline=text.renewing),
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
