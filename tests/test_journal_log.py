"""Under systemd the companion's log lines carry journald's priority prefix, so
`journalctl -p warning` shows its warnings and errors and not the rest; in a terminal, a pipe
or a file of one's own the lines stay plain. Real processes, stderr a real file, and
JOURNAL_STREAM set as systemd sets it (the stream's device:inode)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

LOGS = """
import logging
from companion.journal_log import log_handler
logging.basicConfig(level=logging.DEBUG, handlers=[log_handler()])
log = logging.getLogger("hardware.drivers.oled")
log.debug("polled")
log.info("seat 2 display back")
log.warning("seat 2 display gone")
try:
    raise OSError("bus 1 gone")
except OSError:
    log.exception("cannot write")
log.critical("the journal cannot be opened")
"""


def stderr_of(tmp_path: Path, args: list[str], journal: bool) -> list[str]:
    """What the process wrote to its stderr, a file that is (or is not) the journal stream."""
    log = tmp_path / "stderr"
    with open(log, "w") as stream:
        info = os.fstat(stream.fileno())
        env = {key: value for key, value in os.environ.items() if key != "JOURNAL_STREAM"}
        if journal:
            env["JOURNAL_STREAM"] = f"{info.st_dev}:{info.st_ino}"
        subprocess.run([sys.executable, *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=stream, env=env, timeout=120)
    return log.read_text().splitlines()


def test_log_lines_carry_their_priority_in_the_journal(tmp_path) -> None:
    """debug 7, info 6, warning 4, error 3 (every line of its traceback), critical 2."""
    lines = stderr_of(tmp_path, ["-c", LOGS], journal=True)
    assert lines[:4] == ["<7>DEBUG hardware.drivers.oled: polled",
                         "<6>INFO hardware.drivers.oled: seat 2 display back",
                         "<4>WARNING hardware.drivers.oled: seat 2 display gone",
                         "<3>ERROR hardware.drivers.oled: cannot write"]
    traceback = lines[4:-1]
    assert traceback[0] == "<3>Traceback (most recent call last):"
    assert traceback[-1] == "<3>OSError: bus 1 gone"
    assert all(line.startswith("<3>") for line in traceback)
    assert lines[-1] == "<2>CRITICAL hardware.drivers.oled: the journal cannot be opened"
    shown = [line for line in lines if int(line[1]) <= 4]  # journalctl -p warning
    assert "<6>INFO hardware.drivers.oled: seat 2 display back" not in shown


@pytest.mark.parametrize("journal", [True, False])
def test_the_companions_own_error_line_is_an_error_in_the_journal(tmp_path, journal) -> None:
    """The one line `companion` ends with is filed as an error, and is plain elsewhere."""
    lines = stderr_of(tmp_path, ["-m", "companion", "play", "--table",
                                 "hardware/tables/kitchen.toml", "--volume", "0",
                                 "--state-dir", str(tmp_path / "games")], journal)
    assert lines[-1].startswith("<3>companion: no GPIO" if journal else "companion: no GPIO")


def test_outside_the_journal_lines_stay_plain(tmp_path) -> None:
    """A file that is not the journal stream (JOURNAL_STREAM inherited from a service that
    started us, say) gets no prefixes."""
    lines = stderr_of(tmp_path, ["-c", LOGS], journal=False)
    assert lines[2] == "WARNING hardware.drivers.oled: seat 2 display gone"
    assert not any(line.startswith("<") for line in lines)
