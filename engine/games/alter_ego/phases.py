"""Alter Ego's whole flow as one table: setup, then each step of a turn, then the end.

Setup, in the rulebook's order:

- ``prepare`` waits for every seat to deal its own Alter Ego cards (Ready), then ``piles``.
- ``piles``: on entry the table is told to sort the Arch Villains; the host counts each
  pile (OK moves to the next); once all are counted its end draws one card of each pile
  (the Reveal), then ``picks``.
- ``picks`` waits for the host to take those cards, then ``supply``.
- ``supply``: the host counts the CIV pools likewise; its end fills the city's supply, then
  ``deal_nemeses``.
- ``deal_nemeses`` waits for every seat to take its Nemesis (PEEK shows which), then the
  host's turn begins at ``display``.

A turn is one seat's six rulebook phases, each step waiting for the seat on turn:

1. ``display`` (on entry: the seat's turn is announced and its display cleared) ->
   ``income`` -> 2. ``patrol`` (a henchman comes in) -> ``hostages`` (the villain that just
   came in takes hostages; a hostage the supply lacks ends the game) -> ``cops`` when a
   henchman's hostages are in, a Community card is shown and a henchman is there to remove
   (menu ``cops_pick``: which henchman), else -> 3. ``support`` -> 4. ``equip`` ->
5. ``fight``, with its menus: ``rescue_pick`` (which villain, by pages) and
   ``rescue_civ`` (which CIV to free from it), and ``nemesis`` ("are you sure"). Freeing an
   Arch Villain's last hostage defeats it (and may end the game); a henchman's, moves to
   ``trophy`` (its icons) -> ``arrive`` if an Arch Villain still waits to come in, else back
   to ``fight``; in ``arrive`` one may come in, to ``hostages`` (and from there back to
   ``arrive`` or ``fight``). Beating one's Nemesis may end the game. Done fighting ->
6. ``recoup``, whose end passes the turn to the next seat clockwise, at ``display`` again.

The game ends only in end.py: the last Arch Villain defeated, a Nemesis beaten (with the
ending that says so) or a hostage needed from an empty supply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.phases import EVERY_SEAT, OVER, Menu, Phase, answered, opens, over_phase

from . import setup, turns, views
from .setup import HOST, waiting_for_others
from .text import Step
from .turns import ON_TURN, buttons, close_menu, open_list, whose_turn

if TYPE_CHECKING:
    from engine.phases import Hook, Offer, Rule, View


def host_counts(offer: Offer, counted: Rule, view: View, begin: Hook, end: Hook,
                after: str) -> Phase:
    """A setup phase in which the host counts piles or pools (+1, -1, OK; a pool may be left
    uncounted): it is done once the last is counted."""
    return Phase(offer, {"add": setup.count_by, "ok": counted, "skip": counted}, view,
                 why_not=waiting_for_others,
                 begin=begin, done=setup.all_counted, end=end, next=after)


PHASES: dict[str, Phase] = {
    # --- setup
    Step.PREPARE: Phase(setup.offer_prepare, {"ready": answered}, views.prepare_view,
                        why_not=waiting_for_others, waits=EVERY_SEAT, next=Step.PILES),
    Step.PILES: host_counts(setup.offer_pile_count, setup.pile_counted, views.pile_count_view,
                            begin=setup.count_piles, end=setup.draw_picks, after=Step.PICKS),
    Step.PICKS: Phase(setup.offer_picks, {"taken": answered}, views.picks_view,
                      why_not=waiting_for_others, waits=HOST, next=Step.SUPPLY),
    Step.SUPPLY: host_counts(setup.offer_pool_count, setup.pool_counted, views.pool_count_view,
                             begin=setup.count_pools, end=setup.fill_supply,
                             after=Step.DEAL_NEMESES),
    Step.DEAL_NEMESES: Phase(setup.offer_deal_nemeses, {"ready": answered},
                             views.deal_nemeses_view, why_not=waiting_for_others,
                             begin=setup.lay_out_nemeses, waits=EVERY_SEAT, next=Step.DISPLAY),
    # --- 1 Income
    Step.DISPLAY: Phase(turns.offer_display,
                        {"more": turns.add_card, "clear": turns.clear_display, "done": answered},
                        views.display_view, why_not=whose_turn,
                        begin=turns.start_turn, waits=ON_TURN, next=Step.INCOME),
    Step.INCOME: Phase(buttons(("next", "Next: Patrol")), {"next": answered},
                       views.income_view, why_not=whose_turn, waits=ON_TURN, next=Step.PATROL),
    # --- 2 Patrol
    Step.PATROL: Phase(buttons(("next", "Henchman chosen")), {"next": turns.henchman_in},
                       views.patrol_view, why_not=whose_turn, waits=ON_TURN,
                       next=Step.HOSTAGES),
    Step.HOSTAGES: Phase(turns.offer_hostages,
                         {"take": turns.take_hostage, "empty": turns.pool_ran_out,
                          "done": answered},
                         views.hostages_view, why_not=whose_turn,
                         begin=turns.hold_hostages, waits=ON_TURN, next=turns.after_hostages),
    Step.COPS: Phase(buttons(("skip", "No cops"), ("cops", "Call the Cops...")),
                     {"skip": answered, "cops": open_list(Step.COPS_PICK)},
                     views.with_menus(views.note_view, {Step.COPS_PICK: views.villains_view}),
                     why_not=whose_turn, begin=turns.list_villains, waits=ON_TURN,
                     next=Step.SUPPORT,
                     menus={Step.COPS_PICK: Menu(turns.offer_cops_pick,
                                                 {"remove": turns.call_the_cops,
                                                  "more": turns.next_page, "cancel": close_menu})}),
    # --- 3 Support, 4 Equip
    Step.SUPPORT: Phase(buttons(("next", "Next: Equip")), {"next": answered},
                        views.support_view, why_not=whose_turn, waits=ON_TURN, next=Step.EQUIP),
    Step.EQUIP: Phase(buttons(("next", "Next: Crime-fight")), {"next": answered},
                      views.equip_view, why_not=whose_turn, waits=ON_TURN, next=Step.FIGHT),
    # --- 5 Crime-fighting
    Step.FIGHT: Phase(turns.offer_fight,
                      {"rescue": open_list(Step.RESCUE_PICK), "done": answered,
                       "nemesis": opens(Step.NEMESIS)},
                      views.with_menus(views.villains_view,
                                       {Step.RESCUE_CIV: views.rescue_civ_view,
                                        Step.NEMESIS: views.note_view}),
                      why_not=whose_turn, begin=turns.list_villains, waits=ON_TURN,
                      next=Step.RECOUP,
                      menus={
                          Step.RESCUE_PICK: Menu(turns.offer_rescue_pick,
                                                 {"pick": turns.pick_villain,
                                                  "more": turns.next_page, "back": close_menu}),
                          Step.RESCUE_CIV: Menu(turns.offer_rescue_civ,
                                                {"free": turns.free_hostage,
                                                 "back": open_list(Step.RESCUE_PICK)}),
                          Step.NEMESIS: Menu(buttons(("confirm", "Confirm: beaten"),
                                                     ("cancel", "Cancel")),
                                             {"confirm": turns.nemesis_confirmed,
                                              "cancel": close_menu}),
                      }),
    Step.TROPHY: Phase(buttons(("done", "No more icons"), ("trophy:$", "+1 $ trophy"),
                               ("trophy:Community", "+1 Community trophy"),
                               ("trophy:Family", "+1 Family trophy")),
                       {"done": answered, "trophy": turns.add_trophy},
                       views.note_view, why_not=whose_turn, waits=ON_TURN,
                       next=turns.arrival_or_fight),
    Step.ARRIVE: Phase(turns.offer_arrive, {"none": answered, "arrive": turns.arch_villain_in},
                       views.note_view, why_not=whose_turn, waits=ON_TURN, next=Step.FIGHT),
    # --- 6 Recoup
    Step.RECOUP: Phase(buttons(("end", "End turn")), {"end": answered},
                       views.note_view, why_not=whose_turn,
                       waits=ON_TURN, end=turns.pass_the_turn, next=Step.DISPLAY),
    OVER: over_phase(views.over_view),
}
