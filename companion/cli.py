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

from engine import registry
from hardware.config import PHONE_PORT, PORTS
from podproto import VERSION

from .journal_log import journal_lines, log_handler, to_journal

MAX_SEATS = 8  # the simulated table's most; a real table's seats come from table.toml


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="companion",
        description="A table companion for physical card games: hourglass, secrets, fair deals.",
    )
    top.add_argument("--version", action="version", version=f"%(prog)s {VERSION}")
    commands = top.add_subparsers(dest="command", metavar="COMMAND")

    play = commands.add_parser("play", help="run the companion (the simulated table by default)")
    play.add_argument("game", nargs="?", help="game key, e.g. staying-alive (default: choose)")
    play.add_argument("--players", type=_whole(1, MAX_SEATS), metavar="N",
                      help=f"join seats 1..N at once (1-{MAX_SEATS})")
    play.add_argument("--table", metavar="FILE", help="table.toml of a real table")
    play.add_argument("--seats", type=_whole(1, MAX_SEATS), default=6, metavar="N",
                      help=f"simulated seats, 1-{MAX_SEATS} (default 6)")
    play.add_argument("--phones", type=_whole(0, MAX_SEATS), default=0, metavar="N",
                      help="N more seats on phones: each opens its seat's printed link "
                           "(docs/phones.md)")
    play.add_argument("--phone-port", type=_whole(PORTS.start, PORTS.stop - 1),
                      default=PHONE_PORT, metavar="PORT",
                      help="the phone seats' web server port (default 8023)")
    play.add_argument("--ui", choices=("terminal", "window"), default="terminal",
                      help="the simulated table in the terminal or in a window (pygame)")
    play.add_argument("--volume", type=_whole(0, 100), default=80, metavar="PERCENT",
                      help="narration volume 0-100 (default 80; 0: text only)")
    play.add_argument("--masking", action="store_true",
                      help="play a soft noise during scripted private steps")
    play.add_argument("--public-screen", action="store_true",
                      help="with --table: the public view full screen on the HDMI display")
    play.add_argument("--state-dir", metavar="DIR",
                      help="where the journal is kept (default: [table] state_dir, "
                           "$STATE_DIRECTORY, else ~/.local/state/table-companion)")
    play.add_argument("--deck-list", metavar="FILE",
                      help="your own card list for the game to shuffle and name "
                           "(They Live's War Table deck: docs/they-live-deck-list.md)")
    play.add_argument("--ack-fd", type=_whole(0, 1 << 20), metavar="FD",
                      help="write a line to this open file descriptor after each durable "
                           "journal write (crash tests, supervisors)")

    voices = commands.add_parser("voices", help="make the narration prompts (espeak-ng)")
    voices.add_argument("--voice", default="en-gb", help="espeak-ng voice (default en-gb)")

    script = commands.add_parser("script", help="play a table script on the simulated table")
    script.add_argument("file", help="the script (grammar: docs/table-scripts.md)")

    check = commands.add_parser("check-config", help="validate a table.toml")
    check.add_argument("file", nargs="?",
                       help="default: the installed service's (/etc/table-companion/table.toml)")

    doctor = commands.add_parser("doctor", help="check a built table against its table.toml: "
                                                "buses, displays, buttons, buzzer, pods")
    doctor.add_argument("file", nargs="?",
                        help="default: the installed service's (/etc/table-companion/table.toml)")
    doctor.add_argument("--no-wait", action="store_true",
                        help="ask nobody: check only what needs no press and no ears")

    audit = commands.add_parser("audit", help="check a finished game's deal: its revealed key, "
                                              "the players' cut, the seed and every deal")
    audit.add_argument("game_id", nargs="?", type=_whole(1, 10**9), metavar="GAME-ID",
                       help="the game's number in the journal (default: the last finished)")
    audit.add_argument("--state-dir", metavar="DIR",
                       help="where the journal is kept (default: the installed service's)")
    audit.add_argument("--commitment", metavar="HASH",
                       help="the commitment shown before the cut, as the table noted it")
    audit.add_argument("--digest", metavar="HEX",
                       help="the history digest shown beside the key at the end, as noted")

    commands.add_parser("games", help="list the games")

    example = commands.add_parser("example-table", help="print a shipped example table.toml "
                                                        "(without NAME: list them)")
    example.add_argument("name", nargs="?", metavar="NAME")

    pod = commands.add_parser("pod-firmware", help="write a seat pod's firmware files to DIR, "
                                                   "ready for mpremote")
    pod.add_argument("folder", metavar="DIR")

    service = commands.add_parser("install-service", help="as root: install the companion as "
                                  "the Pi's service, or bring the install up to date")
    service.add_argument("--table", metavar="NAME",
                         help="the example table.toml to start from (default kitchen)")
    screen = service.add_mutually_exclusive_group()
    screen.add_argument("--public-screen", action="store_true",
                        help="the public view on the HDMI display")
    screen.add_argument("--no-public-screen", action="store_true")
    service.add_argument("--from", dest="source", metavar="SOURCE",
                         help="a wheel, an sdist or a URL (default: where this companion "
                              "was installed from)")
    update = commands.add_parser("update", help="as root: update the installed service; its "
                                                "table.toml, games and memory stay")
    update.add_argument("source", nargs="?", metavar="SOURCE",
                        help="a wheel, an sdist or a URL (default: the install's own)")
    uninstall = commands.add_parser("uninstall", help="as root: remove the service; says "
                                                      "what it leaves")
    uninstall.add_argument("--purge", action="store_true", help="the saved games too")
    return top


