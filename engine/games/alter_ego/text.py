"""Alter Ego's words: the turn's screen titles, the fixed notes, and the phrases shared by
the buttons, the screens and the secrecy check."""

from __future__ import annotations

from collections.abc import Sequence

from engine.text import fit

# The title the seat on turn sees over each step of its turn.
STEP_TITLES = {
    "display": "Your display?",
    "income": "1 Income",
    "patrol": "2 Patrol",
    "hostages": "Hostages taken",
    "cops": "Call the Cops?",
    "cops_pick": "Cops remove which?",
    "support": "3 Support",
    "equip": "4 Equip",
    "fight": "5 Crime-fighting",
    "rescue_pick": "Rescue from?",
    "rescue_civ": "Rescue which CIV?",
    "trophy": "Defeated! Trophies?",
    "arrive": "Arch Villain in?",
    "nemesis": "Nemesis beaten?",
    "recoup": "6 Recoup",
}

# What the other seats see of the turn: the rulebook phase a step belongs to.
PHASE_OF_STEP = {
    "display": "1 Income",
    "income": "1 Income",
    "patrol": "2 Patrol",
    "hostages": "Hostages",
    "cops": "2 Patrol",
    "cops_pick": "2 Patrol",
    "support": "3 Support",
    "equip": "4 Equip",
    "fight": "5 Fight",
    "rescue_pick": "5 Fight",
    "rescue_civ": "5 Fight",
    "trophy": "5 Fight",
    "arrive": "5 Fight",
    "nemesis": "5 Fight",
    "recoup": "6 Recoup",
}

# The steps whose screen is only a reminder of what the rulebook asks.
STEP_NOTES = {
    "cops": ("3+ Community icons", "and a Community card:", "remove a henchman"),
    "trophy": ("Keep it. Add its $,", "Community and Family", "icons as Trophies"),
    "arrive": ("Place AV tokens for", "its icons; a full AV", "card comes into play"),
    "nemesis": ("You defeated your", "Nemesis? The table", "will know"),
    "recoup": ("Discard display; play", "4 (+Display icons)", "+1 card; draw 4+"),
}


# What each step expects, from the Alter Ego rules, after the Nemesis on the PEEK face:
# public words, the same for every Nemesis. The seat on turn gets its step; the others what
# the turn is at (and, while it fights, that it may ask for their help).
STEP_HELP = {
    "prepare": ("Shuffle your 12 Alter", "Ego cards: display 4", "face up, hand of 4"),
    "piles": ("Pick 1 Arch Villain", "of each type"),
    "picks": ("Pick 1 Arch Villain", "of each type"),
    "supply": ("Sort CIV tokens by", "type into pools"),
    "deal_nemeses": ("1 Nemesis each: keep", "it hidden from all"),
    "display": ("1 Income: $1 a Job", "card (+$ Trophies)"),
    "income": ("1 Income: $1 a Job", "card (+$ Trophies)"),
    "patrol": ("2 Patrol: draw 1 +1 a", "Community; keep 1"),
    "hostages": ("The henchman takes", "CIV hostages as shown"),
    "cops": ("Cops: 3+ Community", "icons and a card"),
    "cops_pick": ("Cops: 1 henchman in", "play leaves the game"),
    "support": ("3 Support: draw 2 a", "Family card (+Trophy)"),
    "equip": ("4 Equip: spend $ on", "Equipment cards"),
    "fight": ("5 Fight: spend Hero", "cards to free CIVs"),
    "rescue_pick": ("5 Fight: spend Hero", "cards to free CIVs"),
    "rescue_civ": ("5 Fight: spend Hero", "cards to free CIVs"),
    "trophy": ("Defeated: keep it,", "gain its Trophy"),
    "arrive": ("AV tokens: a full AV", "card comes into play"),
    "nemesis": ("Beaten your Nemesis?", "The table will know"),
    "recoup": ("6 Recoup: discard, 4", "to display, draw 4"),
}
HELP_ASKED = ("They may ask help:", "1 Teamwork token for", "a Hero you display")
FIGHT_STEPS = frozenset({"fight", "rescue_pick", "rescue_civ"})


def nemesis_phrase(seat: int, row: int) -> str:
    """The one way a seat's Nemesis is named, so the secrecy suite can look for it."""
    return f"Seat {seat} Nemesis #{row}"


def counts_text(counts: Sequence[int]) -> str:
    return "/".join(str(count) for count in counts)


def holds(key: str, counts: Sequence[int]) -> str:
    """A villain and its hostages by CIV type: a button's label, and a line once fitted."""
    return f"{key} holds {counts_text(counts)}"


def income_line(jobs: int, money_trophies: int) -> str:
    if not jobs:
        return "No Job card: no $"
    return fit(f"{jobs} Job + {money_trophies} $ trophies",
               f"{jobs} Job, {money_trophies} $ trophies")
