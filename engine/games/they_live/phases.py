"""The whole flow of a game of They Live, as one table: setup first, then the waves.

Setup, once:

- ``character``: every seat picks a character card, in the open (each seat's first pick is
  its cut of the fair deal). Done once every seat has one; then ``values``.
- ``values``: on entry, each seat is given the values its card leaves out (those the table
  entered in an earlier game are taken as known). Each seat enters its own at its own pace;
  done once none is left (at once if none was asked). At its end every player starts at
  full health; then ``identity``.
- ``identity``: the identities are dealt by now; every seat looks at its own on PEEK and
  says Done (a seat may enter its values again first). Waits for every seat; then the
  Invader ``check`` with four or more players, the first wave's ``resources`` with three.
- ``check``: the Invader check runs on the clock alone, nobody presses anything. Done after
  its last step; then ``resources``.

Each wave, until one side wins:

- ``resources``: on entry the wave begins, and its New Resources go out (named on screen
  with a deck list). Any seat says the cards are out, which ends it; at its end the deck is
  that much smaller; then ``turns``.
- ``turns``: waits for every living seat to play once, lowest health first (worked out
  again after every turn). A seat that dies is no longer waited for. Once the last has
  played: ``force`` if a force-reveal may still be called, else the next wave's
  ``resources``.
- ``force``: waits for every living seat to pass; then the next wave's ``resources``. A
  seat that calls a reveal (its menu: whom) ends it for the ``vote`` instead.
- ``vote``: every living seat votes at once on the call. Done when all have voted; at its
  end the accused is revealed or not (and a Human's reveal hurts the yes-voters); then the
  next wave's ``resources``.

A death or a city area taken may end the game in ``turns``, and the vote's end may too: the
game goes to ``OVER`` (every ending is in :mod:`.end`). A seat's menus (Hoffman Lenses, a
self-reveal asked twice, a death to confirm, whom to accuse) are in the table with their
phase; each has its "Cancel".
"""

from __future__ import annotations

from engine.phases import (
    EVERY_SEAT,
    OVER,
    Menu,
    Phase,
    Waits,
    answered,
    offer_nothing,
    opens,
    over_phase,
)

from . import check, force_reveal, menus, setup, turns, views
from .menus import MenuName, Verb
from .state import PhaseName, TheyLiveState

EVERY_LIVING_SEAT = Waits(TheyLiveState.living)


def after_identities(state: TheyLiveState) -> str:
    """The Invaders meet in a check with four or more players; with three, play starts."""
    return PhaseName.CHECK if len(state.seats) >= 4 else PhaseName.RESOURCES


def after_turns(state: TheyLiveState) -> str:
    return PhaseName.FORCE if turns.force_reveal_possible(state) else PhaseName.RESOURCES


PHASES: dict[str, Phase] = {
    PhaseName.CHARACTER: Phase(
        offer=setup.offer_character,
        rules={"pick": setup.pick_character, "unpick": setup.unpick_character},
        view=views.on_screen(views.view_character, views.peek_not_dealt),
        done=setup.all_picked,
        next=PhaseName.VALUES,
    ),
    PhaseName.VALUES: Phase(
        offer=setup.offer_values,
        rules={"+1": setup.raise_value, "-1": setup.lower_value, "ok": setup.accept_value},
        view=views.on_screen(views.view_values, views.peek_not_dealt),
        begin=setup.ask_values,
        done=setup.values_entered,
        end=setup.start_at_full_health,
        next=PhaseName.IDENTITY,
    ),
    PhaseName.IDENTITY: Phase(
        offer=setup.offer_identity,
        rules={"done": answered, "change": setup.change_values,
               "+1": setup.raise_value, "-1": setup.lower_value,
               "ok": setup.accept_changed_value},
        view=views.on_screen(views.view_identity),
        begin=setup.show_identities,
        waits=EVERY_SEAT,
        next=after_identities,
    ),
    PhaseName.CHECK: Phase(
        offer=offer_nothing,
        rules={},
        view=views.on_screen(views.view_check),
        deadline=check.check_deadline,
        expire=check.next_check_steps,
        why_not=check.wait_for_the_check,
        begin=check.start_check,
        done=check.check_over,
        next=PhaseName.RESOURCES,
    ),
    PhaseName.RESOURCES: Phase(
        offer=turns.offer_resources,
        rules={
            "next": turns.next_card,
            "drawn": turns.cards_out,
            "enemy": turns.enemy_drawn,
            "preacher": turns.preacher,
        },
        view=views.on_screen(views.view_resources),
        begin=turns.begin_wave,
        end=turns.cards_taken,
        next=PhaseName.TURNS,
    ),
    PhaseName.TURNS: Phase(
        offer=turns.offer_turns,
        rules={
            "end": turns.end_turn,
            "damage": turns.take_damage,
            "heal": turns.heal,
            "area": turns.take_area,
            "unarea": turns.give_up_area,
            "roll": turns.roll_die,
            Verb.INSPECT: opens(MenuName.INSPECT),
            Verb.REVEAL: opens(MenuName.REVEAL),
        },
        view=views.on_screen(views.view_turns),
        why_not=turns.not_your_turn,
        begin=turns.first_turn,
        waits=EVERY_LIVING_SEAT,
        next=after_turns,
        menus={
            MenuName.INSPECT: Menu(menus.offer_lenses, {
                Verb.INSPECT: menus.use_lenses, Verb.CANCEL: menus.cancel}),
            MenuName.REVEAL: Menu(menus.offer_reveal, {
                Verb.REVEAL_SURE: opens(MenuName.REVEAL_SURE), Verb.CANCEL: menus.cancel}),
            MenuName.REVEAL_SURE: Menu(menus.offer_reveal_sure, {
                Verb.REVEAL_NOW: menus.self_reveal, Verb.CANCEL: menus.cancel}),
            MenuName.DEATH: Menu(turns.offer_death, {
                Verb.DIE: turns.confirm_death, Verb.CANCEL: menus.cancel}),
        },
    ),
    PhaseName.FORCE: Phase(
        offer=force_reveal.offer_force,
        rules={"pass": answered, "call": opens(MenuName.ACCUSE)},
        view=views.on_screen(views.view_force),
        begin=force_reveal.offer_call,
        waits=EVERY_LIVING_SEAT,
        next=PhaseName.RESOURCES,
        menus={
            MenuName.ACCUSE: Menu(force_reveal.offer_accuse, {
                Verb.ACCUSE: force_reveal.accuse, Verb.CANCEL: menus.cancel}),
        },
    ),
    PhaseName.VOTE: Phase(
        offer=force_reveal.offer_vote,
        rules={"vote": force_reveal.cast_vote},
        view=views.on_screen(views.view_vote),
        why_not=force_reveal.already_voted,
        done=force_reveal.all_voted,
        end=force_reveal.resolve,
        next=PhaseName.RESOURCES,
    ),
    OVER: over_phase(views.view_over),
}
