"""The command line: one clear line for every mistake a person can make at it."""

import pytest

from companion.cli import main


def test_cli_real_table_without_gpio_says_what_to_do(capsys, tmp_path):
    """--table on a machine with no GPIO names the cause and both ways forward."""
    code = main(["play", "--table", "hardware/tables/kitchen.toml", "--volume", "0",
                 "--state-dir", str(tmp_path)])
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert code == 2
    assert err.startswith("companion: no GPIO on this machine")
    assert "sudo apt install python3-lgpio" in err and "leave out --table" in err


def test_cli_unknown_game_lists_the_games(capsys):
    """A mistyped game key is refused with the list of games."""
    assert main(["play", "staying-alvie", "--volume", "0"]) == 2
    assert "staying-alive" in capsys.readouterr().err


def test_cli_version_and_games(capsys):
    """--version answers with the version; games lists all five."""
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0 and capsys.readouterr().out.startswith("companion ")
    assert main(["games"]) == 0
    assert len(capsys.readouterr().out.strip().splitlines()) == 5
