"""The window planner as first written, on Window objects: the reference the integer
planner in hardware/drivers/oled.py must agree with, window for window."""

from __future__ import annotations

from hardware.drivers.planner import PAGES, WIDTH, Addressing, Window, _changed_runs


def reference_plan(old: bytes | None, new: bytes, controller: Addressing) -> list[Window]:
    spans = [_page_spans(old, new, page, controller) for page in range(PAGES)]
    if not controller.multi_page:
        return [window for page_windows in spans for window in page_windows]
    changed = [page for page in range(PAGES) if spans[page]]
    if not changed:
        return []
    first, last = changed[0], changed[-1] + 1
    return _merge_pages(spans[first:last], controller, first)


def _page_spans(old: bytes | None, new: bytes, page: int, controller: Addressing) -> list[Window]:
    base = page * WIDTH
    row = new[base : base + WIDTH]
    if old is None:
        runs = [(0, WIDTH)]
    else:
        before = old[base : base + WIDTH]
        if before == row:
            return []
        runs = _changed_runs(before, row)
    spans: list[Window] = []
    for start, end in runs:
        window = Window(page, page, start, end)
        if spans:
            merged = Window(page, page, spans[-1].start, end)
            if controller.cost(merged) <= controller.cost(spans[-1]) + controller.cost(window):
                spans[-1] = merged
                continue
        spans.append(window)
    return spans


def _merge_pages(spans: list[list[Window]], controller: Addressing, first: int) -> list[Window]:
    best: list[tuple[int, list[Window]]] = [(0, [])]
    for end in range(1, len(spans) + 1):
        options = []
        for start in range(end):
            cost, windows = best[start]
            group = _group_windows(spans, start, end, first)
            options.append((cost + sum(map(controller.cost, group)), windows + group))
        best.append(min(options, key=lambda option: option[0]))
    return best[-1][1]


def _group_windows(spans: list[list[Window]], start: int, end: int, first: int) -> list[Window]:
    if end - start == 1:
        return spans[start]
    inside = [window for page in spans[start:end] for window in page]
    if not inside:
        return []
    left = min(window.start for window in inside)
    right = max(window.end for window in inside)
    return [Window(first + start, first + end - 1, left, right)]
