"""``python -m bench`` (``make bench``): every figure, its budget, and the naive baseline.

``--quick`` runs tiny sizes (the smoke test); ``--only WORD`` the parts whose title has WORD
(``--only phones``); ``--json`` says where results go (default
bench/results.json, which git ignores); ``--markdown`` prints the rows BENCHMARKS.md keeps.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

from . import (
    fairness,
    idle,
    journal,
    lateness,
    phones,
    presses,
    priority,
    realpath,
    service,
    startup,
)
from .report import Figure, markdown, table, write_json
from .sizes import FULL, QUICK, Sizes

RESULTS = Path(__file__).resolve().parent / "results.json"

Step = tuple[str, Callable[[Sizes], list[Figure]]]

STEPS: tuple[Step, ...] = (
    ("presses and bus bytes", presses.measure),
    ("presses on the real-shaped path, Zero 2 W model", realpath.measure),
    ("hourglass expiry lateness", lateness.measure),
    ("idle CPU and wake-ups", idle.measure),
    ("start to ready, --help", startup.measure_start),
    ("the service: start, memory, reloads, reconnects", service.measure),
    ("phones: a press to its frame, idle, memory", phones.measure),
    ("resident memory", startup.measure_memory),
    ("journal commits", journal.measure),
    ("fairness", fairness.measure),
)


def parser() -> argparse.ArgumentParser:
    options = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    options.add_argument("--quick", action="store_true", help="tiny sizes (seconds, not minutes)")
    options.add_argument("--json", type=Path, default=RESULTS, metavar="FILE",
                         help=f"where to write the figures (default {RESULTS.name})")
    options.add_argument("--only", metavar="WORD", default="",
                         help="only the parts whose title has WORD (e.g. phones)")
    options.add_argument("--markdown", action="store_true",
                         help="print the table as Markdown (for BENCHMARKS.md)")
    return options


def main(args: list[str] | None = None) -> int:
    options = parser().parse_args(args)
    sizes = QUICK if options.quick else FULL
    figures: list[Figure] = []
    print(f"measuring {priority.as_the_service()}", file=sys.stderr)
    for title, step in STEPS:
        if options.only not in title:
            continue
        started = time.monotonic()
        print(f"measuring {title}...", end=" ", file=sys.stderr, flush=True)
        figures += step(sizes)
        print(f"{time.monotonic() - started:.1f} s", file=sys.stderr)
    print(markdown(figures) if options.markdown else table(figures))
    write_json(figures, options.json, quick=options.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
