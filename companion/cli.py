"""The ``companion`` command: play, run a table script, check a table config.

``main(args=None) -> int`` as in nobodd: errors come out as one clear line and an exit
status; the traceback only with DEBUG=1, since a person at a table wants the what and the how
to fix, not the where.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from importlib.metadata import PackageNotFoundError, version

from engine import registry


def package_version() -> str:
    try:
        return version("table-companion")
    except PackageNotFoundError:
        return "unknown"


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="companion",
        description="A table companion for physical card games: hourglass, secrets, fair deals.",
    )
    top.add_argument("--version", action="version", version=f"%(prog)s {package_version()}")
    commands = top.add_subparsers(dest="command", metavar="COMMAND")

    play = commands.add_parser("play", help="run the companion (the simulated table by default)")
    play.add_argument("game", nargs="?", help="game key, e.g. staying-alive (default: choose)")
    play.add_argument("--players", type=int, help="join seats 1..N at once")
    play.add_argument("--table", metavar="FILE", help="table.toml of a real table")
    play.add_argument("--seats", type=int, default=6, help="simulated seats (default 6)")

    script = commands.add_parser("script", help="play a table script on the simulated table")
    script.add_argument("file", help="the script (grammar: docs/table-scripts.md)")

    check = commands.add_parser("check-config", help="validate a table.toml")
    check.add_argument("file")

    commands.add_parser("games", help="list the games")
    return top


def main(args: list[str] | None = None) -> int:
    options = parser().parse_args(args)
    logging.basicConfig(level=logging.DEBUG if os.environ.get("DEBUG") else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    try:
        return _dispatch(options)
    except KeyboardInterrupt:
        return 130
    except Exception as error:  # one clear line; the traceback only when asked for
        if os.environ.get("DEBUG"):
            raise
        print(f"companion: {error}", file=sys.stderr)
        return 2


def _dispatch(options: argparse.Namespace) -> int:
    if options.command == "script":
        from .script_cli import run_script_file

        return run_script_file(options.file)
    if options.command == "check-config":
        from .config_cli import check_config

        return check_config(options.file)
    if options.command == "games":
        for game in registry.all_games():
            print(f"{game.key:22} {game.name} ({game.min_players}-{game.max_players} players)")
        return 0
    if options.command == "play" or options.command is None:
        from .play import play

        return play(
            game=getattr(options, "game", None),
            players=getattr(options, "players", None),
            table=getattr(options, "table", None),
            seats=getattr(options, "seats", 6),
        )
    return 2
