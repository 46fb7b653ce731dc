"""The whole flow of a game of They Live, as one table: setup first, then the waves.

Each wave goes round ``resources`` -> ``turns`` -> ``force`` (-> ``vote``) -> ``resources``;
a death or a city area taken may end the game from ``turns`` or ``vote``.
"""

from __future__ import annotations

from engine.phases import OVER, Phase, offer_nothing, over_phase

from . import check, force_reveal, menus, setup, turns, views

PHASES: dict[str, Phase] = {
    "character": Phase(
        offer=setup.offer_character,
        rules={"pick": setup.pick_character, "unpick": setup.unpick_character},
        view=views.on_screen(views.view_character, views.peek_not_dealt),
    ),
    "values": Phase(
        offer=setup.offer_values,
        rules={"+1": setup.raise_value, "-1": setup.lower_value, "ok": setup.accept_value},
        view=views.on_screen(views.view_values, views.peek_not_dealt),
    ),
    "identity": Phase(
        offer=setup.offer_identity,
        rules={"done": setup.identity_seen, "change": setup.change_values,
               "+1": setup.raise_value, "-1": setup.lower_value, "ok": setup.accept_value},
        view=views.on_screen(views.view_identity),
    ),
    "check": Phase(
        offer=offer_nothing,
        rules={},
        view=views.on_screen(views.view_check),
        deadline=check.check_deadline,
        expire=check.next_check_steps,
        why_not=check.wait_for_the_check,
    ),
    "resources": Phase(
        offer=turns.offer_resources,
        rules={
            "next": turns.next_card,
            "drawn": turns.cards_out,
            "enemy": turns.enemy_drawn,
            "preacher": turns.preacher,
        },
        view=views.on_screen(views.view_resources),
    ),
    "turns": Phase(
        offer=turns.offer_turns,
        rules={
            "end": turns.end_turn,
            "damage": turns.take_damage,
            "heal": turns.heal,
            "area": turns.take_area,
            "unarea": turns.give_up_area,
            "roll": turns.roll_die,
            "inspect": menus.inspect,
            "reveal": menus.open_self_reveal,
            "reveal2": menus.ask_again,
            "reveal3": menus.self_reveal,
            "die": turns.confirm_death,
            "cancel": menus.close_menu,
        },
        view=views.on_screen(views.view_turns),
        why_not=turns.not_your_turn,
    ),
    "force": Phase(
        offer=force_reveal.offer_force,
        rules={
            "pass": force_reveal.pass_reveal,
            "call": force_reveal.call_reveal,
            "accuse": force_reveal.accuse,
            "cancel": menus.close_menu,
        },
        view=views.on_screen(views.view_force),
    ),
    "vote": Phase(
        offer=force_reveal.offer_vote,
        rules={"vote": force_reveal.cast_vote},
        view=views.on_screen(views.view_vote),
        why_not=force_reveal.already_voted,
    ),
    OVER: over_phase(views.view_over),
}
