"""One seat's side of the conversation: its highlight, its peek, its notices.

The highlight follows an action *id*, so when another seat's action changes this seat's list
the highlight does not silently land on a different action; it falls back to the first
(most urgent) action instead, as it does after every action and after a few idle seconds.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.api import Action

IDLE_RESET = 8.0
NOTICE_TIME = 3.0
MAX_PEEK = 10.0


@dataclass
class SeatUI:
    number: int
    highlighted: str | None = None
    highlight_until: float | None = None
    peeking: bool = False
    peek_until: float | None = None
    notice: str = ""
    notice_until: float | None = None
    offline: bool = False
    stuck: str = ""

    def current(self, actions: list[Action]) -> tuple[Action | None, int]:
        """The highlighted action and its index, falling back to the first."""
        for index, action in enumerate(actions):
            if action.id == self.highlighted:
                return action, index
        return (actions[0], 0) if actions else (None, 0)

    def next(self, actions: list[Action], now: float) -> None:
        if not actions:
            return
        _, index = self.current(actions)
        self.highlighted = actions[(index + 1) % len(actions)].id
        self.highlight_until = now + IDLE_RESET

    def reset_highlight(self) -> None:
        self.highlighted, self.highlight_until = None, None

    def tell(self, text: str, now: float) -> None:
        self.notice, self.notice_until = text, now + NOTICE_TIME

    def start_peek(self, now: float) -> None:
        self.peeking, self.peek_until = True, now + MAX_PEEK

    def end_peek(self) -> None:
        self.peeking, self.peek_until = False, None

    def deadlines(self) -> list[float]:
        return [t for t in (self.highlight_until, self.notice_until, self.peek_until) if t]

    def expire(self, now: float) -> bool:
        """Let timed things lapse at ``now``; True when the screen must change."""
        changed = False
        if self.highlight_until is not None and now >= self.highlight_until:
            self.reset_highlight()
            changed = True
        if self.notice_until is not None and now >= self.notice_until:
            self.notice, self.notice_until = "", None
            changed = True
        if self.peek_until is not None and now >= self.peek_until:
            self.end_peek()
            changed = True
        return changed

    def bar(self, actions: list[Action]) -> tuple[str, str]:
        """The bottom bar: the highlighted action (a stuck button hides it: ACT is ignored)."""
        if self.stuck:
            return f"{self.stuck} stuck: let go", ""
        action, index = self.current(actions)
        if action is None:
            return "", ""
        more = f"{index + 1}/{len(actions)}" if len(actions) > 1 else ""
        return f"> {action.label}", more