def _whole(low: int, high: int):
    """An argparse type: a whole number from ``low`` to ``high``, or one clear line why not
    (``--players -3`` must not join seats 1 to 3)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is not between {low} and {high}")
        return value

    parse.__name__ = "number"  # argparse names the type in its message
    return parse


def main(args: list[str] | None = None) -> int:
    options = parser().parse_args(args)
    logging.basicConfig(level=logging.DEBUG if os.environ.get("DEBUG") else logging.WARNING,
                        handlers=[log_handler()])
    try:
        return _dispatch(options)
    except KeyboardInterrupt:
        return 130
    except Exception as error:  # one clear line; the traceback only when asked for
        if os.environ.get("DEBUG"):
            raise
        line = f"companion: {error}"
        print(journal_lines(line, logging.ERROR) if to_journal(sys.stderr) else line,
              file=sys.stderr)
        return 2


def _dispatch(options: argparse.Namespace) -> int:
    if options.command == "script":
        from .script_cli import run_script_file

        return run_script_file(options.file)
    if options.command == "check-config":
        from .config_cli import check_config
        from .installed import config_to_check

        return check_config(config_to_check(options.file))
    if options.command == "doctor":
        from .doctor.terminal import run_doctor
        from .installed import config_to_check

        return run_doctor(config_to_check(options.file, command="doctor"), options.no_wait)
    if options.command == "games":
        for game in registry.all_games():
            print(f"{game.key:22} {game.name} ({game.min_players}-{game.max_players} players)")
        return 0
    if options.command == "example-table":
        from .shipped import example_table

        return example_table(options.name)
    if options.command == "pod-firmware":
        from .shipped import pod_firmware

        return pod_firmware(options.folder)
    if options.command == "audit":
        from .audit import run_audit
        from .installed import games_to_audit

        return run_audit(games_to_audit(options.state_dir), options.game_id,
                         options.commitment, digest=options.digest)
    if options.command == "voices":
        from .voices import make_voices

        return make_voices(None, options.voice)
    if options.command in ("install-service", "update", "uninstall"):
        from . import service_cli

        if options.command == "update":
            return service_cli.update(options.source)
        if options.command == "uninstall":
            return service_cli.uninstall(options.purge)
        args = ["--table", options.table] if options.table else []
        args += ["--public-screen"] if options.public_screen else []
        args += ["--no-public-screen"] if options.no_public_screen else []
        return service_cli.install_service(options.source, args)
    if options.command == "play" or options.command is None:
        from .play import PlaySettings, play

        names = PlaySettings.__dataclass_fields__
        given = {name: getattr(options, name) for name in names if hasattr(options, name)}
        return play(PlaySettings(**given))
    return 2
