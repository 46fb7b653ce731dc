"""The command line: one clear line for every mistake a person can make at it."""

import pytest

from companion.cli import main


def test_cli_real_table_without_gpio_says_what_to_do(capsys, tmp_path):
    """--table on a machine with no GPIO names the cause and both ways forward."""
    code = main(["play", "--table", "hardware/table.example.toml", "--volume", "0",
                 "--state-dir", str(tmp_path)])
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert code == 2
    assert err.startswith("companion: no GPIO on this machine")
    assert "'pi' extra" in err and "leave out --table" in err


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


@pytest.mark.parametrize(("args", "said"), [
    (["play", "--players", "-3"], "--players: -3 is not between 1 and 8"),
    (["play", "--players", "0"], "--players: 0 is not between 1 and 8"),
    (["play", "--seats", "99"], "--seats: 99 is not between 1 and 8"),
    (["play", "--volume", "-1"], "--volume: -1 is not between 0 and 100"),
    (["play", "--seats", "two"], "--seats: 'two' is not a whole number"),
    (["audit", "0"], "GAME-ID: 0 is not between 1 and"),
])
def test_cli_numbers_out_of_range_are_refused_in_one_line(args, said, capsys):
    """``--players -3`` once joined seats 1 to 3: every number is range-checked first."""
    with pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code == 2 and said in capsys.readouterr().err
