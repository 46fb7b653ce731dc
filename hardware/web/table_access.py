"""Who may change the table from its page: someone who read the code shown at the table.

A code is six digits drawn at random, asked for on a seat's menu and shown on that seat and
the table's own public screen, nowhere else (never in a log line, a response or the browser
public page). It opens one session, once, within CODE_LIFE seconds; GUESSES wrong guesses
void it, and each code asked for voids the one before, so a stranger on the Wi-Fi gets
GUESSES guesses in a million per code someone at the table asked for, and cannot ask for one.
A guess is compared in constant time. A session is a random cookie (HttpOnly, SameSite=Strict) with
its own CSRF token, which every change must send back in a header: another site's page can
neither read it nor send it. Time is the table's injected clock, so tests step it. A code is
drawn on the table's loop and guessed on the server's: a lock keeps the two apart.
"""

from __future__ import annotations

import hmac
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass

CODE_DIGITS = 6
CODE_LIFE = 180.0  # seconds a code shown at the table can be typed in
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
        self._lock = threading.Lock()
        self._code: _Code | None = None
        self._sessions: dict[str, Session] = {}

    def new_code(self) -> str:
        """A fresh code to show at the table (the one before is void)."""
        digits = f"{self._draw(10 ** CODE_DIGITS):0{CODE_DIGITS}d}"
        with self._lock:
            self._code = _Code(digits, self._clock() + CODE_LIFE)
        return digits

    def unlock(self, guess: str) -> Session | None:
        """A session for the code shown at the table (used up), else None."""
        with self._lock:
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
