"""The command line: one clear line for every mistake a person can make at it."""

import os
import subprocess
import sys
from pathlib import Path

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


def companion(*args: str, **more_env: str) -> subprocess.CompletedProcess[str]:
    """The real command in its own process, started without a terminal (as by systemd)."""
    env = {key: value for key, value in os.environ.items() if key != "GPIOZERO_PIN_FACTORY"}
    env.update(more_env)
    return subprocess.run([sys.executable, "-m", "companion", *args], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, env=env, timeout=120)


def test_cli_real_table_without_gpio_says_only_our_line(tmp_path):
    """Off a Pi the error is the one line: no library's warnings come before it."""
    done = companion("play", "--table", "hardware/tables/kitchen.toml", "--volume", "0",
                     "--state-dir", str(tmp_path))
    assert done.returncode == 2
    assert done.stderr.splitlines() == [done.stderr.strip()]
    assert done.stderr.startswith("companion: no GPIO on this machine")


def test_cli_play_without_a_terminal_says_what_to_do_instead(tmp_path):
    """`companion play` with stdin at /dev/null (a service, cron, nohup): what to run
    instead, not "[Errno 1] Operation not permitted", and the terminal is not taken over."""
    # No sound card either: the speaker's own warning must not come before the one line.
    done = companion("play", "--state-dir", str(tmp_path), ALSA_CONFIG_PATH="/nonexistent")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [done.stderr.strip()]
    assert done.stderr.splitlines()[-1] == (
        "companion: the simulated table reads its keys from a terminal, and this input is "
        "none (/dev/null or a file): run companion play in a terminal (ssh -t for one over "
        "SSH), or play a script without one: companion script FILE")
    assert "\x1b[?1049h" not in done.stdout


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


def test_cli_players_outside_the_games_range_are_refused_at_once(capsys, tmp_path):
    """They Live is for 3 to 6: ``--players 2`` is refused before the table opens, in the
    game's numbers (it was accepted, and Start refused it at the table)."""
    state = tmp_path / "state"
    code = main(["play", "they-live", "--players", "2", "--volume", "0",
                 "--state-dir", str(state)])
    assert code == 2
    assert capsys.readouterr().err.strip() == "companion: --players 2: They Live is for 3-6 players"
    assert not state.exists()  # refused before anything was opened


def test_cli_pod_firmware_writes_a_pods_flash(capsys, tmp_path):
    """`companion pod-firmware DIR` lays out a pod's flash as firmware/README.md does (and as
    the pod tests run it): the firmware's modules, and podproto/, the protocol package the
    companion imports too; then it says how they get onto the Pico."""
    repo = Path(__file__).resolve().parent.parent
    wanted = {path.name: path for path in (repo / "firmware").glob("*.py")}
    wanted |= {f"podproto/{path.name}": path for path in (repo / "podproto").glob("*.py")}
    assert main(["pod-firmware", str(tmp_path)]) == 0
    written = {str(path.relative_to(tmp_path)): path for path in tmp_path.rglob("*.py")}
    assert sorted(written) == sorted(wanted)
    assert all(written[name].read_bytes() == wanted[name].read_bytes() for name in wanted)
    said = capsys.readouterr().out
    assert "mpremote mkdir :podproto" in said and f"{tmp_path}/podproto/*.py :podproto/" in said


def test_cli_phone_links_stay_on_screen_until_the_terminal_table_takes_it(tmp_path):
    """The simulated table takes the whole terminal: the phone links wait for Enter first."""
    import os
    import pty
    import socket
    import subprocess
    import sys

    with socket.socket() as probe:  # a free port on loopback
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "play", "--seats", "1", "--phones", "1",
         "--phone-port", str(port), "--state-dir", str(tmp_path)],
        stdin=follower, stdout=follower, stderr=follower, close_fds=True,
        env=os.environ)  # the suite's null speaker (tests/conftest.py)
    os.close(follower)
    seen = b""
    try:
        # Until the prompt, or the table taking the screen (which must not come first).
        while b"press Enter" not in seen and b"\x1b[?1049h" not in seen:
            chunk = os.read(leader, 4096)  # blocks until the process writes
            assert chunk, seen
            seen += chunk
        assert b"press Enter" in seen, "the table took the screen before the links were read"
        assert b"Phone seat 2: http://" in seen and b"/seat/2#" in seen
    finally:
        process.kill()
        process.wait()
        os.close(leader)
