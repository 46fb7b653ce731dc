"""Every game has the same shape: the same parts, one table of phases, one way to end.

docs/ARCHITECTURE.md §6 describes the shape; these checks keep it, for the built-in games
so a game added later lands in it too. A small game may be one module instead (the sixth
game, tests/sixth_game.py): it still ends in OVER and keeps its flow in one table.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from engine.phases import OVER, Phase, PhasedGame

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = sorted(p.parent for p in (ROOT / "engine" / "games").glob("*/__init__.py"))
PARTS = ("__init__", "state", "phases", "setup", "turns", "end", "views", "text")
IDS = [p.name for p in PACKAGES]


@pytest.fixture(autouse=True)
def _registry_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """Importing the sixth game registers it: only for these tests, as in test_sixth_game."""
    from engine import registry

    registry.all_games()  # the built-in games load into the registry that stays
    monkeypatch.setattr(registry, "_GAMES", dict(registry._GAMES))


@pytest.mark.parametrize("package", PACKAGES, ids=IDS)
def test_game_has_every_part(package: Path) -> None:
    missing = [part for part in PARTS if not (package / f"{part}.py").is_file()]
    assert not missing, f"{package.name} lacks {missing}"


@pytest.mark.parametrize("package", PACKAGES, ids=IDS)
def test_game_flow_is_one_table_of_phases_ending_in_over(package: Path) -> None:
    module = importlib.import_module(_dotted(package) + ".phases")
    assert OVER in module.PHASES
    assert all(isinstance(phase, Phase) for phase in module.PHASES.values())


@pytest.mark.parametrize("package", PACKAGES, ids=IDS)
def test_game_registers_a_phased_game_run_by_that_table(package: Path) -> None:
    game = _game_of(importlib.import_module(_dotted(package)))
    assert game.phases is importlib.import_module(_dotted(package) + ".phases").PHASES


@pytest.mark.parametrize("package", PACKAGES, ids=IDS)
def test_game_ends_only_in_its_end_module(package: Path) -> None:
    """``state.finish`` is called in end.py and nowhere else in the package."""
    callers = [path.name for path in package.glob("*.py") if path.name != "end.py"
               and any(_calls_finish(node) for node in ast.walk(_tree(path)))]
    assert not callers, f"{package.name}: the game ends outside end.py, in {callers}"


@pytest.mark.parametrize("package", PACKAGES, ids=IDS)
def test_game_modules_import_each_other_without_a_cycle(package: Path) -> None:
    """No cycle, not even through imports made for typing alone: the state imports no rule
    and no view, and the words (text.py) are typed against no state."""
    graph = {path.stem: _siblings(path, package, typing=True)
             for path in package.glob("*.py")}
    for start in graph:
        seen, todo = set(), list(graph[start])
        while todo:
            module = todo.pop()
            assert module != start, f"{package.name}: {start} imports itself through {seen}"
            if module not in seen:
                seen.add(module)
                todo += graph.get(module, [])


def test_a_one_module_game_keeps_its_flow_in_one_table() -> None:
    """The sixth game is one module: its Game runs its own PHASES, which end in OVER."""
    module = importlib.import_module("tests.sixth_game")
    assert module.GAME.phases is module.PHASES and OVER in module.PHASES
    assert all(isinstance(phase, Phase) for phase in module.PHASES.values())


def test_shape_checks_catch_a_cycle_and_a_stray_finish(tmp_path: Path) -> None:
    """The two static checks fail on a package that breaks them."""
    (tmp_path / "state.py").write_text("from .views import x\n")
    (tmp_path / "views.py").write_text("from . import state\nstate.finish('x', 'end')\n")
    assert "views" in _siblings(tmp_path / "state.py", tmp_path)
    assert "state" in _siblings(tmp_path / "views.py", tmp_path)
    (tmp_path / "text.py").write_text("from typing import TYPE_CHECKING\n"
                                      "if TYPE_CHECKING:\n    from .state import S\n")
    assert "state" not in _siblings(tmp_path / "text.py", tmp_path)
    assert "state" in _siblings(tmp_path / "text.py", tmp_path, typing=True)
    assert any(_calls_finish(node) for node in ast.walk(_tree(tmp_path / "views.py")))


def _dotted(package: Path) -> str:
    return ".".join(package.relative_to(ROOT).parts)


def _game_of(module: object) -> PhasedGame:
    games = [v for v in vars(module).values()
             if isinstance(v, type) and issubclass(v, PhasedGame) and v is not PhasedGame]
    assert len(games) == 1
    from engine import registry

    return registry.get(games[0].key)


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _calls_finish(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "finish")


def _siblings(path: Path, package: Path, typing: bool = False) -> set[str]:
    """Sibling modules ``path`` imports when it runs (not under ``if TYPE_CHECKING``), or with
    ``typing`` those it imports for type checking too."""
    siblings = {p.stem for p in package.glob("*.py")}
    dotted = _dotted(package) if package.is_relative_to(ROOT) else None
    found: set[str] = set()
    for node in (ast.walk(_tree(path)) if typing else _runtime_nodes(_tree(path))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level == 1:
                names = [base] if base else [alias.name for alias in node.names]
            elif dotted and base.startswith(dotted + "."):
                names = [base.removeprefix(dotted + ".").split(".")[0]]
            elif dotted and base == dotted:
                names = [alias.name for alias in node.names]
            else:
                names = []
            found |= {name for name in names if name in siblings}
    return found - {path.stem}


def _runtime_nodes(tree: ast.AST):
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        yield node
        yield from _runtime_nodes(node)
