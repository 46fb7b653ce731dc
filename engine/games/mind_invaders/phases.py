"""Mind Invaders' flow as one table: setup, then contests of I-IV, collection and cleanup.

- ``setup`` waits for every seat to say Ready, then the first contest's ``block`` begins.
- ``block`` (I) begins a contest: the seats playing it turn green, and the first of them in
  Initiative order blocks a card; the others wait in turn only in case it leaves the game.
  Its block ends the step, and ``hidden`` follows.
- ``hidden`` (II), ``reveal`` (III) and ``hold`` (IV) each wait for the green seats one at
  a time, in Initiative order; ``hidden`` begins by telling the round. A seat that holds
  turns red; after ``hold``, ``hidden`` comes round again while a seat is still green,
  else ``collect``.
- ``collect`` waits for every seat of the contest at once (highest Power first, ties in
  Initiative order), then ``cleanup`` begins: the Initiative cards pass left and the floors
  shrink to the seats left.
- ``cleanup`` waits for every living seat's answer, are there Power cards in its hand; its
  end seats only those with Power cards in the next contest (everyone, if none has any),
  and ``block`` begins the next contest.

In every step of a contest a seat may also investigate, declare its victory or its
elimination (``anytime``): each press opens a menu of the seat's, which stays open while the
table moves on to the next step. A seat that leaves is waited for no longer. The game ends
only in ``end``: a victory, an Alien unmasking the Human, the last one standing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.phases import EVERY_SEAT, OVER, Phase, Waits, answered, nothing_happens, over_phase

from . import anytime, setup, turns, views

if TYPE_CHECKING:
    from engine.phases import Hook, Next, Offer, Rule, View


def contest_step(offer: Offer, rules: dict[str, Rule], view: View, *, waits: Waits,
                 next: str | Next, begin: Hook = nothing_happens,
                 end: Hook = nothing_happens) -> Phase:
    """A step of a contest: its own rules beside the anytime presses and their menus, which
    the seats keep open from one step to the next."""
    return Phase(offer=offer, rules={**rules, **anytime.OPENERS}, view=view,
                 why_not=views.refusal, begin=begin, waits=waits, end=end, next=next,
                 menus=anytime.MENUS, keeps_menus=True)


IN_TURN_GREEN = Waits(turns.green_in_order, in_turn=True)

PHASES: dict[str, Phase] = {
    "setup": Phase(
        offer=setup.offer_ready,
        rules={"ready": answered},
        view=views.view_setup,
        why_not=views.refusal,
        waits=EVERY_SEAT,
        next="block",
    ),
    "block": contest_step(
        turns.offer_block, {"blocked": turns.block_card}, views.view_block,
        begin=turns.start_contest,
        waits=Waits(turns.blockers, in_turn=True),
        next="hidden",
    ),
    "hidden": contest_step(
        turns.offer_hidden, {"played": answered}, views.view_hidden,
        begin=turns.start_round,
        waits=IN_TURN_GREEN,
        next="reveal",
    ),
    "reveal": contest_step(
        turns.offer_reveal, {"revealed": answered}, views.view_reveal,
        waits=IN_TURN_GREEN,
        next="hold",
    ),
    "hold": contest_step(
        turns.offer_hold, {"hold": turns.hold, "intensify": answered}, views.view_hold,
        waits=IN_TURN_GREEN,
        next=turns.after_hold,
    ),
    "collect": contest_step(
        turns.offer_collect, {"collected": answered}, views.view_collect,
        begin=turns.start_collection,
        waits=Waits(turns.participants),
        next="cleanup",
    ),
    "cleanup": contest_step(
        turns.offer_cleanup, {"power": turns.power_in_hand}, views.view_cleanup,
        begin=turns.start_cleanup,
        waits=Waits(turns.alive),
        end=turns.end_cleanup,
        next="block",
    ),
    OVER: over_phase(views.view_over),
}
