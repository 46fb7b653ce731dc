"""One seat's side of the conversation: its highlight, its peek, its notices.

The highlight follows an action *id*, so when another seat's action changes this seat's list
the highlight stays on its action wherever that moved. When its action is gone, the highlight
never lands on another one silently: the next ACT only says "Choices changed" and the next
PEEK starts again from the first (most urgent) action, where the highlight also falls back
after a few idle seconds, saying so, so a seat that looked away does not ACT on it unawares.
After the seat's own action the highlight falls back to the first action, so "PEEK, ACT"
means the same thing again. When the action changed the shape of a list that goes on
(the Lookout's last stamina moves the flip from second to last, so the same presses
would reach "Lose 1 stamina"), the bar is lit (drawn inverted) while the seat PEEKs through
the new list, until its next ACT or a few idle seconds: it never lands on another action
without seeing that the list changed. (Following the action by id would not help there:
the table's own entries follow the flip, so PEEK would go to "Pause".) An action marked
``repeat`` (+1, -1, an option's value) keeps the highlight, so ACT can be pressed again;
one marked ``confirm`` needs a second ACT within a few seconds.

Notices (narration, reveals, refusals) are shown whole over the screen's body, up to four
lines wrapped at spaces (``render.NOTICE_LINES``), for a reading time that grows with their
length: nothing crawls through a line. The title (the seat's turn or role) and the action
bar stay in view. Games word their notices to fit one screen (the conformance suite checks
it); a longer text is still shown whole, a screen after another. Notices that arrive
together are shown one after the other, so a death announced just before the next wave is
not wiped out by it. When too many wait, whole routine notices (the table's own: paused,
a refusal) told earlier give way, oldest first; results, reveals and narration never do,
so every one reaches the seat, in order. The last few the seat was told can be read again
at any time ("Last results", :meth:`SeatUI.recall`): each is shown anew under the title
"Last results 1/3", and only ever on the seat that was told it. While the seat holds PEEK its secret
face is shown unchanged and its notices wait; the one on screen gets its whole reading
time again when PEEK is released. ACT pressed while PEEK is held turns the secret's page
(and starts that page's beat anew); it never reaches the game.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from engine.api import LABEL, LINE, Action
from engine.text import fit, screen_lines

from .render import NOTICE_LINES

CHOICES_CHANGED = "Choices changed"
BACK_TO_FIRST = "Back to choice 1"  # the highlight fell back after IDLE_RESET seconds
IDLE_RESET = 8.0
CODE_SECONDS = 30.0  # a phone seat's QR code on a wired seat: time to find a phone and scan
READING_PACE = 14.0  # characters a second: a 21-character line in 1.5 s
MIN_NOTICE = 1.5  # seconds even the shortest notice stays
MAX_NOTICE_WAIT = 9.0  # seconds of waiting notices beyond which routine ones give way
CONFIRM_TIME = 3.0
MAX_PEEK = 10.0
RECALLED = 4  # notices a seat can read again ("Last results")
RECALL_TITLE = "Last results"
PEEK_PAGE = 2.5  # seconds per page of a PEEK face; the pages turn on this beat for every seat


@dataclass
class Notice:
    """One notice's screens still to show (one, for a text worded to fit); ``important``
    ones (reveals) are never dropped."""

    screens: deque[str]
    told: float
    important: bool = False
    title: str = ""  # a notice read again says so in the title bar

    def wait(self) -> float:
        return sum(reading_time(text) for text in self.screens)


@dataclass
class SeatUI:
    number: int
    one_button: bool = False  # its one button's hold is PEEK: no ACT while it peeks
    highlighted: str | None = None
    highlight_until: float | None = None
    peeking: bool = False
    peek_until: float | None = None
    peek_since: float | None = None
    peek_turn: float | None = None  # the next page turn: one page or four, the same beat
    peek_turned: int = 0  # pages turned by ACT during this peek
    notice: str = ""
    notice_title: str = ""  # the title bar while the notice on screen is read again
    notice_until: float | None = None
    pending: deque[Notice] = field(default_factory=deque)
    history: deque[str] = field(default_factory=lambda: deque(maxlen=RECALLED))
    armed: str | None = None  # a confirm action pressed once, waiting for the second ACT
    reshaped: bool = False  # the seat's own action reshaped its list: the bar is lit
    armed_until: float | None = None
    stuck: str = ""
    code: int | None = None  # the phone seat whose link this seat shows as a QR code
    code_until: float | None = None

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

    def acted(self, action: Action, before: list[str], after: list[Action], now: float,
              table_owned: Callable[[str], bool]) -> None:
        """Place the highlight after the seat's own ``action``: ``before`` is the ids the
        seat was offered when it pressed, ``after`` what it is offered now. The table's own
        entries (pause, undo...) follow every list, so they do not make two lists one."""
        ids = [a.id for a in after]
        if action.repeat and action.id in ids:
            self.keep_highlight(action, now)
            return
        self.reset_highlight()
        kept = {i for i in ids if not table_owned(i)} & set(before)
        if ids != before and kept:  # the same list in a new shape: lit until the next ACT
            self.reshaped, self.highlight_until = True, now + IDLE_RESET

    def reset_highlight(self) -> None:
        self.highlighted, self.highlight_until, self.reshaped = None, None, False

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
        """Queue ``text`` for the body of the screen, whole; it can be read again later."""
        self.history.append(text)
        self._queue(Notice(deque(notice_screens(text)), now, important))

    def recall(self, now: float) -> None:
        """"Last results": the last notices this seat was told, oldest first, each shown
        anew (after what is waiting) under its own title; they are never dropped."""
        told = list(self.history) or ["Nothing told yet"]
        for number, text in enumerate(told, 1):
            title = f"{RECALL_TITLE} {number}/{len(told)}"
            self._queue(Notice(deque(notice_screens(text)), now, True, title))

    def _queue(self, notice: Notice) -> None:
        self.pending.append(notice)  # never cut
        self._trim(notice.told)
        if self.notice_until is None:
            self._next_screen(notice.told)

    def _trim(self, now: float) -> None:
        """Drop whole routine notices told before ``now``, oldest first, until the wait is
        short again; the notices of one moment are one story (a cleanup's steps) and stay."""
        for notice in list(self.pending):
            if sum(n.wait() for n in self.pending) <= MAX_NOTICE_WAIT:
                return
            if not notice.important and notice.told < now:
                self.pending.remove(notice)

    def drop_waiting_notices(self) -> None:
        """Routine news still waiting gives way (to the end of a game); results stay."""
        self.pending = deque(n for n in self.pending if n.important)

    def forget(self) -> None:
        """A game ended or began: its news, highlight and half-confirmed press go with it."""
        self.pending.clear()
        self.history.clear()
        self.notice, self.notice_title, self.notice_until = "", "", None
        self.reset_highlight()
        self.disarm()

    def _next_screen(self, now: float) -> None:
        while self.pending and not self.pending[0].screens:
            self.pending.popleft()
        if self.pending:
            self.notice = self.pending[0].screens.popleft()
            self.notice_title = self.pending[0].title
            self.notice_until = now + reading_time(self.notice)
        else:
            self.notice, self.notice_title, self.notice_until = "", "", None

    # --- peeks -----------------------------------------------------------------------------

    def start_peek(self, now: float) -> None:
        self.peeking, self.peek_until, self.peek_since = True, now + MAX_PEEK, now
        self.peek_turn, self.peek_turned = now + PEEK_PAGE, 0

    def turn_page(self, now: float) -> None:
        """ACT while PEEK is held: the next page now, shown a whole beat before the pages
        turn by themselves again. Not peeking yet (PEEK only just pressed): nothing."""
        if not self.peeking or self.peek_since is None:
            return
        self.peek_turned = self.peek_page(now) + 1
        self.peek_since, self.peek_turn = now, now + PEEK_PAGE

    def end_peek(self, now: float) -> None:
        """Notices held still behind the secret face; the one on screen is read anew."""
        self.peeking, self.peek_until, self.peek_since = False, None, None
        self.peek_turn = None
        if self.notice_until is not None:
            self.notice_until = now + reading_time(self.notice)

    def peek_page(self, now: float) -> int:
        """Which page of its PEEK face the seat sees (the composer takes it round)."""
        if self.peek_since is None:
            return 0
        return self.peek_turned + int((now - self.peek_since) // PEEK_PAGE)

    # --- time ------------------------------------------------------------------------------

    def deadlines(self) -> list[float]:
        notice_until = None if self.peeking else self.notice_until  # held still under PEEK
        moments = (self.highlight_until, notice_until, self.peek_until, self.peek_turn,
                   self.armed_until, self.code_until)
        return [t for t in moments if t]

    def expire(self, now: float) -> bool:
        """Let timed things lapse at ``now``; True when the screen must change."""
        changed = False
        if self.highlight_until is not None and now >= self.highlight_until:
            if self.highlighted is not None:  # the seat had moved it: say it moved back
                self._queue(Notice(deque(notice_screens(BACK_TO_FIRST)), now))  # not a result
            self.reset_highlight()
            changed = True
        if self.peek_until is not None and now >= self.peek_until:
            self.end_peek(now)
            changed = True
        if not self.peeking and self.notice_until is not None and now >= self.notice_until:
            self._next_screen(now)
            changed = True
        while self.peek_turn is not None and now >= self.peek_turn:
            self.peek_turn += PEEK_PAGE
            changed = True
        if self.armed_until is not None and now >= self.armed_until:
            self.disarm()
            changed = True
        if self.code_until is not None and now >= self.code_until:
            self.code = self.code_until = None
            changed = True
        return changed

    def show_code(self, phone: int, now: float) -> None:
        """Show phone seat ``phone``'s link as a QR code for CODE_SECONDS (or until a phone
        is on that seat), for a player at the table who has no other screen to scan."""
        self.code, self.code_until = phone, now + CODE_SECONDS

    def bar(self, actions: list[Action]) -> tuple[str, str]:
        """The bottom bar: the highlighted action, and always "2/5" beside it (drawn small
        beside a long label); a label that needs the room is shown without its "> "."""
        if self.stuck:
            return f"{self.stuck} stuck: let go", ""
        action, index = self.current(actions)
        if action is None:
            return "", ""
        if self.armed == action.id:
            return fit(f"ACT again: {action.label}", "ACT again to confirm"), ""
        text = f"> {action.label}"
        more = f"{index + 1}/{len(actions)}" if len(actions) > 1 else ""
        if len(text) + (len(more) + 1 if more else 0) > LINE:
            text = fit(action.label, width=LABEL)  # the count drawn small in the last cell
        return text, more


@lru_cache(maxsize=256)
def notice_lines(text: str) -> tuple[str, ...]:
    """A notice as the body shows it: wrapped at spaces into 21-character lines. Wrapped
    once for each text: a notice stays on every seat for several redraws (textwrap's
    Python was a fifth of composing such a face)."""
    return screen_lines(text)


def notice_screens(text: str) -> list[str]:
    """``text`` as whole screens of :data:`NOTICE_LINES` lines: one, for a text worded to
    fit; an empty notice is one empty screen."""
    lines = notice_lines(text)
    return [" ".join(lines[at : at + NOTICE_LINES])
            for at in range(0, len(lines), NOTICE_LINES)] or [""]


def reading_time(text: str) -> float:
    """How long a notice stays: long enough to read it at a table's pace."""
    return max(MIN_NOTICE, len(text) / READING_PACE)
