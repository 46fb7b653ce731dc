"""Heroes Love to Lie screens: what each seat, and the table, may see right now.

A mixin of :class:`~engine.games.heroes.HeroesState`. A seat's Hero appears only on its own
PEEK face (``secret``), as does what its Mage saw; everything else is public: tokens, the
Monsters in play, claims, and the cards the rules turn face up. The discard pile is never
shown, because the rules forbid looking at it. Lines stay within 21 characters.
"""

from __future__ import annotations

from engine.api import SeatView, SecretFace

from .heroes_cards import HEROES, POWERS
from .heroes_windows import CHALLENGE, GIANT, Claim

WIDTH = 21


def fit(*variants: str) -> str:
    """The first wording that fits a line (the last one is cut if none does)."""
    for text in variants:
        if len(text) <= WIDTH:
            return text
    return variants[-1][:WIDTH]


class HeroViews:
    def view(self, seat: int | None, now: float) -> SeatView:
        if self.is_terminal():
            return self._final_view(seat)
        if self.phase in ("monster_values", "who_starts"):
            return self._setup_view(seat)
        if seat is None:
            return self._public_view(now)
        if not self.table.alive(seat):
            return SeatView(f"Seat {seat}: out", (self._public_view(now).title,), banner="OUT")
        title, lines = self._situation(seat)
        if self.phase in ("bet", "loot_gems") and seat == self.turn_seat:
            return SeatView(title, (self.entry.prompt,), big=self.entry.shown(),
                            highlight=True, secret=self._secret_face(seat))
        glass = self.window.sand(now) if self.window else None
        return SeatView(title, lines, hourglass=glass, secret=self._secret_face(seat),
                        highlight=seat in self.active_seats())

    def _final_view(self, seat: int | None) -> SeatView:
        banner = "YOU WIN" if seat == self.winner else "GAME OVER"
        return SeatView(f"Seat {self.winner} wins", (self.reason,), banner=banner)

    # --- the public face of the current step ------------------------------------------------

    def _situation(self, seat: int) -> tuple[str, tuple[str, ...]]:
        if self.window is not None:
            return self._window_situation(seat)
        title = "Your turn" if seat == self.turn_seat else f"Seat {self.turn_seat}'s turn"
        return title, (self._stats(seat), self._monsters_line(), self._headline(seat))

    def _headline(self, seat: int | None) -> str:
        """One line on the step under way, for the seat acting or for everyone else."""
        mine = seat == self.turn_seat
        turn = f"Seat {self.turn_seat}"
        phase = self.phase
        if phase == "turn":
            return "Choose an action" if mine else f"{turn} chooses"
        if phase == "discard":
            return "Discard: PEEK to see" if mine else f"{turn} drew a Hero"
        if phase in ("claim_hero", "claim_powers"):
            return self._claim_prompt() if mine else f"{turn} announces..."
        if phase == "fight_monster":
            return "Fight which Monster?" if mine else f"{turn} picks a fight"
        if phase == "pick_monster":
            return "Renew which Monster?" if mine else f"{turn} renews one"
        if phase == "target":
            return fit(f"{self._step_label()}: who?", "Choose a seat") if mine else (
                f"{turn} picks a seat")
        if phase == "guess":
            return f"Seat {self.target}'s Hero is?" if mine else f"{turn} names a Hero"
        if phase == "bet":
            return f"{turn} bets Gems"
        return f"{turn} reads the Gems"  # loot_gems: the only phase left outside windows

    def _claim_prompt(self) -> str:
        if self.phase == "claim_powers":
            return fit(f"{self.claimed}: powers?", "Which powers?")
        return "Claim a Hero aloud"

    def _step_label(self) -> str:
        step = self.todo[0]
        return "Unmask" if step == "unmask" else POWERS[step].label

    def _window_situation(self, seat: int | None) -> tuple[str, tuple[str, ...]]:
        window = self.window
        asked = seat in window.waiting
        if window.kind == CHALLENGE:
            claim = window.claim
            title = f"Seat {claim.seat}: {claim.hero}?"
            return fit(title, f"S{claim.seat}: {claim.hero}?"), self._claim_lines(claim)
        theft = self._theft_lines(seat)
        if window.kind == GIANT:
            title = "Cancel as Giant?" if asked else f"Seat {self.target} may react"
            return title, theft
        title = "Knight? Copy Gems" if asked else "Any Knight?"
        return title, (f"Seat {self.turn_seat} gained {self.looted}", "Gems in the fight")

    def _claim_lines(self, claim: Claim) -> tuple[str, ...]:
        if claim.kind == "power":
            return tuple(fit(POWERS[p].label + POWERS[p].cost_text) for p in claim.powers)
        if claim.kind == "combat":
            return (f"fights the {self.table.in_play[claim.monster]}",)
        if claim.kind == "giant":
            return ("cancels the theft",)
        return (f"copies {claim.gems} Gems",)

    def _theft_lines(self, seat: int | None) -> tuple[str, ...]:
        swap = self.todo and self.todo[0] == "elf_swap"
        victim = "you" if seat == self.target else f"Seat {self.target}"
        if swap:
            return (f"Seat {self.turn_seat} swaps Gems", f"with {victim}")
        return (f"Seat {self.turn_seat} steals a Gem", f"from {victim}")

    def _stats(self, seat: int) -> str:
        purse = self.table.purses[seat]
        return fit(
            f"Life {purse.life} Gems {purse.gems} Glory {purse.glory}",
            f"Life {purse.life} Gems {purse.gems} Gl {purse.glory}",
        )

    def _monsters_line(self) -> str:
        shown = [f"{name} {self.table.strength_text(name)}" for name in self.table.in_play]
        return fit(" ".join(shown), " ".join(s[:4] + s[s.rfind(" "):] for s in shown))

    def _life_line(self) -> str:
        pairs = " ".join(f"{s}:{self.table.purses[s].life}" for s in self.seats)
        return fit(f"Life {pairs}", f"L {pairs}")

    def _glory_line(self) -> str:
        pairs = " ".join(f"{s}:{self.table.purses[s].glory}" for s in self.seats)
        return fit(f"Glory {pairs}", f"G {pairs}")

    def _public_view(self, now: float) -> SeatView:
        if self.window is not None:
            title, lines = self._window_situation(None)
            return SeatView(title, lines, hourglass=self.window.sand(now))
        lines = (self._life_line(), self._glory_line(), self._monsters_line())
        return SeatView(self._headline(None), lines)

    # --- the PEEK face ----------------------------------------------------------------------

    def _secret_face(self, seat: int | None) -> SecretFace | None:
        if seat is None or not self.table.alive(seat):
            return None
        hand = self.table.hand(seat)
        if len(hand) == 2:
            lines = [f"Old: {HEROES[hand[0]].label}", f"New: {HEROES[hand[1]].label}"]
        elif hand:
            lines = [HEROES[hand[0]].label]
        else:
            lines = ["None until your", "action ends"]
        if seat in self.peeks:
            target, hero = self.peeks[seat]
            lines.append(f"Seat {target} is {hero}")
        return SecretFace("Your Hero", tuple(lines))

    def secrets_hidden_from(self, seat: int | None) -> frozenset[str]:
        """Each other seat's card as "Seat 4 is Troll", unless this seat's Mage saw it,
        and the face-down cards: the set-aside ones and the top of the pile."""
        hidden = set()
        for other in self.seats:
            if other == seat:
                continue
            for hero in self.table.hand(other):
                if seat is None or self.peeks.get(seat) != (other, hero):
                    hidden.add(f"Seat {other} is {hero}")
        hidden.update(f"Set aside: {hero}" for hero in self.table.heroes.aside)
        if self.table.heroes.cards:
            hidden.add(f"Next Hero: {self.table.heroes.cards[-1]}")
        return frozenset(hidden)

