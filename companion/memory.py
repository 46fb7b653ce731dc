"""What a table remembers between games: card values, each game's options, each seat's cues
and the table's volume.

A table enters the card values the rulebooks leave out once (docs/table-memory.md); the next
game of the same game gets them as known values (:mod:`engine.known`) and does not ask
again, and the lobby opens a game with the options the table last played it with. The file
lives in the state directory, is written whole to a temporary file and renamed over the old
one (a power cut leaves the old or the new, never half), mode 0600 like the journal. A file
that cannot be read or makes no sense is reported (:attr:`TableMemory.problem`) and ignored:
the table plays on with an empty memory and writes a good file at the next change.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.api import Game

from .atomic_file import write_atomically

log = logging.getLogger(__name__)

VERSION = 1
MAX_BYTES = 256 * 1024  # a few dozen values and options: anything bigger is not ours
LEVELS = ("high", "low", "off")
SEAT_CUES = {"vibration": ("on", "off"), "volume": LEVELS}  # name -> choices, default first
TABLE_CUES = {"table-volume": LEVELS}  # the shared buzzer and speaker: any seat sets them
CUES = SEAT_CUES | TABLE_CUES
VOLUMES = {"high": 1.0, "low": 0.2, "off": 0.0}  # what each level asks of an output


class TableMemory:
    """The table's memory; ``path`` None keeps it for this run only (tests, table scripts)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.values: dict[str, dict[str, int | None]] = {}
        self.options: dict[str, dict[str, str]] = {}
        self.seats: dict[int, dict[str, str]] = {}
        self.table: dict[str, str] = {}  # the table's own cues (TABLE_CUES)
        self.recent: list[str] = []  # game keys, the last one played first
        self.problem = ""  # why the file was ignored, for the table to be told
        if path is not None:
            self._load(path)

    # --- card values ---------------------------------------------------------------------------

    def known(self, game_key: str) -> dict[str, int | None]:
        return dict(self.values.get(game_key, {}))

    def learn(self, game_key: str, values: Mapping[str, int | None]) -> None:
        if all(self.values.get(game_key, {}).get(k, -1) == v for k, v in values.items()):
            return
        self.values.setdefault(game_key, {}).update(values)
        self._save()

    # --- options -------------------------------------------------------------------------------

    def options_for(self, game: Game) -> dict[str, str]:
        """The options the table last played ``game`` with; defaults for anything else."""
        kept = self.options.get(game.key, {})
        return {o.key: kept[o.key] if kept.get(o.key) in o.choices else o.default
                for o in game.options}

    def keep_options(self, game_key: str, options: Mapping[str, str]) -> None:
        """A game starts with ``options``: the lobby offers it first, so set next time."""
        recent = [game_key, *(key for key in self.recent if key != game_key)]
        if self.options.get(game_key) == dict(options) and self.recent == recent:
            return
        self.options[game_key], self.recent = dict(options), recent
        self._save()

    # --- cues: a seat's own, and the table's that any seat sets ---------------------------------

    def cue(self, seat: int | None, name: str) -> str:
        """A setting: the seat's own, or the table's for a TABLE_CUES name (``seat`` None)."""
        kept = self.table if name in TABLE_CUES else self.seats.get(seat or 0, {})
        value = kept.get(name)
        return value if value is not None and value in CUES[name] else CUES[name][0]

    def next_cue(self, seat: int, name: str) -> str:
        """Turn the setting (the seat's, or the table's for a TABLE_CUES name) to its next
        choice; returns the new value."""
        choices = CUES[name]
        value = choices[(choices.index(self.cue(seat, name)) + 1) % len(choices)]
        kept = self.table if name in TABLE_CUES else self.seats.setdefault(seat, {})
        kept[name] = value
        self._save()
        return value

    def volume(self, seat: int | None) -> float:
        """How loud a seat's own piezo plays; ``seat`` None: the shared buzzer and speaker."""
        return VOLUMES[self.cue(None, "table-volume") if seat is None
                       else self.cue(seat, "volume")]

    # --- the file ------------------------------------------------------------------------------

    def _load(self, path: Path) -> None:
        try:
            with path.open("rb") as file:
                raw = file.read(MAX_BYTES + 1)
        except FileNotFoundError:
            return
        except OSError as error:
            self._ignore(f"cannot read it ({error.strerror})")
            return
        if len(raw) > MAX_BYTES:
            self._ignore("it is too big")
            return
        try:
            self._read(json.loads(raw.decode("utf-8")))
        except (ValueError, TypeError, AttributeError) as error:
            self.values, self.options, self.seats, self.recent = {}, {}, {}, []
            self.table = {}
            self._ignore(f"it is damaged ({error})")

    def _read(self, data: Any) -> None:
        if not isinstance(data, dict) or data.get("version") != VERSION:
            raise ValueError(f"not a version {VERSION} table memory")
        self.values = {str(game): {str(name): _number(value) for name, value in values.items()}
                       for game, values in data.get("values", {}).items()}
        self.options = {str(game): {str(k): str(v) for k, v in options.items()}
                        for game, options in data.get("options", {}).items()}
        self.seats = {int(seat): {str(k): str(v) for k, v in cues.items()}
                      for seat, cues in data.get("seats", {}).items()}
        self.recent = [str(key) for key in data.get("recent", [])]
        self.table = {str(k): str(v) for k, v in data.get("table", {}).items()}

    def _ignore(self, why: str) -> None:
        self.problem = "Table memory damaged"
        log.warning("table memory %s ignored: %s; starting with an empty memory", self.path, why)

    def _save(self) -> None:
        if self.path is None:
            return
        data = {"version": VERSION, "recent": self.recent, "values": self.values,
                "options": self.options, "table": self.table,
                "seats": {str(seat): cues for seat, cues in sorted(self.seats.items())}}
        text = json.dumps(data, indent=2, sort_keys=True) + "\n"
        try:
            write_atomically(self.path, text)
        except OSError as error:
            log.warning("table memory %s not saved (%s)", self.path, error.strerror or error)


def _number(value: Any) -> int | None:
    if value is None or (isinstance(value, int) and not isinstance(value, bool) and value >= 0):
        return value
    raise ValueError(f"{value!r} is not a card value")
