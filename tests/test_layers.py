"""The layers, enforced: which of our packages each one may import, read from every import.

- ``engine`` (the rules) imports nothing of ours: no I/O, no hardware, no app.
- ``podproto`` (the pod protocol) imports nothing of ours: it runs on the pod too.
- ``hardware`` takes pixels, frames and sound: it imports ``podproto``, never the engine or
  the companion (the companion turns views into what hardware draws).
- ``firmware`` (MicroPython, flat modules on the pod) imports ``podproto`` and its own modules.
- ``companion`` ties them together; ``bench`` and ``tests`` may import anything; ``tools``
  (scripts run from a checkout, in the install checks' roots) anything but those two.

Every ``import`` statement counts, wherever it stands (inside a function, under
``TYPE_CHECKING``), and relative imports are resolved. A module outside every layer fails too,
so a new top-level package has to be given its place here.
"""

from __future__ import annotations

import ast
import hashlib
import shutil
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ANYTHING = frozenset({"engine", "podproto", "hardware", "firmware", "companion", "bench", "tests"})
MAY_IMPORT: dict[str, frozenset[str]] = {
    "engine": frozenset({"engine"}),
    "podproto": frozenset({"podproto"}),
    "hardware": frozenset({"hardware", "podproto"}),
    "firmware": frozenset({"podproto"}),  # and its own flat modules, which are not layers
    "companion": frozenset({"companion", "engine", "hardware", "podproto"}),
    "bench": ANYTHING,
    "tests": ANYTHING,
    "tools": frozenset({"companion", "engine", "hardware", "podproto"}),
}
SKIPPED = {".venv", ".git", "build", "dist", "__pycache__"}


def python_files(root: Path) -> Iterator[Path]:
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).parts
        if not SKIPPED.intersection(parts) and not parts[0].endswith(".egg-info"):
            yield path


def imported_names(path: Path, root: Path) -> Iterator[tuple[int, str | None]]:
    """``(line, absolute module name)`` of every import in ``path``; None for a relative
    import that climbs out of its top-level package."""
    package = list(path.relative_to(root).with_suffix("").parts[:-1])
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                yield node.lineno, node.module
            elif node.level > len(package):
                yield node.lineno, None
            else:
                base = package[: len(package) - node.level + 1]
                yield node.lineno, ".".join([*base, *filter(None, [node.module])])


def layer_violations(root: Path) -> list[str]:
    """Every import that crosses the layers, as ``path:line: what``."""
    found = []
    for path in python_files(root):
        where = path.relative_to(root)
        layer = where.parts[0] if len(where.parts) > 1 else None
        if layer not in MAY_IMPORT:
            found.append(f"{where}: in no layer (give its package a place in MAY_IMPORT)")
            continue
        for line, name in imported_names(path, root):
            if name is None:
                found.append(f"{where}:{line}: a relative import out of {layer}")
                continue
            top = name.split(".")[0]
            if top in ANYTHING and top not in MAY_IMPORT[layer]:
                found.append(f"{where}:{line}: {layer} imports {name}")
    return found


def test_layers_hold_in_this_repository() -> None:
    """No package imports one it must not (see the module docstring for the rule)."""
    assert layer_violations(ROOT) == []


def test_layers_pod_protocol_exists_once() -> None:
    """Firmware and host import the one podproto package: no copy of it anywhere else."""
    protocol = {hashlib.sha256(path.read_bytes()).hexdigest()
                for path in (ROOT / "podproto").glob("*.py")}
    copies = [str(path.relative_to(ROOT)) for path in python_files(ROOT)
              if path.parent.name != "podproto"
              and hashlib.sha256(path.read_bytes()).hexdigest() in protocol]
    assert copies == []


def plant(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_layers_checker_catches_every_planted_violation(tmp_path: Path) -> None:
    """A tree with one violation of each kind: the checker names each, and only those."""
    root = plant(tmp_path, {
        "engine/__init__.py": "",
        "engine/rules.py": "import json\nfrom . import rules\nfrom hardware.base import Sand\n",
        "hardware/__init__.py": "",
        "hardware/screen.py": "from podproto import wire\n\n\ndef f():\n"
                              "    from engine.api import SeatView\n",
        "hardware/speaker.py": "from ..companion import app\n",
        "hardware/public.py": "from .screen import f\nimport companion.render as render\n",
        "podproto/__init__.py": "",
        "podproto/wire.py": "import struct\nfrom hardware import base\n",
        "firmware/main.py": "import machine\nimport pod\nfrom podproto import wire\n"
                            "import hardware.tunes\n",
        "companion/__init__.py": "",
        "companion/app.py": "from engine.api import SeatView\nfrom hardware.base import Sand\n"
                            "from tests.golden import SWITCH\n",
        "tests/test_all.py": "import bench\nimport companion\nimport firmware\n",
        "scripts/extra.py": "",
        "tools/check.py": "import hardware.web\nimport tests.phones\n",
    })
    assert layer_violations(root) == [
        "companion/app.py:3: companion imports tests.golden",
        "engine/rules.py:3: engine imports hardware.base",
        "firmware/main.py:4: firmware imports hardware.tunes",
        "hardware/public.py:2: hardware imports companion.render",
        "hardware/screen.py:5: hardware imports engine.api",
        "hardware/speaker.py:1: a relative import out of hardware",
        "podproto/wire.py:2: podproto imports hardware",
        "scripts/extra.py: in no layer (give its package a place in MAY_IMPORT)",
        "tools/check.py:2: tools imports tests.phones",
    ]


def test_layers_checker_fails_on_a_violation_planted_in_this_repository(tmp_path: Path) -> None:
    """This repository's own packages, with the old leak put back into hardware/base.py."""
    for layer in MAY_IMPORT:
        shutil.copytree(ROOT / layer, tmp_path / layer, ignore=shutil.ignore_patterns(*SKIPPED))
    base = tmp_path / "hardware" / "base.py"
    base.write_text(base.read_text() + "\nfrom engine.api import SeatView\n")
    (violation,) = layer_violations(tmp_path)
    assert violation.startswith("hardware/base.py:") and violation.endswith("engine.api")
