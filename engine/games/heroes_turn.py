"""Heroes Love to Lie turns: the three actions, the claim, and the challenge that may follow.

A mixin of :class:`~engine.games.heroes.HeroesState`. A claim is entered in sub-phases (the
Hero, then its powers, or the Monster and then the Hero) and opens a window in which every
other living seat may challenge at once; the first Challenge press takes the risk. What a seat
may claim is computed from public facts only (Gems, Glory, the Monsters in play), never from
the card it holds: lying is the game.
"""

from __future__ import annotations

from engine.api import Action, Buzz, Narrate, Reveal

from .heroes_cards import (
    COMPONENTS,
    HERO_ORDER,
    HEROES,
    POWERS,
    VARIABLE_COST,
    Power,
    combo_id,
    combo_label,
)
from .heroes_windows import CHALLENGE, GIANT, KNIGHTS, Claim, Window

STRONGEST = max(hero.strength for hero in HEROES.values())
PAGE = 5  # Heroes per page when a list would not fit the eight-action limit


class TurnPhases:
    """Phases turn, discard, claim_hero, claim_powers, fight_monster and window."""

    # --- choosing the action ----------------------------------------------------------------

    def _fightable(self) -> list[int]:
        """Monsters some Hero is strong enough for (an unknown strength never rules one out)."""
        strengths = [self.table.strengths[name] for name in self.table.in_play]
        return [i for i, s in enumerate(strengths) if s is None or s <= STRONGEST]

    def _actions_turn(self, seat: int) -> list[Action]:
        actions = [Action("power", "POWER")]
        if self._fightable():
            actions.append(Action("combat", "COMBAT"))
        if self.table.purses[seat].gems >= COMPONENTS.unmask_cost:
            actions.append(Action("unmask", f"UNMASK ({COMPONENTS.unmask_cost} Gems)"))
        return actions

    def _do_turn(self, seat: int, action_id: str, now: float) -> None:
        self.mode, self.page = action_id, 0
        if action_id == "power":
            self._fx.append(Narrate(f"Seat {seat} takes POWER."))
            self._draw_hero(seat)
            self.phase = "discard"
        elif action_id == "combat":
            fightable = self._fightable()
            self.monster = fightable[0] if len(fightable) == 1 else None
            self.phase = "claim_hero" if len(fightable) == 1 else "fight_monster"
        else:
            self.todo = ["unmask"]
            self.phase = "target"

    def _actions_discard(self, seat: int) -> list[Action]:
        return [Action("discard:1", "Discard new Hero"), Action("discard:0", "Discard old Hero")]

    def _do_discard(self, seat: int, action_id: str, now: float) -> None:
        card = self._discard_hero(seat, int(action_id.split(":")[1]))
        self.discarded_strength = HEROES[card].strength
        self._fx += [Buzz("reveal"), Reveal(f"Seat {seat} discards the {HEROES[card].label}.")]
        self.phase = "claim_hero"

    def _actions_fight_monster(self, seat: int) -> list[Action]:
        actions = [
            Action(f"fight:{i}", self._monster_label(i), undoable=True) for i in self._fightable()
        ]
        return [*actions, Action("back", "Other action", undoable=True)]

    def _do_fight_monster(self, seat: int, action_id: str, now: float) -> None:
        if action_id == "back":
            self.phase = "turn"
            return
        self.monster = int(action_id.split(":")[1])
        self.phase, self.page = "claim_hero", 0

    def _monster_label(self, index: int) -> str:
        name = self.table.in_play[index]
        return f"{name} ({self.table.strength_text(name)})"

    # --- the claim --------------------------------------------------------------------------

    def _claimable(self, seat: int) -> list[str]:
        if self.mode == "combat":
            needed = self.table.strengths[self.table.in_play[self.monster]]
            return [h for h in HERO_ORDER if needed is None or HEROES[h].strength >= needed]
        return [h for h in HERO_ORDER if self._combos(seat, h)]

    def _combos(self, seat: int, hero: str) -> list[tuple[Power, ...]]:
        return [c for c in HEROES[hero].combos() if self._affordable(seat, c)]

    def _affordable(self, seat: int, combo: tuple[Power, ...]) -> bool:
        """Costs are checked before any power helps ("6 Gems without the first power")."""
        purse = self.table.purses[seat]
        gems = sum(p.gem_cost for p in combo)
        gems += any(p.cost == VARIABLE_COST for p in combo)
        gems = max([gems, *(p.min_gems for p in combo)])
        return purse.gems >= gems and purse.glory >= sum(p.glory_cost for p in combo)

    def _paged(self, names: list[str], prefix: str) -> list[Action]:
        """Hero choices, five to a page with "More Heroes" when all would not fit."""
        if len(names) <= PAGE + 2:
            return [Action(f"{prefix}:{n}", HEROES[n].label) for n in names]
        pages = [names[i: i + PAGE] for i in range(0, len(names), PAGE)]
        shown = pages[self.page % len(pages)]
        more = Action("page", "More Heroes...", undoable=True)
        return [*(Action(f"{prefix}:{n}", HEROES[n].label) for n in shown), more]

    def _actions_claim_hero(self, seat: int) -> list[Action]:
        actions = self._paged(self._claimable(seat), "claim")
        if self.mode == "combat":
            actions.append(Action("back", "Other action", undoable=True))
        return actions

    def _do_claim_hero(self, seat: int, action_id: str, now: float) -> None:
        if action_id == "page":
            self.page += 1
        elif action_id == "back":
            self.phase = "turn"
        elif self.mode == "combat":
            hero = action_id.split(":")[1]
            self._open_claim(Claim(seat, hero, "combat", monster=self.monster), now)
        else:
            self.claimed = action_id.split(":")[1]
            self.phase = "claim_powers"

    def _actions_claim_powers(self, seat: int) -> list[Action]:
        actions = [
            Action(f"use:{combo_id(c)}", combo_label(c)) for c in self._combos(seat, self.claimed)
        ]
        return [*actions, Action("back", "Other Hero", undoable=True)]

    def _do_claim_powers(self, seat: int, action_id: str, now: float) -> None:
        if action_id == "back":
            self.phase = "claim_hero"
            return
        powers = tuple(action_id.split(":")[1].split("+"))
        self._open_claim(Claim(seat, self.claimed, "power", powers=powers), now)

    # --- windows ----------------------------------------------------------------------------

    def _open_window(self, kind: str, waiting: set[int], now: float, **extra) -> None:
        self.window = Window(kind, waiting, self.window_length, now, **extra)
        self.phase = "window"

    def _open_claim(self, claim: Claim, now: float) -> None:
        others = {s for s in self.table.living() if s != claim.seat}
        self._open_window(CHALLENGE, others, now, claim=claim)
        self._fx += [Buzz("tick"), Narrate(f"{self._claim_speech(claim)} Any challenge?")]

    def _claim_speech(self, claim: Claim) -> str:
        said = f"Seat {claim.seat}: I am the {claim.hero}"
        if claim.kind == "power":
            return f"{said}: {' and '.join(POWERS[p].label for p in claim.powers)}."
        if claim.kind == "combat":
            return f"{said} and I fight the {self.table.in_play[claim.monster]}."
        if claim.kind == "giant":
            return f"{said} and I cancel that."
        return f"{said} and I copy {claim.gems} Gems."

    def _actions_window(self, seat: int) -> list[Action]:
        kind = self.window.kind
        if kind == CHALLENGE:
            return [Action("challenge", "Challenge!"), Action("pass", "Let it pass")]
        if kind == GIANT:
            return [Action("allow", "Let it happen"), Action("giant", "I am the Giant")]
        return [Action("pass", "Pass"), Action("knight", "I am the Knight")]

    def _do_window(self, seat: int, action_id: str, now: float) -> None:
        window = self.window
        if action_id == "challenge":
            self.window = None
            self._challenged(window.claim, seat, now)
        elif action_id == "giant":
            self.window = None
            self._open_claim(Claim(seat, "Giant", "giant"), now)
        else:
            if action_id == "knight":
                window.knights.append(seat)
            if window.answer(seat):
                self._close_window(now)

    def _close_window(self, now: float) -> None:
        """Everyone answered or time ran out: silence lets the claim or the theft stand."""
        window, self.window = self.window, None
        if window.kind == CHALLENGE:
            self._fx.append(Narrate("No challenge."))
            self._unchallenged(window.claim, now)
        elif window.kind == GIANT:
            self._theft(now)
        else:
            order = self.ring.clockwise_from(self.turn_seat)
            self.knights = sorted(window.knights, key=order.index)
            self._next_knight(now)

    # --- resolving a claim ------------------------------------------------------------------

    def _challenged(self, claim: Claim, challenger: int, now: float) -> None:
        self._fx.append(Narrate(f"Seat {challenger} challenges Seat {claim.seat}!"))
        if claim.hero in self.table.hand(claim.seat):
            self._truth_challenged(claim, challenger, now)
        else:
            self._lie_caught(claim, challenger, now)

    def _lie_caught(self, claim: Claim, challenger: int, now: float) -> None:
        """The liar keeps the card secret, pays the announced costs and loses a Life Point."""
        seat = claim.seat
        self._fx += [Buzz("alarm"), Reveal(f"Seat {seat} is not the {claim.hero}!")]
        powers = [POWERS[p] for p in claim.powers]
        gems = self.table.pay_gems(seat, sum(p.gem_cost for p in powers))
        glory = self.table.lose_glory(seat, sum(p.glory_cost for p in powers))
        if gems or glory:
            self._fx.append(Narrate(f"Seat {seat} pays {gems} Gems and {glory} Glory."))
        self._lose_life(seat)
        if self.is_terminal():
            return
        if claim.kind == "giant":
            self._theft(now)
        elif claim.kind == "knight":
            self._next_knight(now)
        else:
            self._end_turn(now)

    def _truth_challenged(self, claim: Claim, challenger: int, now: float) -> None:
        """The card is shown and discarded, the challenger pays, and the claim goes on."""
        seat = claim.seat
        self._fx += [Buzz("reveal"), Reveal(f"Seat {seat} shows the {claim.hero}: true!")]
        self._discard_hero(seat, self.table.hand(seat).index(claim.hero))
        self._lose_life(challenger)
        if self.is_terminal():
            return
        if claim.kind in ("giant", "knight"):
            self._draw_hero(seat)
        self._unchallenged(claim, now)

    def _unchallenged(self, claim: Claim, now: float) -> None:
        if claim.kind == "giant":
            self._fx.append(Narrate(f"The Giant of Seat {claim.seat} cancels it."))
            self._skip_step(now)
        elif claim.kind == "knight":
            copied = self.table.gain_gems(claim.seat, claim.gems)
            self._fx.append(Narrate(f"Seat {claim.seat} copies {copied} Gems."))
            self._next_knight(now)
        elif claim.kind == "combat":
            self._fight(claim.seat, claim.monster, now)
        else:
            self._activate(claim, now)

    # --- the end of an action ---------------------------------------------------------------

    def _finish_action(self, now: float) -> None:
        """A Hero shown to a wrong challenge is replaced now; then the Knights may speak."""
        seat = self.turn_seat
        if not self.table.hand(seat):
            self._draw_hero(seat)
        if self.looted:
            others = {s for s in self.table.living() if s != seat}
            self._open_window(KNIGHTS, others, now)
            self._fx.append(Narrate(f"Seat {seat} gained {self.looted} Gems. Any Knight?"))
            return
        self._end_turn(now)

    def _next_knight(self, now: float) -> None:
        while self.knights:
            knight = self.knights.pop(0)
            if self.table.alive(knight):
                self._open_claim(Claim(knight, "Knight", "knight", gems=self.looted), now)
                return
        self._end_turn(now)

    def _end_turn(self, now: float) -> None:
        self._reset_turn()
        self.turn_seat = self.ring.left_of(self.turn_seat, gone=self.table.dead())
        self.phase = "turn"
        self._fx += [Buzz("turn"), Narrate(f"Seat {self.turn_seat}'s turn.")]
