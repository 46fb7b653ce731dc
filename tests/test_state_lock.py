"""One writer per state directory: a second companion says who holds it and exits 2."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from companion.cli import main
from companion.exc import StateDirBusy
from companion.statedir import hold_state_dir, prepare_state_dir

HOLDER = ("import sys; from pathlib import Path; from companion.statedir import hold_state_dir;"
          "hold_state_dir(Path(sys.argv[1])); print('held', flush=True); sys.stdin.read()")


def test_a_second_copy_is_refused_in_one_line_naming_the_holder(tmp_path, capsys):
    where = prepare_state_dir(tmp_path / "state")
    fd = hold_state_dir(where)
    try:
        assert main(["play", "--state-dir", str(where), "--players", "3"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1
        assert f"pid {os.getpid()}" in err and str(where) in err
    finally:
        os.close(fd)


def test_the_lock_dies_with_a_killed_holder(tmp_path):
    """SIGKILL leaves no stale lock: the kernel releases flock with the process."""
    where = prepare_state_dir(tmp_path / "state")
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(where)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"  # waits on the child, not a clock
        with pytest.raises(StateDirBusy, match=f"pid {holder.pid}"):
            hold_state_dir(where)
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    os.close(hold_state_dir(where))
