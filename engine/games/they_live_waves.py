"""They Live waves: New Resources, the player turns, health, city areas, the die, inspections.

A mixin of :class:`~engine.games.they_live.TheyLiveState`. The turn order is worked out
afresh after every turn, as the rulebook asks ("the remaining players then look at their
remaining health values"), so damage taken mid-wave moves players up the order.
"""

from __future__ import annotations

from engine.api import Action, Buzz, Effect, Narrate, Reveal, SeatView, Vibrate

from .they_live_rules import (
    INVADER,
    KICK_ASS,
    card_name,
    identity_phrase,
    is_enemy,
    next_to_play,
)

PUT_BACK_WAVES = 3  # "For the first 3 waves of the game ... placed randomly back"


class WavePhases:
    """Phases ``resources`` and ``turns``, and the per-seat menus used during turns."""

    # --- New Resources --------------------------------------------------------------------

    def _begin_wave(self) -> list[Effect]:
        self.wave += 1
        self.phase = "resources"
        self.preacher_rolled.clear()
        self.preacher_first.clear()
        self.enemy_note = None
        count = 2 * len(self.seats)
        effects: list[Effect] = [Buzz("turn"), Narrate(f"Wave {self.wave}: draw {count} cards")]
        if self.wave == PUT_BACK_WAVES + 1:
            effects.append(Narrate("From now on, drawn enemies stay"))
        if self.deck is not None:
            effects += self._draw_virtual(count)
        return effects

    def _draw_virtual(self, count: int) -> list[Effect]:
        """Draw named cards; in the first waves an enemy goes back below the top, unseen."""
        self.drawn, self.shown_card = [], 0
        while len(self.drawn) < count and self.deck:
            card = self.deck.pop()
            if self._must_put_back(card):
                self.deck.insert(self.rng.below(len(self.deck)), card)
            else:
                self.drawn.append(card)
        if len(self.drawn) < count:
            self.deck = None
            return [Narrate("Deck list used up: draw the rest from the real deck")]
        return [Narrate("Take: " + ", ".join(card_name(c) for c in self.drawn))]

    def _must_put_back(self, card: str) -> bool:
        return (
            self.wave <= PUT_BACK_WAVES
            and is_enemy(card)
            and any(not is_enemy(other) for other in self.deck)
        )

    def _actions_resources(self, seat: int) -> list[Action]:
        if self.drawn and self.shown_card < len(self.drawn) - 1:
            actions = [Action("next", "Next card")]
        else:
            actions = [Action("drawn", "Cards are out")]
            if self.deck is None and self.wave <= PUT_BACK_WAVES:
                actions.append(Action("enemy", "Enemy drawn"))
        if seat not in self.preacher_rolled:
            label = "Preacher roll" if self.options["die"] == "virtual" else "Preacher: Kick Ass"
            actions.append(Action("preacher", label))
        return actions

    def _apply_resources(self, seat: int, action_id: str, now: float) -> list[Effect]:
        if action_id == "next":
            self.shown_card += 1
            return []
        if action_id == "enemy":
            return self._put_enemy_back()
        if action_id == "preacher":
            return self._preacher(seat)
        self.deck_left = max(0, self.deck_left - 2 * len(self.seats))
        self.drawn = []
        return self._begin_turns()

    def _put_enemy_back(self) -> list[Effect]:
        """A depth below the top card, uniform over the cards the deck should still hold."""
        remaining = max(1, self.deck_left - 2 * len(self.seats))
        depth = 1 + self.rng.below(remaining)
        self.enemy_note = f"Enemy: {depth} cards down"
        return [Narrate(f"Put the enemy back {depth} cards down (or at the bottom),"
                        " then draw again")]

    def _preacher(self, seat: int) -> list[Effect]:
        self.preacher_rolled.add(seat)
        if self.options["die"] == "virtual":
            face = self._roll()
            if face not in KICK_ASS:
                return [Narrate(f"Seat {seat} Preacher roll: {face}")]
            text = f"Seat {seat} Preacher roll: {face}: goes first"
        else:
            text = f"Seat {seat} Preacher: Kick Ass: goes first"
        self.preacher_first.add(seat)
        return [Narrate(text)]

    def _roll(self) -> str:
        faces = [result for result, count in self.die_faces.items() for _ in range(count)]
        return self.rng.choice(faces)

    # --- player turns -----------------------------------------------------------------------

    def _begin_turns(self) -> list[Effect]:
        self.phase = "turns"
        self.to_play = {seat for seat in self.seats if self.players[seat].alive}
        return self._next_turn()

    def _next_turn(self) -> list[Effect]:
        waiting = [self.players[s] for s in self.to_play if self.players[s].alive]
        self.current = next_to_play(waiting, self.preacher_first, self.seats)
        if self.current is None:
            return self._begin_force_reveal()
        player = self.players[self.current]
        return [Buzz("turn"), Vibrate(self.current, "turn"),
                Narrate(f"Seat {self.current} ({player.character}) plays")]

    def _actions_turns(self, seat: int) -> list[Action]:
        player = self.players[seat]
        damage = Action("damage", "-1 health", undoable=player.left > 1, repeat=True)
        roll = [Action("roll", "Roll die")] if self.options["die"] == "virtual" else []
        if seat != self.current:
            return [damage, *roll]
        actions = [Action("end", "End turn"), damage]
        if player.left < player.max_health:
            actions.append(Action("heal", "+1 health", undoable=True, repeat=True))
        actions.append(Action("area", "+1 city area"))
        actions += roll
        if self._inspect_targets(seat):
            actions.append(Action("inspect", "Inspect..."))
        if player.areas:
            actions.append(Action("unarea", "-1 city area", undoable=True))
        if not player.revealed:
            actions.append(Action("reveal", "Self-reveal..."))
        return actions

    def _apply_turns(self, seat: int, action_id: str, now: float) -> list[Effect]:
        player = self.players[seat]
        if action_id == "damage":
            return self._damage(seat)
        if action_id == "heal":
            player.left += 1
            return []
        if action_id == "area":
            player.areas += 1
            return self._check_win()
        if action_id == "unarea":
            player.areas -= 1
            return []
        if action_id == "roll":
            return [Narrate(f"Seat {seat} rolls: {self._roll()}")]
        if action_id in ("inspect", "reveal"):
            self.menus[seat] = action_id
            return []
        self.to_play.discard(seat)
        return self._next_turn()

    def _damage(self, seat: int) -> list[Effect]:
        player = self.players[seat]
        if player.left == 1:
            self.menus[seat] = "death"
            return [Vibrate(seat, "warning")]
        player.left -= 1
        return [Vibrate(seat, "short")]

    # --- menus: inspect, self-reveal, confirm a death ------------------------------------------

    def _inspect_targets(self, seat: int) -> list[int]:
        """CRITICAL seats whose identity is still hidden: the only ones worth the Lenses."""
        return [
            s for s in self.seats
            if s != seat and self.players[s].is_critical and not self.players[s].revealed
        ]

    def _actions_menu(self, seat: int) -> list[Action]:
        menu = self.menus[seat]
        cancel = Action("cancel", "Cancel", undoable=True)
        if menu == "inspect":
            targets = [Action(f"inspect:{s}", f"Seat {s} {self.players[s].character}")
                       for s in self._inspect_targets(seat)]
            return [*targets, cancel]
        if menu == "accuse":
            targets = [Action(f"accuse:{s}", f"Seat {s} {self.players[s].character}")
                       for s in self._accusable(seat)]
            return [*targets, cancel]
        if menu == "death":
            return [cancel, Action("die", "Yes: I am dead")]
        if menu == "reveal":
            return [cancel, Action("reveal2", "Reveal: Invader")]
        return [cancel, Action("reveal3", "Sure? Reveal now")]

    def _apply_menu(self, seat: int, action_id: str, now: float) -> list[Effect]:
        del self.menus[seat]
        verb, _, target = action_id.partition(":")
        if verb == "inspect":
            return self._inspect(seat, int(target))
        if verb == "accuse":
            return self._open_vote(seat, int(target))
        if verb == "die":
            self.players[seat].left = 0
            return self._kill(seat)
        if verb == "reveal2":
            self.menus[seat] = "reveal2"
        if verb == "reveal3":
            return self._self_reveal(seat)
        return []

    def _inspect(self, seat: int, target: int) -> list[Effect]:
        """Only the inspector's PEEK face learns the identity; the table learns the fact."""
        self.inspections.setdefault(seat, []).append(target)
        return [
            Vibrate(seat, "long"),
            Narrate(f"Seat {seat} inspects seat {target}: discard the Hoffman Lenses"),
        ]

    def _self_reveal(self, seat: int) -> list[Effect]:
        """An Invader's deliberate reveal; a Human who tries it only feels a buzz."""
        if self.identities[seat] != INVADER:
            return [Vibrate(seat, "error")]
        player = self.players[seat]
        player.revealed, player.left = True, player.max_health
        return [
            Buzz("reveal"),
            Reveal(f"{player.character} reveals! {identity_phrase(seat, INVADER)}"),
            Narrate(f"Seat {seat} heals fully, loses the ally; enemies ignore them"),
        ]

    # --- views ------------------------------------------------------------------------------

    def _view_resources(self, seat: int | None) -> SeatView:
        title = f"Wave {self.wave}: resources"
        if self.drawn:
            card = card_name(self.drawn[self.shown_card])
            return SeatView(title, (f"Card {self.shown_card + 1}/{len(self.drawn)}:", card))
        lines = [f"Draw {2 * len(self.seats)} cards"]
        if self.wave <= PUT_BACK_WAVES:
            lines.append(self.enemy_note or "Enemy? press Enemy")
        return SeatView(title, tuple(lines))

    def _view_turns(self, seat: int | None) -> SeatView:
        if seat is not None and seat in self.menus:
            return self._view_menu(seat)
        if seat is None:
            return SeatView(f"Wave {self.wave}: seat {self.current}", self._summary_lines())
        player = self.players[seat]
        mine = seat == self.current
        title = "YOUR TURN" if mine else f"Wave {self.wave}: seat {self.current}"
        return SeatView(title, self._standing_lines(player), highlight=mine)

    def _view_menu(self, seat: int) -> SeatView:
        titles = {
            "inspect": ("Inspect whom?", "Hoffman Lenses"),
            "accuse": ("Force-reveal whom?", "Hoffman Lenses"),
            "death": ("No health left", "Dead? Confirm"),
            "reveal": ("SELF-REVEAL?", "Invaders only"),
            "reveal2": ("SELF-REVEAL?", "Cannot be undone"),
        }
        title, line = titles[self.menus[seat]]
        return SeatView(title, (line,), highlight=True)

    def _standing_lines(self, player) -> tuple[str, ...]:
        crit = " CRITICAL" if player.is_critical else ""
        lines = [f"Health {player.left}/{player.max_health}{crit}",
                 f"Areas {player.areas} Hand max {player.hand_limit}"]
        if player.revealed and self.identities[player.seat] == INVADER:
            lines.append("No ally; enemies skip")
        return tuple(lines)

    def _summary_lines(self) -> tuple[str, ...]:
        cells = []
        for seat in self.seats:
            player = self.players[seat]
            mark = "x" if not player.alive else ("c" if player.is_critical else "")
            cells.append(f"{seat}:{player.left}{mark}")
        return (" ".join(cells[:4]), " ".join(cells[4:]))
