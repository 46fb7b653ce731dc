"""One seat's side of the conversation: its highlight, its peek, its notices.

The highlight follows an action *id*, so when another seat's action changes this seat's list
the highlight stays on its action wherever that moved. When its action is gone, the highlight
never lands on another one silently: the next ACT only says "Choices changed" and the next
PEEK starts again from the first (most urgent) action, where the highlight also falls back
after every action and after a few idle seconds.
An action marked ``repeat`` (+1, -1, an option's value) keeps the highlight, so ACT can be
pressed again; one marked ``confirm`` needs a second ACT within a few seconds.

Notices (narration, refusals) take the title bar for a moment. A long one is shown in pages
that fit the 21-character line, and notices that arrive together are shown one after the
other, so a death announced just before the next wave is not wiped out by it. When too many
wait, whole routine notices give way, oldest first; a reveal the rules call for never does.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from engine.api import Action
from engine.text import LINE, screen_lines

IDLE_RESET = 8.0
NOTICE_PAGE = 1.5  # seconds per 21-character page of a notice
MAX_NOTICE_PAGES = 6  # waiting pages beyond this drop routine notices: stale news misleads
CONFIRM_TIME = 3.0
MAX_PEEK = 10.0
PEEK_PAGE = 2.5  # seconds per page of a PEEK face; the pages turn on this beat for every seat


@dataclass
class Notice:
    """One notice's pages still to show; ``important`` ones (reveals) are never dropped."""

    pages: deque[str]
    important: bool = False


@dataclass
class SeatUI:
    number: int
    highlighted: str | None = None
    highlight_until: float | None = None
    peeking: bool = False
    peek_until: float | None = None
    peek_since: float | None = None
    peek_turn: float | None = None  # the next page turn: one page or four, the same beat
    notice: str = ""
    notice_until: float | None = None
    pending: deque[Notice] = field(default_factory=deque)
    armed: str | None = None  # a confirm action pressed once, waiting for the second ACT
    armed_until: float | None = None
    stuck: str = ""

    def current(self, actions: list[Action]) -> tuple[Action | None, int]:
        """The highlighted action and its index, falling back to the first."""
        for index, action in enumerate(actions):
            if action.id == self.highlighted:
                return action, index
        return (actions[0], 0) if actions else (None, 0)

    def lost(self, actions: list[Action]) -> bool:
        """The seat had moved the highlight to an action that is no longer offered."""
        return self.highlighted is not None and all(a.id != self.highlighted for a in actions)

    def next(self, actions: list[Action], now: float) -> None:
        if not actions:
            return
        _, index = self.current(actions)
        step = 0 if self.lost(actions) else 1
        self.highlighted = actions[(index + step) % len(actions)].id
        self.highlight_until = now + IDLE_RESET
        self.disarm()

    def reset_highlight(self) -> None:
        self.highlighted, self.highlight_until = None, None

    def keep_highlight(self, action: Action, now: float) -> None:
        self.highlighted, self.highlight_until = action.id, now + IDLE_RESET

    # --- confirmation ----------------------------------------------------------------------

    def needs_second_press(self, action: Action, now: float) -> bool:
        """True for the first ACT on a confirm action (it arms); False when it may go ahead."""
        if not action.confirm or self.armed == action.id:
            self.disarm()
            return False
        self.armed, self.armed_until = action.id, now + CONFIRM_TIME
        self.keep_highlight(action, now)
        return True

    def disarm(self) -> None:
        self.armed, self.armed_until = None, None

    # --- notices ---------------------------------------------------------------------------

    def tell(self, text: str, now: float, *, important: bool = False) -> None:
        """Queue ``text`` for the title bar, in pages of one line each."""
        self.pending.append(Notice(deque(pages(text)), important))  # whole: never cut
        self._trim()
        if self.notice_until is None:
            self._next_page(now)

    def _trim(self) -> None:
        """Drop whole routine notices, oldest first, until the wait is short again."""
        for notice in list(self.pending)[:-1]:
            if sum(len(n.pages) for n in self.pending) <= MAX_NOTICE_PAGES:
                return
            if not notice.important:
                self.pending.remove(notice)

    def drop_waiting_notices(self) -> None:
        """Routine news still waiting gives way (to the end of a game); reveals stay."""
        self.pending = deque(n for n in self.pending if n.important)

    def forget(self) -> None:
        """A game ended or began: its news, highlight and half-confirmed press go with it."""
        self.pending.clear()
        self.notice, self.notice_until = "", None
        self.reset_highlight()
        self.disarm()

    def _next_page(self, now: float) -> None:
        while self.pending and not self.pending[0].pages:
            self.pending.popleft()
        if self.pending:
            self.notice, self.notice_until = self.pending[0].pages.popleft(), now + NOTICE_PAGE
        else:
            self.notice, self.notice_until = "", None

    # --- peeks -----------------------------------------------------------------------------

    def start_peek(self, now: float) -> None:
        self.peeking, self.peek_until, self.peek_since = True, now + MAX_PEEK, now
        self.peek_turn = now + PEEK_PAGE

    def end_peek(self) -> None:
        self.peeking, self.peek_until, self.peek_since = False, None, None
        self.peek_turn = None

    def peek_page(self, now: float) -> int:
        """Which page of its PEEK face the seat sees (the composer takes it round)."""
        if self.peek_since is None:
            return 0
        return int((now - self.peek_since) // PEEK_PAGE)

    # --- time ------------------------------------------------------------------------------

    def deadlines(self) -> list[float]:
        moments = (self.highlight_until, self.notice_until, self.peek_until, self.peek_turn,
                   self.armed_until)
        return [t for t in moments if t]

    def expire(self, now: float) -> bool:
        """Let timed things lapse at ``now``; True when the screen must change."""
        changed = False
        if self.highlight_until is not None and now >= self.highlight_until:
            self.reset_highlight()
            changed = True
        if self.notice_until is not None and now >= self.notice_until:
            self._next_page(now)
            changed = True
        if self.peek_until is not None and now >= self.peek_until:
            self.end_peek()
            changed = True
        while self.peek_turn is not None and now >= self.peek_turn:
            self.peek_turn += PEEK_PAGE
            changed = True
        if self.armed_until is not None and now >= self.armed_until:
            self.disarm()
            changed = True
        return changed

    def bar(self, actions: list[Action]) -> tuple[str, str]:
        """The bottom bar: the highlighted action, and "2/5" when there is room for it."""
        if self.stuck:
            return f"{self.stuck} stuck: let go", ""
        action, index = self.current(actions)
        if action is None:
            return "", ""
        if self.armed == action.id:
            return f"ACT again: {action.label}", ""
        text = f"> {action.label}"
        more = f"{index + 1}/{len(actions)}" if len(actions) > 1 else ""
        if len(text) + 1 + len(more) > LINE:
            more = ""  # the action's words matter more than the count
        return text, more


def pages(text: str) -> list[str]:
    """``text`` cut at spaces into title-bar lines; an empty notice is one empty page."""
    return list(screen_lines(text)) or [""]
