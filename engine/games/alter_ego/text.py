"""Alter Ego's words: the turn's screen titles, the fixed notes, and the phrases shared by
the buttons, the screens and the secrecy check."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from engine.text import fit


class Step(StrEnum):
    """Each step of setup and of a turn: a phase, or a menu the seat on turn opens within one
    (the lists of villains, the CIV to free, "Nemesis beaten?")."""

    PREPARE = "prepare"
    PILES = "piles"
    PICKS = "picks"
    SUPPLY = "supply"
    DEAL_NEMESES = "deal_nemeses"
    DISPLAY = "display"
    INCOME = "income"
    PATROL = "patrol"
    HOSTAGES = "hostages"
    COPS = "cops"
    COPS_PICK = "cops_pick"
    SUPPORT = "support"
    EQUIP = "equip"
    FIGHT = "fight"
    RESCUE_PICK = "rescue_pick"
    RESCUE_CIV = "rescue_civ"
    TROPHY = "trophy"
    ARRIVE = "arrive"
    NEMESIS = "nemesis"
    RECOUP = "recoup"


# The title the seat on turn sees over each step of its turn.
STEP_TITLES: dict[str, str] = {
    Step.DISPLAY: "Your display?",
    Step.INCOME: "1 Income",
    Step.PATROL: "2 Patrol",
    Step.HOSTAGES: "Hostages taken",
    Step.COPS: "Call the Cops?",
    Step.COPS_PICK: "Cops remove which?",
    Step.SUPPORT: "3 Support",
    Step.EQUIP: "4 Equip",
    Step.FIGHT: "5 Crime-fighting",
    Step.RESCUE_PICK: "Rescue from?",
    Step.RESCUE_CIV: "Rescue which CIV?",
    Step.TROPHY: "Defeated! Trophies?",
    Step.ARRIVE: "Arch Villain in?",
    Step.NEMESIS: "Nemesis beaten?",
    Step.RECOUP: "6 Recoup",
}

# What the other seats see of the turn: the rulebook phase a step belongs to.
PHASE_OF_STEP: dict[str, str] = {
    Step.DISPLAY: "1 Income",
    Step.INCOME: "1 Income",
    Step.PATROL: "2 Patrol",
    Step.HOSTAGES: "Hostages",
    Step.COPS: "2 Patrol",
    Step.COPS_PICK: "2 Patrol",
    Step.SUPPORT: "3 Support",
    Step.EQUIP: "4 Equip",
    Step.FIGHT: "5 Fight",
    Step.RESCUE_PICK: "5 Fight",
    Step.RESCUE_CIV: "5 Fight",
    Step.TROPHY: "5 Fight",
    Step.ARRIVE: "5 Fight",
    Step.NEMESIS: "5 Fight",
    Step.RECOUP: "6 Recoup",
}

# The steps whose screen is only a reminder of what the rulebook asks.
STEP_NOTES: dict[str, tuple[str, ...]] = {
    Step.COPS: ("3+ Community icons", "and a Community card:", "remove a henchman"),
    Step.TROPHY: ("Keep it. Add its $,", "Community and Family", "icons as Trophies"),
    Step.ARRIVE: ("Place AV tokens for", "its icons; a full AV", "card comes into play"),
    Step.NEMESIS: ("You defeated your", "Nemesis? The table", "will know"),
    Step.RECOUP: ("Discard display; play", "4 (+Display icons)", "+1 card; draw 4+"),
}


# What each step expects, from the Alter Ego rules, after the Nemesis on the PEEK face:
# public words, the same for every Nemesis. The seat on turn gets its step; the others what
# the turn is at (and, while it fights, that it may ask for their help).
STEP_HELP: dict[str, tuple[str, ...]] = {
    Step.PREPARE: ("Shuffle your 12 Alter", "Ego cards: display 4", "face up, hand of 4"),
    Step.PILES: ("Pick 1 Arch Villain", "of each type"),
    Step.PICKS: ("Pick 1 Arch Villain", "of each type"),
    Step.SUPPLY: ("Sort CIV tokens by", "type into pools"),
    Step.DEAL_NEMESES: ("1 Nemesis each: keep", "it hidden from all"),
    Step.DISPLAY: ("1 Income: $1 a Job", "card (+$ Trophies)"),
    Step.INCOME: ("1 Income: $1 a Job", "card (+$ Trophies)"),
    Step.PATROL: ("2 Patrol: draw 1 +1 a", "Community; keep 1"),
    Step.HOSTAGES: ("The henchman takes", "CIV hostages as shown"),
    Step.COPS: ("Cops: 3+ Community", "icons and a card"),
    Step.COPS_PICK: ("Cops: 1 henchman in", "play leaves the game"),
    Step.SUPPORT: ("3 Support: draw 2 a", "Family card (+Trophy)"),
    Step.EQUIP: ("4 Equip: spend $ on", "Equipment cards"),
    Step.FIGHT: ("5 Fight: spend Hero", "cards to free CIVs"),
    Step.RESCUE_PICK: ("5 Fight: spend Hero", "cards to free CIVs"),
    Step.RESCUE_CIV: ("5 Fight: spend Hero", "cards to free CIVs"),
    Step.TROPHY: ("Defeated: keep it,", "gain its Trophy"),
    Step.ARRIVE: ("AV tokens: a full AV", "card comes into play"),
    Step.NEMESIS: ("Beaten your Nemesis?", "The table will know"),
    Step.RECOUP: ("6 Recoup: discard, 4", "to display, draw 4"),
}
HELP_ASKED = ("They may ask help:", "1 Teamwork token for", "a Hero you display")
FIGHT_STEPS = frozenset({Step.FIGHT, Step.RESCUE_PICK, Step.RESCUE_CIV})


def nemesis_phrase(seat: int, row: int) -> str:
    """The one way a seat's Nemesis is named, so the secrecy suite can look for it."""
    return f"Seat {seat} Nemesis #{row}"


def counts_text(counts: Sequence[int | None]) -> str:
    """Counts by CIV type, "?" for a pool left uncounted."""
    return "/".join("?" if count is None else str(count) for count in counts)


def holds(key: str, counts: Sequence[int]) -> str:
    """A villain and its hostages by CIV type: a button's label, and a line once fitted."""
    return f"{key} holds {counts_text(counts)}"


def income_line(jobs: int, money_trophies: int) -> str:
    if not jobs:
        return "No Job card: no $"
    return fit(f"{jobs} Job + {money_trophies} $ trophies",
               f"{jobs} Job, {money_trophies} $ trophies")
