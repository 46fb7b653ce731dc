"""The journal's hash chain: a cut or altered history is found, never replayed as if whole.

Each game has a *genesis*, the hash of everything that sets it up (game, seats, options, deck
list and the seed's commitment). Each entry stores its *link*, the hash of the link before it
(the genesis for the first) and of the entry itself, so an entry changed in place breaks its
own link and the history stops there. The game's row keeps the *seal*: the hash of the newest
link, the number of entries and the remembered moment, written in the same transaction as
the entry. A tail cut off whole (the chain alone would still verify) then disagrees with the
seal, and so does a damaged entry count or moment.

The hashes find damage (a flipped bit, a lost page, an edited row); they are not a signature
against a person who can write the file, and they need not be: that person holds the seed.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from engine.rng import commitment, deal_seed

from .record import GameRecord, JournaledAction


def _digest(kind: bytes, *parts: str | bytes) -> bytes:
    """SHA-256 over length-prefixed parts: no two different part lists hash alike."""
    hasher = hashlib.sha256(kind)
    for part in parts:
        data = part if isinstance(part, bytes) else part.encode()
        hasher.update(len(data).to_bytes(4, "big"))
        hasher.update(data)
    return hasher.digest()


def genesis(game_key: str, seats: str, options: str, commitment: str,
            deck_list: str | None, cut_in_play: bool = False) -> bytes:
    """The chain's start, from the game's row as stored (seats and options as their text).
    Whether the players cut in play decides when the game is dealt, so it is part of the
    setup (a game that does not cut in play hashes as it did before there were such games)."""
    parts = (game_key, seats, options, commitment, deck_list or "")
    return _digest(b"genesis", *parts, *(("cut in play",) if cut_in_play else ()))


def shown_commitment(seed: bytes, key: bytes) -> str:
    """The commitment the table showed at setup: to the companion's key (a game dealt from a
    key and the players' cut); a game dealt before the cut existed (migrated) stores one
    to its seed, so that damage to it is found from then on."""
    return commitment(key) if key else commitment(seed)


def seed_vouched_for(seed: object, key: object, cut: object, shown: object) -> bool:
    """The stored key gives the stored commitment and, with the cut, the stored seed: a
    flipped bit in any of them is found before the game is resumed or audited. A game whose
    players cut in play has neither cut nor seed until they all have (the record checks
    that its entries agree: ``GameRecord.cut_agrees``)."""
    if not isinstance(seed, bytes) or not isinstance(key, bytes) or not isinstance(cut, str):
        return False
    if not key:
        return commitment(seed) == shown
    if not cut and not seed:
        return commitment(key) == shown
    try:
        return commitment(key) == shown and deal_seed(key, cut) == seed
    except UnicodeEncodeError:  # a damaged cut text
        return False


def link(previous: bytes, index: int, entry: JournaledAction) -> bytes:
    return _digest(b"entry", previous, str(index), str(entry.seat), entry.action,
                   repr(float(entry.at)), str(int(entry.undoable)), entry.label)


def seal(head: bytes, length: int, seen: float | None, finished: bool = False) -> bytes:
    """The game row's check: the newest link (the genesis when there is none), the count,
    the remembered moment and whether the game is over: an open game whose ``finished``
    column was damaged is told from a finished one (an open game's seal is as before)."""
    return _digest(b"seal-finished" if finished else b"seal", head, str(length), repr(seen))


DIGEST_DIGITS = 16  # 64 bits: no history is found to fit a noted digest by trying


def setup_text(record: GameRecord) -> tuple[str, str, str | None]:
    """The game's seats, options and deck list as its journal row stores them."""
    deck_list = None if record.deck_list is None else json.dumps(record.deck_list)
    return ",".join(map(str, record.seats)), json.dumps(record.options, sort_keys=True), \
        deck_list


def record_genesis(record: GameRecord) -> bytes:
    """The chain's start for ``record``, as its journal row gives it."""
    seats, options, deck_list = setup_text(record)
    return genesis(record.game_key, seats, options,
                   shown_commitment(record.seed, record.key), deck_list, record.cut_in_play)


def history_digest(record: GameRecord) -> str:
    """The short digest of a game's whole history shown beside the key at its end: the
    newest link of its chain (setup, commitment and every action), as the journal stores
    it, so a history edited afterwards, even with its chain made again, no longer gives
    the digest the players noted."""
    return Chain().follow(record)


class Chain:
    """A game's chain kept as its history grows: asked after each action, the digest costs
    one link then, and the press that ends the game, whose screens every seat waits for,
    has none left to make (made at once it was one link an entry on that press)."""

    def __init__(self) -> None:
        self._setup: tuple[bytes, bytes] | None = None  # the key and seed the start is of
        self._linked: list[JournaledAction] = []
        self._heads: list[bytes] = []  # the start, then the link after each entry linked

    def follow(self, record: GameRecord) -> str:
        """:func:`history_digest` of ``record``, linking only what is new since the last
        call: entries from one no longer in the history (undone, cut) are linked again."""
        if (record.key, record.seed) != self._setup:
            self._setup = (record.key, record.seed)
            self._linked, self._heads = [], [record_genesis(record)]
        entries = record.entries
        kept = len(self._linked)
        if kept > len(entries) or (kept and entries[kept - 1] is not self._linked[-1]):
            pairs = enumerate(zip(entries, self._linked, strict=False))
            kept = next((index for index, (entry, linked) in pairs if entry is not linked),
                        min(kept, len(entries)))
            del self._linked[kept:], self._heads[kept + 1:]
        for index in range(kept, len(entries)):
            self._heads.append(link(self._heads[-1], index, entries[index]))
            self._linked.append(entries[index])
        return self._heads[-1].hex()[:DIGEST_DIGITS]


@dataclass(frozen=True)
class Verdict:
    """What the chain says about one game's stored history.

    ``kept``: how many entries, from the first, are whole. ``lost``: entries known to have
    existed beyond them (altered, or cut off). ``setup_damaged``: the game's row or its
    first entry is wrong: the game cannot be trusted. ``moment_damaged``: only the
    remembered moment (or the count) is wrong: resume at the last action instead.
    """

    kept: int
    lost: int = 0
    setup_damaged: bool = False
    moment_damaged: bool = False


Row = tuple[int, JournaledAction, bytes | None]  # index, entry, its stored link


def stored_rows(db: sqlite3.Connection, game: int) -> list[Row]:
    """The game's entries in order, up to the first row that is not an entry at all."""
    rows = []
    for index, seat, action, at, undoable, label, stored in db.execute(
        "SELECT idx, seat, action, at, undoable, label, link FROM entries WHERE game = ? "
        "ORDER BY idx", (game,)
    ):
        try:
            entry = JournaledAction(seat, str(action), float(at), bool(undoable), str(label))
        except (TypeError, ValueError):
            break  # a damaged row: the chain ends before it
        rows.append((index, entry, stored))
    return rows


def verify(start: bytes, rows: Sequence[Row], length: int | None, seen: float | None,
           stored_seal: bytes | None, finished: bool = False) -> Verdict:
    """Check ``rows`` (index, entry, stored link; in index order) against ``start``.

    A first entry that does not link to the genesis cannot tell a damaged first action from
    a damaged setup (options, deck list): the game is then given up, never resumed as a
    possibly different game.
    """
    head, kept = start, 0
    for index, entry, stored in rows:
        if index != kept or stored != link(head, index, entry):
            break
        head, kept = stored, kept + 1
    if kept == len(rows) and stored_seal == seal(head, kept, seen, finished):
        return Verdict(kept)
    known = max(len(rows), length if isinstance(length, int) else 0)
    if kept == 0 and (rows or known == 0):
        return Verdict(0, setup_damaged=True)
    if known > kept:
        return Verdict(kept, lost=known - kept)
    return Verdict(kept, moment_damaged=True)
