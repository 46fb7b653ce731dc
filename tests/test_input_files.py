"""Files a person hands the companion: bounded, regular, named in one clear line."""

from __future__ import annotations

import os
import threading

import pytest

from companion.cli import main


@pytest.mark.parametrize("command", ["check-config", "script"])
@pytest.mark.parametrize("path", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_a_device_is_refused_at_once(command, path, capsys):
    """/dev/zero once read 2 GB; /dev/urandom hung: now neither is read at all."""
    assert main([command, path]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a regular file" in err and path in err


@pytest.mark.parametrize("command", ["check-config", "script"])
def test_a_fifo_does_not_hang(command, tmp_path, capsys):
    """Opening a FIFO blocks until a writer comes; we never wait for one."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    result: list[int] = []
    worker = threading.Thread(target=lambda: result.append(main([command, str(fifo)])))
    worker.start()
    worker.join(timeout=30)  # a safety net for a regression only: it returns at once
    if worker.is_alive():  # unblock the thread so the suite can go on, then fail
        with open(fifo, "w"):
            pass
        worker.join()
        pytest.fail(f"companion {command} blocked on a FIFO")
    assert result == [2] and "not a regular file" in capsys.readouterr().err


@pytest.mark.parametrize(("command", "limit"), [("check-config", 16 * 1024),
                                                ("script", 1024 * 1024)])
def test_a_huge_file_is_refused_by_its_size(command, limit, tmp_path, capsys):
    big = tmp_path / "big"
    big.write_bytes(b"#" * (limit + 1))
    assert main([command, str(big)]) == 2
    assert "too big" in capsys.readouterr().err


def test_a_script_with_a_superscript_count_names_the_line(tmp_path, capsys):
    """`table ²` is digits to str.isdigit but not to int(): the line says what to write."""
    script = tmp_path / "odd.table"
    script.write_text("table ²\njoin 1\n", encoding="utf-8")
    assert main(["script", str(script)]) == 2
    err = capsys.readouterr().err
    assert f"{script}:1: table: 1 to 8 seats" in err and "invalid literal" not in err
