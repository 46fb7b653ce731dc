"""The cheapest plan the planner's own cost model allows, to hold its plans against.

Cost is :meth:`hardware.drivers.oled.Addressing.cost` summed over the windows: the bytes on
the wire.
The optimum is taken over *banded* plans: the changed pages are split into bands of
consecutive pages, and each band's changed columns (over all its pages) into consecutive
spans, each span one window over the whole band; on the SH1106 a band is one page. Windows
never overlap, and any run of changed columns may be joined with its neighbours, resending
the unchanged bytes between them. The planner's own plans are banded plans (a band of several
pages is one bounding window; runs on one page are joined greedily, left to right), so its
cost is never below this optimum and the ratio says what its shortcuts give away.

What is left out: plans whose windows overlap, or that cover changes with rectangles not
lined up in bands (an L-shaped change as two windows of different page ranges). Finding the
cheapest of all rectangle covers is a set-cover problem; banded plans can be searched
exactly (a dynamic programme over bands, then over spans).
"""

from __future__ import annotations

from hardware.drivers.planner import PAGES, WIDTH, Addressing, Window, _changed_runs

Run = tuple[int, int]


def optimum_cost(old: bytes, new: bytes, controller: Addressing) -> int:
    """The cheapest banded plan from RAM ``old`` to ``new``, in bytes on the wire."""
    runs = [_runs(old, new, page) for page in range(PAGES)]
    changed = [page for page in range(PAGES) if runs[page]]
    if not changed:
        return 0
    first, last = changed[0], changed[-1] + 1
    widest = (last - first) if controller.multi_page else 1
    best = [0] + [0] * (last - first)
    for end in range(1, last - first + 1):
        options = []
        for start in range(max(0, end - widest), end):
            union = _union([run for page in runs[first + start : first + end] for run in page])
            options.append(best[start] + _spans_cost(union, end - start, controller))
        best[end] = min(options)
    return best[-1]


def _runs(old: bytes, new: bytes, page: int) -> list[Run]:
    base = page * WIDTH
    return _changed_runs(old[base : base + WIDTH], new[base : base + WIDTH])


def _union(runs: list[Run]) -> list[Run]:
    """The columns changed on any page of a band, as sorted disjoint runs."""
    merged: list[Run] = []
    for start, end in sorted(runs):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def _spans_cost(runs: list[Run], pages: int, controller: Addressing) -> int:
    """The cheapest split of a band's runs into consecutive spans, each one window."""
    if not runs:
        return 0
    best = [0] + [0] * len(runs)
    for end in range(1, len(runs) + 1):
        best[end] = min(
            best[start] + controller.cost(Window(0, pages - 1, runs[start][0], runs[end - 1][1]))
            for start in range(end)
        )
    return best[-1]
