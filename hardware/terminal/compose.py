"""The whole terminal screen as lines of text: seat frames, grid or focus, status and help.

Pure functions of a :class:`Scene`, so the layout is tested without a terminal or a thread.
Every seat frame is 66 columns by 18 lines (64x16 braille plus a border), which puts three
seats side by side in a 200-column terminal and one seat plus a seat list in 80x24.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from .braille import ROW_CHARS, ROW_COUNT
from .keys import HELP_LINES, KEY_SUMMARY, seat_key_hint

FRAME_WIDTH = ROW_CHARS + 2
FRAME_HEIGHT = ROW_COUNT + 2
GRID_COLUMNS = 3
SIDEBAR_WIDTH = 12
STATUS_HEIGHT = 2 + len(KEY_SUMMARY)
FOCUS_SIZE = (FRAME_WIDTH + 1 + SIDEBAR_WIDTH, FRAME_HEIGHT + STATUS_HEIGHT)
INVERSE = "\x1b[7m"
RESET = "\x1b[0m"
ANSI_SEQUENCE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
DARK_ROW = " " * ROW_CHARS
FELT = "~~"  # on a seat's own frame while its motor would run


@dataclass(frozen=True)
class SeatPanel:
    """What one seat's frame shows; ``rows`` is None while the screen is off (blanked);
    ``felt``: the seat's vibration motor runs now."""

    number: int
    rows: Sequence[str] | None = None
    offline: bool = False
    act_held: bool = False
    peek_held: bool = False
    felt: bool = False


@dataclass(frozen=True)
class Scene:
    """Everything on the terminal at one moment; ``focus`` is None for the grid of all seats."""

    panels: Sequence[SeatPanel]
    focus: int | None
    help_shown: bool
    tunes: Sequence[str]
    message: str
    width: int


def compose(scene: Scene) -> list[str]:
    if scene.help_shown:
        body = list(HELP_LINES)
    elif scene.focus is None:
        body = grid_lines(scene.panels)
    else:
        body = focus_lines(scene.panels, scene.focus)
    return body + status_lines(scene)


def grid_size(seat_count: int) -> tuple[int, int]:
    """Columns and lines the grid of ``seat_count`` seats needs, status lines included."""
    rows = -(-seat_count // GRID_COLUMNS)
    return min(seat_count, GRID_COLUMNS) * FRAME_WIDTH, rows * FRAME_HEIGHT + STATUS_HEIGHT


def fits(need: tuple[int, int], have: tuple[int, int]) -> bool:
    return need[0] <= have[0] and need[1] <= have[1]


def too_small_lines(need: tuple[int, int], have: tuple[int, int]) -> list[str]:
    """What a terminal smaller than one seat's frame shows in place of frames cut to
    pieces: how big it needs to be. Short lines, cut to the terminal, so even a tiny one
    reads them."""
    lines = [f"Terminal {have[0]}x{have[1]}:", "too small for a seat.",
             f"Make it {need[0]}x{need[1]}", "or more. Ctrl-Q quits."]
    return [fit(line, have[0]) for line in lines[: max(1, have[1])]]


def grid_lines(panels: Sequence[SeatPanel]) -> list[str]:
    lines: list[str] = []
    for start in range(0, len(panels), GRID_COLUMNS):
        frames = [seat_frame(panel) for panel in panels[start : start + GRID_COLUMNS]]
        lines.extend("".join(parts) for parts in zip(*frames, strict=True))
    return lines


def focus_lines(panels: Sequence[SeatPanel], focus: int) -> list[str]:
    panel = next(panel for panel in panels if panel.number == focus)
    sidebar = seat_list(panels, focus)
    sidebar += [""] * (FRAME_HEIGHT - len(sidebar))
    return [f"{line} {side}" for line, side in zip(seat_frame(panel), sidebar, strict=True)]


def seat_list(panels: Sequence[SeatPanel], focus: int) -> list[str]:
    """The sidebar of the focus view: every seat with its state, so none is forgotten."""
    entries = [_seat_entry(panel, focus) for panel in panels]
    return ["Seats", *entries, "", "Tab: next", "0: all", "?: help"]


def _seat_entry(panel: SeatPanel, focus: int) -> str:
    mark = "▸" if panel.number == focus else " "
    return fit(f"{mark}{panel.number} {_short_flags(panel)}", SIDEBAR_WIDTH)


def seat_frame(panel: SeatPanel) -> list[str]:
    """The seat's frame; a vibration shows on it alone (never in the seat list beside
    another seat's frame: it is private)."""
    flags = [FELT, *_flags(panel)] if panel.felt else _flags(panel)
    top = _border("┌", f"Seat {panel.number}", flags, "┐")
    body = [f"│{row}│" for row in (panel.rows or [DARK_ROW] * ROW_COUNT)]
    bottom = _border("└", seat_key_hint(panel.number), [], "┘")
    return [top, *body, bottom]


def _flags(panel: SeatPanel) -> list[str]:
    flags = []
    if panel.offline:
        flags.append("OFFLINE")
    if panel.rows is None:
        flags.append("off")
    if panel.act_held:
        flags.append("ACT held")
    if panel.peek_held:
        flags.append("PEEK held")
    return flags


def _short_flags(panel: SeatPanel) -> str:
    return " ".join(flag.removesuffix(" held") for flag in _flags(panel))


def _border(left: str, label: str, flags: Sequence[str], right: str) -> str:
    head = f"{left}─ {label} "
    tail = "".join(f"{INVERSE} {flag} {RESET}─" for flag in flags) + right
    return head + "─" * (FRAME_WIDTH - display_width(head) - display_width(tail)) + tail


def status_lines(scene: Scene) -> list[str]:
    tunes = "  ".join(f"♪ {tune}" for tune in scene.tunes) or "♪ (no tune yet)"
    message = "".join(char if char.isprintable() else " " for char in scene.message)
    lines = [tunes, f"» {message}" if message else "", *KEY_SUMMARY]
    return [fit(line, scene.width) for line in lines]


def display_width(text: str) -> int:
    """Terminal columns ``text`` takes: escape sequences none, wide (CJK) characters two."""
    return sum(_char_width(char) for char in ANSI_SEQUENCE.sub("", text))


def fit(text: str, width: int) -> str:
    """``text`` cut to ``width`` columns (a long narration must not wrap into the frames)."""
    used = 0
    for index, char in enumerate(text):
        used += _char_width(char)
        if used > width:
            return text[:index]
    return text


def _char_width(char: str) -> int:
    if unicodedata.combining(char) or not char.isprintable():
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
