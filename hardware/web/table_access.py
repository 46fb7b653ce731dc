"""Who may change the table from its page: someone who read the code shown at the table.

A code is six digits drawn at random, shown on the table's seats on request and nowhere
else (never in a log line or a response). It opens one session, once, within CODE_LIFE
seconds; GUESSES wrong guesses void it, and a new one can be asked for only CODE_EVERY
seconds after the last, so a stranger on the Wi-Fi gets GUESSES guesses in a million per
code, each code asked for shows up on every seat, and the players see someone trying. A guess
is compared in constant time. A session is a random cookie (HttpOnly, SameSite=Strict) with
its own CSRF token, which every change must send back in a header: another site's page can
neither read it nor send it. Time is the table's injected clock, so tests step it.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass

CODE_DIGITS = 6
CODE_LIFE = 180.0  # seconds a code shown at the table can be typed in
CODE_EVERY = 30.0  # seconds between two codes asked for
GUESSES = 3  # wrong guesses before a code is void
SESSION_LIFE = 30 * 60.0  # seconds a session may change the table, from its code
MAX_SESSIONS = 4  # the oldest gives way: a table has one or two people setting it up

Clock = Callable[[], float]


@dataclass
class _Code:
    digits: str
    until: float
    guesses: int = GUESSES


@dataclass(frozen=True)
class Session:
    token: str  # the cookie
    csrf: str  # sent back in a header with every change
    until: float


class Access:
    """The code shown at the table, and the sessions it opened."""

    def __init__(self, clock: Clock, draw: Callable[[int], int] = secrets.randbelow) -> None:
        self._clock = clock
        self._draw = draw
        self._code: _Code | None = None
        self._asked: float | None = None
        self._sessions: dict[str, Session] = {}

    def new_code(self) -> str | None:
        """A fresh code to show at the table (the old one is void); None: asked too soon."""
        now = self._clock()
        if self._asked is not None and now < self._asked + CODE_EVERY:
            return None
        self._asked = now
        digits = f"{self._draw(10 ** CODE_DIGITS):0{CODE_DIGITS}d}"
        self._code = _Code(digits, now + CODE_LIFE)
        return digits

    def unlock(self, guess: str) -> Session | None:
        """A session for the code shown at the table (used up), else None."""
        now, code = self._clock(), self._code
        if code is None or now >= code.until:
            return None
        if not hmac.compare_digest(guess.encode(), code.digits.encode()):
            code.guesses -= 1
            if code.guesses <= 0:
                self._code = None
            return None
        self._code = None
        session = Session(secrets.token_urlsafe(32), secrets.token_urlsafe(32),
                          now + SESSION_LIFE)
        self._sessions[session.token] = session
        while len(self._sessions) > MAX_SESSIONS:
            del self._sessions[next(iter(self._sessions))]
        return session

    def session(self, token: str | None) -> Session | None:
        """The live session of the cookie ``token``, if any."""
        found = self._sessions.get(token or "")
        if found is None:
            return None
        if self._clock() >= found.until:
            del self._sessions[found.token]
            return None
        return found

    def allows(self, token: str | None, csrf: str | None) -> bool:
        """A change sent with a live session's cookie and its CSRF token."""
        found = self.session(token)
        return found is not None and hmac.compare_digest((csrf or "").encode(),
                                                         found.csrf.encode())
