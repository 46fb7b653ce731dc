"""The whole flow of a Staying Alive game, as one table.

Setup: "deck" (each seat does its deck-building steps, then takes its role card and says
ready) -> "start" (the Lookout's free first flip). Then every turn: "play" (the card is drawn
by itself; the player enters what the actions cost) -> "check" (the strain check, or stay or
escape once the deck is empty) -> "escape" (the strain the escaper holds), with "more" beside
"play" for rare corrections and the Key. In every turn step the Lookout may flip and the sand
runs: its deadline is the expiry or the next staged warning.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.games.staying_alive import setup, timing, turns, views
from engine.phases import OVER, Offer, Phase, Rule, View, over_phase


def _turn_step(offer: Offer, view: View, rules: Mapping[str, Rule]) -> Phase:
    """A step of a turn: the Lookout's flip, the running hourglass and its refusals in each."""
    return Phase(
        offer=offer,
        rules={"flip": turns.flip_hourglass, **rules},
        view=view,
        deadline=timing.hourglass_deadline,
        expire=timing.sand_runs_down,
        why_not=turns.why_not_in_play,
    )


PHASES: dict[str, Phase] = {
    "deck": Phase(
        offer=setup.offer_deck,
        rules={"done": setup.mark_step_done, "ready": setup.mark_ready},
        view=views.deck_view,
    ),
    "start": Phase(
        offer=setup.offer_start,
        rules={"start": setup.start_hourglass},
        view=views.start_view,
    ),
    "play": _turn_step(turns.offer_play, views.play_view, {
        "end": turns.end_actions,
        "lose": turns.lose_one,
        "gain": turns.gain_one,
        "swap": turns.swap_role_left,
        "more": turns.open_more,
    }),
    "more": _turn_step(turns.offer_more, views.more_view, {
        "goal": turns.toggle_goal,
        "key": turns.use_key,
        "deck": turns.correct_deck,
        "back": turns.back_to_play,
    }),
    "check": _turn_step(turns.offer_check, views.check_view, {
        "check": turns.check_strain,
        "stay": turns.stay,
        "escape": turns.open_escape,
    }),
    "escape": _turn_step(turns.offer_escape, views.escape_view, {
        "strain": turns.escape_with_strain,
        "back": turns.back_to_check,
    }),
    OVER: over_phase(views.over_view),
}
