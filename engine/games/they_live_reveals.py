"""They Live reveals: the force-reveal vote, deaths, the spare card and the win checks.

A mixin of :class:`~engine.games.they_live.TheyLiveState`. Every public reveal goes through
a :class:`~engine.api.Reveal` effect, and every identity is written with
:func:`~engine.games.they_live_rules.identity_phrase`, so the secrecy tests can search every
view and effect for exactly the phrases that are still secret.
"""

from __future__ import annotations

from engine.api import Action, Buzz, Effect, GameOver, Narrate, Reveal, SeatView
from engine.votes import Vote

from .they_live_rules import (
    HUMAN,
    INVADER,
    SPARE_COUNTS,
    force_penalty,
    identity_phrase,
    invaders_in_play_phrase,
    spare_phrase,
)

HUMANS_WIN = "Humans win: every Invader is dead"
INVADERS_WIN_CITY = "Invaders win: the city is taken"
INVADERS_WIN_KILLS = "Invaders win: every Human is dead"
NOBODY_WINS = "Nobody wins: no one is left"


class RevealPhases:
    """Phases ``force`` and ``vote``, and ``over``; deaths and wins happen in any phase."""

    # --- force-reveal ----------------------------------------------------------------------

    def _begin_force_reveal(self) -> list[Effect]:
        self.current = None
        self.menus.clear()
        if self.force_locked or not any(self._accusable(s) for s in self._living()):
            return self._begin_wave()
        self.phase = "force"
        self.passed = set()
        return [Buzz("turn"), Narrate("Force-reveal? Call one (Hoffman Lenses) or pass")]

    def _accusable(self, seat: int) -> list[int]:
        return [s for s in self._living() if s != seat and not self.players[s].revealed]

    def _actions_force(self, seat: int) -> list[Action]:
        if seat in self.passed:
            return []
        actions = [Action("pass", "No reveal")]
        if self._accusable(seat):
            actions.append(Action("call", "Call reveal..."))
        return actions

    def _apply_force(self, seat: int, action_id: str, now: float) -> list[Effect]:
        if action_id == "call":
            self.menus[seat] = "accuse"
            return []
        self.passed.add(seat)
        if self.passed >= set(self._living()):
            return self._begin_wave()
        return []

    def _open_vote(self, caller: int, accused: int) -> list[Effect]:
        self.menus.clear()
        self.phase = "vote"
        self.vote = Vote(voters=frozenset(self._living()))
        self.accused, self.caller = accused, caller
        return [
            Buzz("alarm"),
            Narrate(f"Seat {caller} calls a force-reveal of seat {accused}: everyone vote"),
        ]

    def _actions_vote(self, seat: int) -> list[Action]:
        if seat in self.vote.ballots:
            return []
        return [Action("vote:yes", "Yes: reveal"), Action("vote:no", "No")]

    def _apply_vote(self, seat: int, action_id: str, now: float) -> list[Effect]:
        self.vote.cast(seat, action_id.split(":", 1)[1])
        if not self.vote.is_complete():
            return []
        effects = self._resolve_vote()
        if self.phase != "over":
            effects += self._begin_wave()
        return effects

    def _resolve_vote(self) -> list[Effect]:
        """More than half of the living players must say yes for the reveal to go ahead."""
        yes = sorted(s for s, choice in self.vote.ballots.items() if choice == "yes")
        told = Narrate(f"Force-reveal: {len(yes)} of {len(self.vote.voters)} say yes")
        if not self.vote.more_than_half("yes"):
            return [told, Narrate("No reveal")]
        accused = self.players[self.accused]
        accused.revealed = True
        identity = self.identities[self.accused]
        effects = [told, Buzz("reveal"),
                   Reveal(f"{accused.character}: "
                                       f"{identity_phrase(self.accused, identity)}"),
                   Narrate(f"Seat {self.caller}: discard the Hoffman Lenses")]
        if identity == INVADER:
            effects.append(Narrate(f"Seat {self.accused}: no heal, no ally; enemies ignore"))
            return effects
        return effects + self._punish_yes_voters(yes)

    def _punish_yes_voters(self, yes: list[int]) -> list[Effect]:
        self.force_locked = True
        seats = ", ".join(str(s) for s in yes)
        effects: list[Effect] = [
            Narrate(f"Yes-voters drop to CRITICAL, 3 damage at least: seats {seats}"),
            Narrate("No more force-reveals this game"),
        ]
        for seat in yes:
            player = self.players[seat]
            player.left = force_penalty(player.left, player.critical)
        for seat in yes:
            if self.players[seat].left == 0 and self.phase != "over":
                effects += self._kill(seat)
        return effects

    # --- death and the spare ------------------------------------------------------------------

    def _kill(self, seat: int) -> list[Effect]:
        player = self.players[seat]
        player.alive, player.revealed, player.areas = False, True, 0
        self.menus.pop(seat, None)
        identity = self.identities[seat]
        effects: list[Effect] = [
            Buzz("reveal"),
            Reveal(f"{player.character} died. {identity_phrase(seat, identity)}"),
            Narrate("Killed by an enemy: cards back in the deck; by a player: they take all"),
        ]
        if identity == INVADER:
            effects += self._reveal_spare()
        effects += self._check_win()
        if self.phase == "turns" and seat == self.current:
            self.to_play.discard(seat)
            effects += self._next_turn()
        return effects

    def _reveal_spare(self) -> list[Effect]:
        if len(self.seats) not in SPARE_COUNTS or self.spare_revealed or self.phase == "over":
            return []
        self.spare_revealed = True
        in_play = sum(1 for s in self.seats if self.identities[s] == INVADER)
        return [Reveal(f"{spare_phrase(self.spare)}. "
                                    f"{invaders_in_play_phrase(in_play)}")]

    # --- winning -------------------------------------------------------------------------------

    def _check_win(self) -> list[Effect]:
        outcome = self._outcome()
        if outcome is None or self.phase == "over":
            return []
        self.phase, self.outcome = "over", outcome
        self.menus.clear()
        everyone = ", ".join(identity_phrase(s, self.identities[s]) for s in self.seats)
        return [Buzz("win"), GameOver(outcome), Reveal(everyone)]

    def _outcome(self) -> str | None:
        alive = [s for s in self.seats if self.players[s].alive]
        invaders = [s for s in alive if self.identities[s] == INVADER]
        humans = [s for s in alive if self.identities[s] == HUMAN]
        if not invaders and not humans:
            return NOBODY_WINS
        if not invaders:
            return HUMANS_WIN
        if not humans:
            return INVADERS_WIN_KILLS
        if sum(self.players[s].areas for s in invaders) >= len(self.seats):
            return INVADERS_WIN_CITY
        return None

    # --- views ----------------------------------------------------------------------------------

    def _view_force(self, seat: int | None) -> SeatView:
        if seat is not None and seat in self.menus:
            return self._view_menu(seat)
        waiting = len(set(self._living()) - self.passed)
        lines = ("Caller needs Lenses", f"Waiting for {waiting}")
        return SeatView("Force-reveal?", lines, highlight=seat is not None and
                        seat in self._living() and seat not in self.passed)

    def _view_vote(self, seat: int | None) -> SeatView:
        if seat is not None and seat in self.menus:
            return self._view_menu(seat)
        voted = len(self.vote.ballots)
        lines = (f"Seat {self.caller} accuses", f"Voted: {voted} of {len(self.vote.voters)}")
        must = seat is not None and seat in self.vote.waiting_for()
        return SeatView(f"VOTE: reveal seat {self.accused}?", lines, highlight=must)

    def _view_over(self, seat: int | None) -> SeatView:
        """The winner big, then every identity in one line (the banner leaves room for one)."""
        invaders = [str(s) for s in self.seats if self.identities[s] == INVADER]
        who = f"Invaders: seat {', '.join(invaders)}" if invaders else "No Invader at the table"
        winner = self.outcome.split(":")[0]
        return SeatView("Game over", (who, self.outcome), banner=winner)
