"""Alter Ego's whole flow as one table: setup, then each step of a turn, then the end.

Setup phases first (the first one starts the game); a turn starts at "display" and ends
at "recoup", whose "end" starts the next seat's turn at "display" again.
"""

from __future__ import annotations

from engine.phases import OVER, Phase, over_phase

from . import setup, turns, views
from .setup import waiting_for_others
from .turns import buttons, go_to, whose_turn

PHASES: dict[str, Phase] = {
    # --- setup
    "prepare": Phase(setup.offer_prepare, {"ready": setup.cards_dealt},
                     views.prepare_view, why_not=waiting_for_others),
    "piles": Phase(setup.offer_pile_count, {"add": setup.count_by, "ok": setup.pile_counted},
                   views.pile_count_view, why_not=waiting_for_others),
    "picks": Phase(setup.offer_picks, {"taken": setup.villains_taken},
                   views.picks_view, why_not=waiting_for_others),
    "supply": Phase(setup.offer_pool_count, {"add": setup.count_by, "ok": setup.pool_counted},
                    views.pool_count_view, why_not=waiting_for_others),
    "deal_nemeses": Phase(setup.offer_deal_nemeses, {"ready": setup.nemesis_taken},
                          views.deal_nemeses_view, why_not=waiting_for_others),
    # --- 1 Income
    "display": Phase(turns.offer_display,
                     {"more": turns.add_card, "clear": turns.clear_display,
                      "done": go_to("income")},
                     views.display_view, why_not=whose_turn),
    "income": Phase(buttons(("next", "Next: Patrol")), {"next": go_to("patrol")},
                    views.income_view, why_not=whose_turn),
    # --- 2 Patrol
    "patrol": Phase(buttons(("next", "Henchman chosen")), {"next": turns.henchman_in},
                    views.patrol_view, why_not=whose_turn),
    "hostages": Phase(turns.offer_hostages,
                      {"take": turns.take_hostage, "done": turns.hostages_taken},
                      views.hostages_view, why_not=whose_turn),
    "cops": Phase(buttons(("skip", "No cops"), ("cops", "Call the Cops...")),
                  {"skip": go_to("support"), "cops": go_to("cops_pick")},
                  views.note_view, why_not=whose_turn),
    "cops_pick": Phase(turns.offer_cops_pick,
                       {"remove": turns.call_the_cops, "more": turns.next_page,
                        "cancel": go_to("cops")},
                       views.villains_view, why_not=whose_turn),
    # --- 3 Support, 4 Equip
    "support": Phase(buttons(("next", "Next: Equip")), {"next": go_to("equip")},
                     views.support_view, why_not=whose_turn),
    "equip": Phase(buttons(("next", "Next: Crime-fight")), {"next": go_to("fight")},
                   views.equip_view, why_not=whose_turn),
    # --- 5 Crime-fighting
    "fight": Phase(turns.offer_fight,
                   {"rescue": go_to("rescue_pick"), "done": go_to("recoup"),
                    "nemesis": go_to("nemesis")},
                   views.villains_view, why_not=whose_turn),
    "rescue_pick": Phase(turns.offer_rescue_pick,
                         {"pick": turns.pick_villain, "more": turns.next_page,
                          "back": go_to("fight")},
                         views.villains_view, why_not=whose_turn),
    "rescue_civ": Phase(turns.offer_rescue_civ,
                        {"free": turns.free_hostage, "back": go_to("rescue_pick")},
                        views.rescue_civ_view, why_not=whose_turn),
    "trophy": Phase(buttons(("done", "No more icons"), ("trophy:$", "+1 $ trophy"),
                            ("trophy:Community", "+1 Community trophy"),
                            ("trophy:Family", "+1 Family trophy")),
                    {"done": turns.icons_counted, "trophy": turns.add_trophy},
                    views.note_view, why_not=whose_turn),
    "arrive": Phase(turns.offer_arrive, {"none": go_to("fight"), "arrive": turns.arch_villain_in},
                    views.note_view, why_not=whose_turn),
    "nemesis": Phase(buttons(("confirm", "Confirm: beaten"), ("cancel", "Cancel")),
                     {"confirm": turns.nemesis_confirmed, "cancel": go_to("fight")},
                     views.note_view, why_not=whose_turn),
    # --- 6 Recoup
    "recoup": Phase(buttons(("end", "End turn")), {"end": turns.end_turn},
                    views.note_view, why_not=whose_turn),
    OVER: over_phase(views.over_view),
}
