"""Heroes Love to Lie powers, fights and unmaskings, resolved truthfully by the companion.

A mixin of :class:`~engine.games.heroes.HeroesState`. After a claim stands, its powers run in
the printed order from ``self.todo``; a power that needs a choice (a target, a Monster, a
guess, a bet) waits in a sub-phase, and a theft waits for its target's Giant. Everything that
needs a hidden card (the Mage's look, the Wood Spirit's comparison, an unmasking) is read
from the hands here and told only as the rules tell it.
"""

from __future__ import annotations

from engine.api import Action, Buzz, Narrate, Reveal, Vibrate

from .heroes_cards import COMPONENTS, HERO_ORDER, HEROES, POWERS
from .heroes_setup import Entry, loot_entry
from .heroes_windows import GIANT, Claim

MODIFIERS = ("exorcist_bet", "wood_boost")  # change another power; no step of their own
THEFTS = ("goblin_steal", "goblin_steal_more", "elf_swap")
TARGETED = (*THEFTS, "mage_peek", "mage_glory", "giant_wound", "knight_glory",
            "wood_compare", "exorcist_unmask", "unmask")
UNMASKS = ("exorcist_unmask", "unmask")


class PowerSteps:
    """Phases ``target``, ``pick_monster``, ``guess``, ``bet`` and ``loot_gems``."""

    def _activate(self, claim: Claim, now: float) -> None:
        """Pay the announced Gems, then use the powers one by one."""
        paid = self.table.pay_gems(claim.seat, sum(POWERS[p].gem_cost for p in claim.powers))
        if paid:
            self._fx.append(Narrate(f"Seat {claim.seat} pays {paid} Gems."))
        self.announced = claim.powers
        self.todo = [p for p in claim.powers if p not in MODIFIERS]
        self._run_todo(now)

    def _run_todo(self, now: float) -> None:
        seat = self.turn_seat
        while not self.is_terminal():
            if not self.table.alive(seat):
                self._end_turn(now)
                return
            if not self.todo:
                self._finish_action(now)
                return
            step = self.todo[0]
            if step in TARGETED:
                self.phase = "target"
                return
            if step == "troll_renew" and len(self.table.in_play) > 1:
                self.phase = "pick_monster"
                return
            self.todo.pop(0)
            getattr(self, f"_use_{step}")(seat)

    def _skip_step(self, now: float) -> None:
        self.todo.pop(0)
        self._run_todo(now)

    # --- targets ----------------------------------------------------------------------------

    def _actions_target(self, seat: int) -> list[Action]:
        step = self.todo[0]
        others = [s for s in self.table.living() if s != seat]
        actions = [Action(f"target:{s}", self._target_label(step, s)) for s in others]
        if step == "unmask":
            actions.append(Action("back", "Other action", undoable=True))
        return actions

    def _target_label(self, step: str, seat: int) -> str:
        purse = self.table.purses[seat]
        if step in THEFTS:
            return f"Seat {seat} ({purse.gems} Gems)"
        if step in ("mage_glory", "knight_glory"):
            return f"Seat {seat} ({purse.glory} Glory)"
        if step == "giant_wound":
            return f"Seat {seat} ({purse.life} Life)"
        return f"Seat {seat}"

    def _do_target(self, seat: int, action_id: str, now: float) -> None:
        if action_id == "back":
            self.todo, self.phase = [], "turn"
            return
        self.target = int(action_id.split(":")[1])
        step = self.todo[0]
        if step in UNMASKS:
            self.phase, self.page = "guess", 0
        elif step in THEFTS:
            self._threaten(seat, step, now)
        else:
            self.todo.pop(0)
            getattr(self, f"_use_{step}")(seat)
            self._run_todo(now)

    # --- thefts and the Giant ---------------------------------------------------------------

    def _threaten(self, seat: int, step: str, now: float) -> None:
        target = self.target
        if step != "elf_swap" and self.table.purses[target].gems == 0:
            self._fx.append(Narrate(f"Seat {target} has no Gem to steal."))
            self._skip_step(now)
            return
        verb = "swaps Gems with" if step == "elf_swap" else "steals a Gem from"
        self._fx.append(Narrate(f"Seat {seat} {verb} Seat {target}. Giant?"))
        self._open_window(GIANT, {target}, now)

    def _theft(self, now: float) -> None:
        """Nobody cancelled: the Gems move."""
        seat, target = self.turn_seat, self.target
        step = self.todo.pop(0)
        if step == "elf_swap":
            mine, theirs = self.table.purses[seat], self.table.purses[target]
            mine.gems, theirs.gems = theirs.gems, mine.gems
            self._fx.append(Narrate(f"Seats {seat} and {target} swap their Gems."))
        else:
            moved = self.table.move_gems(target, seat, 1)
            self._fx.append(Narrate(f"Seat {seat} steals {moved} Gem from Seat {target}."))
        self._run_todo(now)

    # --- powers used at once ----------------------------------------------------------------

    def _use_bard_reshuffle(self, seat: int) -> None:
        self.table.reshuffle_heroes()
        self._fx.append(Narrate("The Hero pile is reshuffled; a new card is set aside."))

    def _use_bard_stash(self, seat: int) -> None:
        """After a wrong challenge the hand is empty: only the draw remains."""
        if self.table.hand(seat):
            self.table.stash_hero(seat)
            self._fx.append(Narrate(f"Seat {seat} puts a card face down on the set-aside card."))
        self._draw_hero(seat)

    def _use_dwarf_gems(self, seat: int) -> None:
        gained = self.table.gain_gems(seat, POWERS["dwarf_gems"].gems)
        self._fx.append(Narrate(f"Seat {seat} gains {gained} Gems."))

    def _use_dwarf_life(self, seat: int) -> None:
        self._gain_life(seat)

    def _use_elf_life(self, seat: int) -> None:
        self.table.lose_glory(seat, POWERS["elf_life"].glory_cost)
        self._fx.append(Narrate(f"Seat {seat} pays {POWERS['elf_life'].glory_cost} Glory."))
        self._gain_life(seat)

    def _gain_life(self, seat: int) -> None:
        if self.table.gain_life(seat):
            self._fx.append(Narrate(f"Seat {seat} gains a Life Point."))
        else:
            self._fx.append(Narrate("No Life Point is left in the reserve."))

    def _use_troll_renew(self, seat: int, index: int = 0) -> None:
        old = self.table.in_play[index]
        new = self.table.replace_monster(index)
        self._fx.append(Narrate(f"The {old} leaves; the {new} comes into play."))

    def _use_troll_fight(self, seat: int) -> None:
        power = POWERS["troll_fight"]
        if power.monster not in self.table.in_play:
            self._fx.append(Narrate(f"No {power.monster} to fight: the Gem is lost."))
            return
        self._collect(seat, self.table.in_play.index(power.monster), power.glory, power.gems)

    # --- powers on a target -----------------------------------------------------------------

    def _use_mage_peek(self, seat: int) -> None:
        """Only the Mage's PEEK screen will show the card, until it leaves that hand."""
        self.peeks[seat] = (self.target, self.table.hand(self.target)[0])
        told = Narrate(f"Seat {seat} looks at Seat {self.target}'s Hero.")
        self._fx += [Vibrate(seat, "long"), told]

    def _use_mage_glory(self, seat: int) -> None:
        lost = self.table.lose_glory(self.target)
        self._fx.append(Narrate(f"Seat {self.target} loses {lost} Glory."))

    def _use_giant_wound(self, seat: int) -> None:
        self._lose_life(self.target)

    def _use_knight_glory(self, seat: int) -> None:
        stolen = self.table.lose_glory(self.target)
        self.table.purses[seat].glory += stolen
        self._fx.append(Narrate(f"Seat {seat} steals {stolen} Glory from Seat {self.target}."))
        self._check_glory(seat)

    def _use_wood_compare(self, seat: int) -> None:
        """The target's truthful answer, computed: LOWER costs them a Life, HIGHER costs us."""
        bar = self.discarded_strength + ("wood_boost" in self.announced)
        lower = HEROES[self.table.hand(self.target)[0]].strength < bar
        answer = "LOWER" if lower else "HIGHER"
        self._fx += [Buzz("reveal"), Reveal(f"Seat {self.target} declares {answer} than {bar}.")]
        self._lose_life(self.target if lower else seat)

    # --- Monsters ---------------------------------------------------------------------------

    def _actions_pick_monster(self, seat: int) -> list[Action]:
        return [
            Action(f"renew:{i}", self._monster_label(i)) for i in range(len(self.table.in_play))
        ]

    def _do_pick_monster(self, seat: int, action_id: str, now: float) -> None:
        self.todo.pop(0)
        self._use_troll_renew(seat, int(action_id.split(":")[1]))
        self._run_todo(now)

    def _fight(self, seat: int, index: int, now: float) -> None:
        """COMBAT's loot; a Monster whose Gems are unknown is read off its card first."""
        monster = self.table.in_play[index]
        gems = self.table.loot[monster]
        if gems is None:
            self.monster, self.entry = index, loot_entry(monster)
            self.phase = "loot_gems"
            return
        self._collect(seat, index, 1, gems)
        if not self.is_terminal():
            self._finish_action(now)

    def _collect(self, seat: int, index: int, glory: int, gems: int) -> None:
        monster = self.table.in_play[index]
        self.table.gain_glory(seat, glory)
        self.looted = self.table.gain_gems(seat, gems)
        new = self.table.replace_monster(index)
        self._fx += [
            Narrate(f"Seat {seat} defeats the {monster}: {glory} Glory, {self.looted} Gems."),
            Narrate(f"The {new} comes into play."),
        ]
        self._check_glory(seat)

    def _actions_loot_gems(self, seat: int) -> list[Action]:
        return self.entry.actions()

    def _do_loot_gems(self, seat: int, action_id: str, now: float) -> None:
        if not self.entry.press(action_id):
            return
        self._settle(self.entry)
        self.entry = None
        self._fight(seat, self.monster, now)

    # --- unmasking --------------------------------------------------------------------------

    def _actions_guess(self, seat: int) -> list[Action]:
        back = Action("back", "Other target", undoable=True)
        return [*self._paged(list(HERO_ORDER), "guess"), back]

    def _do_guess(self, seat: int, action_id: str, now: float) -> None:
        if action_id == "page":
            self.page += 1
        elif action_id == "back":
            self.phase = "target"
        else:
            self.guess = action_id.split(":")[1]
            gems = self.table.purses[seat].gems
            if "exorcist_bet" in self.announced and gems > 0:
                self.entry = Entry("bet", "Bet Gems", 1, 1, gems, value=1, may_stay_unknown=False)
                self.phase = "bet"
            else:
                self._unmask(seat, now)

    def _actions_bet(self, seat: int) -> list[Action]:
        return self.entry.actions()

    def _do_bet(self, seat: int, action_id: str, now: float) -> None:
        if self.entry.press(action_id):
            self._unmask(seat, now)

    def _unmask(self, seat: int, now: float) -> None:
        target, guess = self.target, self.guess
        if self.todo[0] == "unmask":
            self.table.pay_gems(seat, COMPONENTS.unmask_cost)
        bet = self.entry.value if self.entry else 0
        self.entry = None
        self._fx.append(Narrate(f"Seat {seat} names the {guess} for Seat {target}."))
        if guess in self.table.hand(target):
            self._fx += [Buzz("reveal"), Reveal(f"Unmasked! Seat {target} shows the {guess}.")]
            self._settle_bet(seat, bet, right=True)
            self._discard_hero(target, self.table.hand(target).index(guess))
            self._lose_life(target)
            if self.table.alive(target):
                self._draw_hero(target)
        else:
            self._fx.append(Reveal(f"Wrong: Seat {target} is not the {guess}."))
            self._settle_bet(seat, bet, right=False)
        if not self.is_terminal():
            self._skip_step(now)

    def _settle_bet(self, seat: int, bet: int, right: bool) -> None:
        """The Exorcist's stake: doubled from the reserve if right, lost to it if wrong."""
        if not bet:
            return
        if right:
            won = self.table.gain_gems(seat, bet)
            self._fx.append(Narrate(f"Seat {seat} wins {won} Gems on the bet."))
        else:
            lost = self.table.pay_gems(seat, bet)
            self._fx.append(Narrate(f"Seat {seat} loses {lost} Gems on the bet."))
