"""The Heroes Love to Lie table: hands, the two decks, tokens and the common reserves.

Pure bookkeeping with no rules of play: the state decides *when* a card moves or a token
changes hands, the table makes it so. Reserves are finite (10 Life Points, 16 Glory,
30 Gems, as in the box), so a gain takes only what the reserve still holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.deck import Deck
from engine.rng import SeededRandom

from .cards import COMPONENTS, MONSTERS, hero_deck, monster_deck


@dataclass
class Purse:
    """One seat's tokens, and the Hero card(s) it holds (two only mid-POWER)."""

    life: int
    gems: int = 0
    glory: int = 0
    hand: list[str] = field(default_factory=list)


class Table:
    def __init__(self, seats: Sequence[int], rng: SeededRandom) -> None:
        self.rng = rng
        self.order = tuple(seats)
        two = len(seats) == 2
        life = COMPONENTS.life_start_two_players if two else COMPONENTS.life_start
        self.purses = {seat: Purse(life) for seat in seats}
        self.heroes: Deck[str] = Deck.shuffled(hero_deck(), rng)
        for seat in seats:
            self.purses[seat].hand.append(self.heroes.draw())
        self.heroes.set_aside()
        self.monsters: Deck[str] = Deck.shuffled(monster_deck(), rng)
        count = COMPONENTS.monsters_in_play_two_players if two else COMPONENTS.monsters_in_play
        self.in_play: list[str] = self.monsters.draw_many(count)
        self.strengths = {name: m.strength for name, m in MONSTERS.items()}
        self.loot = {name: m.gems for name, m in MONSTERS.items()}

    # --- seats ------------------------------------------------------------------------------

    def alive(self, seat: int) -> bool:
        return self.purses[seat].life > 0

    def living(self) -> list[int]:
        return [seat for seat in self.order if self.alive(seat)]

    def dead(self) -> list[int]:
        return [seat for seat in self.order if not self.alive(seat)]

    def hand(self, seat: int) -> list[str]:
        return self.purses[seat].hand

    # --- reserves ---------------------------------------------------------------------------

    def reserve_gems(self) -> int:
        return COMPONENTS.gems - sum(p.gems for p in self.purses.values())

    def reserve_glory(self) -> int:
        return COMPONENTS.glory_tokens - sum(p.glory for p in self.purses.values())

    def reserve_life(self) -> int:
        return COMPONENTS.life_tokens - sum(p.life for p in self.purses.values())

    def gain_gems(self, seat: int, count: int) -> int:
        taken = min(count, self.reserve_gems())
        self.purses[seat].gems += taken
        return taken

    def pay_gems(self, seat: int, count: int) -> int:
        paid = min(count, self.purses[seat].gems)
        self.purses[seat].gems -= paid
        return paid

    def move_gems(self, giver: int, taker: int, count: int) -> int:
        moved = self.pay_gems(giver, count)
        self.purses[taker].gems += moved
        return moved

    def gain_glory(self, seat: int, count: int = 1) -> int:
        taken = min(count, self.reserve_glory())
        self.purses[seat].glory += taken
        return taken

    def lose_glory(self, seat: int, count: int = 1) -> int:
        lost = min(count, self.purses[seat].glory)
        self.purses[seat].glory -= lost
        return lost

    def gain_life(self, seat: int) -> bool:
        if self.reserve_life() <= 0:
            return False
        self.purses[seat].life += 1
        return True

    def lose_life(self, seat: int) -> bool:
        """One Life Point back to the reserve; True when that was the seat's last."""
        purse = self.purses[seat]
        purse.life -= 1
        if purse.life > 0:
            return False
        self.heroes.discards.extend(purse.hand)
        purse.hand.clear()
        purse.gems = purse.glory = 0
        return True

    # --- Heroes -----------------------------------------------------------------------------

    def draw_hero(self, seat: int) -> str:
        if not self.heroes.cards:
            self.reshuffle_heroes()
        card = self.heroes.draw()
        self.purses[seat].hand.append(card)
        return card

    def discard_hero(self, seat: int, index: int = 0) -> str:
        card = self.purses[seat].hand.pop(index)
        self.heroes.discard(card)
        return card

    def stash_hero(self, seat: int) -> None:
        """The Bard's second power: the held card goes face down onto the set-aside card."""
        self.heroes.aside.extend(self.purses[seat].hand)
        self.purses[seat].hand.clear()

    def reshuffle_heroes(self) -> None:
        """An empty pile: every Hero nobody holds becomes the new pile ("include the set-aside
        Hero card"), and a new card is set aside."""
        self.heroes.reshuffle(self.rng, include_aside=True)
        self.heroes.set_aside()

    def bard_reshuffle(self) -> None:
        """The Bard's first power: "Shuffle all the face-down discarded Hero cards together
        with the set-aside card to form the new draw pile". The face-down discards are the
        cards the Bard's second power put onto the set-aside card; they and the set-aside card
        go into the pile, the face-up discards stay, and a new card is set aside."""
        self.heroes.cards.extend(self.heroes.aside)
        self.heroes.aside.clear()
        self.heroes.shuffle(self.rng)
        self.heroes.set_aside()

    # --- Monsters ---------------------------------------------------------------------------

    def replace_monster(self, index: int) -> str:
        """The Monster at ``index`` is discarded face up and a new one takes its place."""
        self.monsters.discard(self.in_play[index])
        if not self.monsters.cards:
            self.monsters.reshuffle(self.rng)
        self.in_play[index] = self.monsters.draw()
        return self.in_play[index]

    def strength_needed(self, monster: str) -> int:
        """The strength a Hero needs to fight ``monster``: the one read off its card, else the
        least the rulebook implies (never 0: no Bard against the Dragon)."""
        strength = self.strengths[monster]
        return MONSTERS[monster].least if strength is None else strength

    def strength_text(self, monster: str) -> str:
        strength = self.strengths[monster]
        return "?" if strength is None else str(strength)
