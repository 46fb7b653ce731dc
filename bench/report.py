"""One row per figure: its value, its budget and the naive baseline beside it."""

from __future__ import annotations

import json
import platform
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path


@dataclass(frozen=True)
class Figure:
    """A measured number. ``budget`` is an upper bound unless ``at_least`` (p-values)."""

    key: str
    label: str
    value: float
    unit: str
    budget: float | None = None
    at_least: bool = False
    baseline: float | None = None
    baseline_label: str = ""

    @property
    def verdict(self) -> str:
        if self.budget is None:
            return ""
        within = self.value >= self.budget if self.at_least else self.value < self.budget
        return "ok" if within else "OVER"

    def budget_text(self) -> str:
        if self.budget is None:
            return "-"
        sign = ">=" if self.at_least else "<"
        return f"{sign} {number(self.budget)} {self.unit}".rstrip()


def number(value: float) -> str:
    """Three significant figures, no exponent for everyday sizes."""
    if value == 0 or 0.01 <= abs(value) < 1e6:
        return f"{value:.3g}" if abs(value) < 1000 else f"{value:.0f}"
    return f"{value:.2e}"


def table(figures: Sequence[Figure]) -> str:
    """The printed table: figure, value, budget, verdict, naive baseline."""
    rows = [("figure", "value", "budget", "", "naive baseline (same run)")]
    for f in figures:
        value = f"{number(f.value)} {f.unit}".rstrip()
        baseline = ""
        if f.baseline is not None:
            baseline = f"{number(f.baseline)} {f.unit}".rstrip() + f" ({f.baseline_label})"
        rows.append((f.label, value, f.budget_text(), f.verdict, baseline))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = []
    for row in rows:
        cells = [cell.ljust(width) for cell, width in zip(row[:4], widths, strict=True)]
        lines.append("  ".join([*cells, row[4]]).rstrip())
    lines.insert(1, "-" * len(lines[0]))
    return "\n".join(lines)


def markdown(figures: Sequence[Figure]) -> str:
    """The same table as Markdown rows, for BENCHMARKS.md."""
    lines = ["| figure | value | budget | naive baseline (same run) |", "|---|---|---|---|"]
    for f in figures:
        verdict = {"ok": " ok", "OVER": " **OVER**"}.get(f.verdict, "")
        baseline = ""
        if f.baseline is not None:
            baseline = f"{number(f.baseline)} {f.unit}".rstrip() + f" ({f.baseline_label})"
        value = f"{number(f.value)} {f.unit}".rstrip()
        lines.append(f"| {f.label} | {value} | {f.budget_text()}{verdict} | {baseline} |")
    return "\n".join(lines)


def write_json(figures: Sequence[Figure], path: Path, *, quick: bool) -> None:
    document = {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": platform.machine(),
        "python": sys.version.split()[0],
        "quick": quick,
        "figures": [{**asdict(f), "verdict": f.verdict} for f in figures],
    }
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
