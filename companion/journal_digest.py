"""Tags and digests: what the journal's ack stream says about an entry or a state without
saying the entry or the state.

The crash tests and the fault bench read the stream to know which actions were acknowledged
and whether a resumed game is the one that was played; ``companion audit`` compares two
replays with :func:`state_digest`. Each is keyed by the game's seed, so the stream never
carries the seed or an action in the clear.
"""

from __future__ import annotations

import enum
import hashlib
import hmac

from engine.api import State

from .record import JournaledAction


def entry_tag(seed: bytes, index: int, entry: JournaledAction) -> str:
    """A short tag of one entry, keyed by the game's seed: equal entries, equal tags."""
    text = f"{index}|{entry.seat}|{entry.action}|{entry.at!r}|{entry.undoable}|{entry.label}"
    return hmac.new(seed, text.encode(), hashlib.sha256).hexdigest()[:16]


def state_digest(state: State) -> str:
    """A hash of everything a state holds (decks, secrets, health, turn, the generator's
    position): two states with one digest are the same game. Keyed by the seed (none yet
    while its players cut in play: nothing secret is dealt then)."""
    text = _canonical(state, set())
    return hmac.new(state.seed or b"", text.encode(), hashlib.sha256).hexdigest()[:32]


def _canonical(value: object, path: set[int]) -> str:
    """A text for ``value`` that depends on neither memory addresses nor hash randomisation.

    ``path`` holds the objects being expanded above this one, so a cycle ends in "<cycle>"
    while an object shared by two parts is written out in both.
    """
    if value is None or isinstance(value, str | int | float | bytes | enum.Enum):
        return repr(value)
    if id(value) in path:
        return "<cycle>"
    path.add(id(value))
    try:
        return _container(value, path)
    finally:
        path.discard(id(value))


def _container(value: object, path: set[int]) -> str:
    if isinstance(value, dict):
        return _mapping(value, path)
    if isinstance(value, set | frozenset):
        return "{" + ",".join(sorted(_canonical(v, path) for v in value)) + "}"
    if isinstance(value, list | tuple):
        return "[" + ",".join(_canonical(v, path) for v in value) + "]"
    fields = getattr(value, "__dict__", None)
    if fields is None:
        fields = {name: getattr(value, name, None) for name in getattr(value, "__slots__", ())}
    return type(value).__qualname__ + _mapping(fields, path)


def _mapping(items: dict, path: set[int]) -> str:
    pairs = sorted(f"{_canonical(k, path)}:{_canonical(v, path)}" for k, v in items.items())
    return "{" + ",".join(pairs) + "}"
