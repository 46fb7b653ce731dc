"""The app on the headless table: start-up, peeks, unplugged displays, stuck buttons."""

from pathlib import Path

import pytest

from companion.exc import ScriptError
from companion.script_cli import ScriptSession, run_script
from hardware.base import ButtonName, SeatLink

DISPLAYOFF, DISPLAYON = 0xAE, 0xAF


def commands_of(bus):
    """Every command byte sent to the display, in order (control byte 0x00)."""
    return [b for t in bus.transfers if t.control == 0x00 for b in t.data]


def test_startup_blanks_every_seat_before_drawing():
    """An OLED keeps its last image across a crash: every seat is switched off first."""
    with ScriptSession("table 2\n") as session:
        buses = session.table.buses
    for bus in buses.values():
        kinds = [(t.control, any(t.data)) for t in bus.transfers]
        first_lit_data = kinds.index((0x40, True))
        assert DISPLAYOFF in commands_of_prefix(bus, first_lit_data)


def commands_of_prefix(bus, end):
    return [b for t in bus.transfers[:end] if t.control == 0x00 for b in t.data]


def test_join_shows_on_every_seat():
    """Pressing ACT on a seat joins it, and every seat's screen counts the players."""
    app, _ = run_script("table 3\njoin 1 3\nexpect 2 \"Players: 2\"\nexpect 2 \"Seats: 1 3\"\n")
    assert app.session.lobby.joined == [1, 3]


def test_peek_release_switches_display_off_first():
    """Leaving a peek sends display-off before any other byte, and display-on last."""
    with ScriptSession("table 2\nhold 1 peek 2s\nexpect 1 \"Nothing secret\"\n") as session:
        session.run()
        bus = session.table.buses[1]
        bus.clear()
        session.table.drive(1, ButtonName.PEEK, False)
        session.pump()
        first, last = bus.transfers[0], bus.transfers[-1]
        assert (first.control, first.data[0]) == (0x00, DISPLAYOFF)
        assert last.control == 0x00 and DISPLAYON in last.data
        assert "Press ACT to join" in session.app.screens.faces[1].text()


def test_peek_is_blanked_after_the_longest_peek():
    """A PEEK held too long goes back to the public face on its own."""
    app, _ = run_script("table 2\nhold 1 peek 12s\nexpect 1 \"Press ACT\"\n")
    assert not app.ui[1].peeking


def test_unplugged_display_keeps_the_table_going():
    """A display that stops answering is shown offline on the others and redrawn when back."""
    script = """table 3
unplug 2
join 1
expect offline 2
expect 1 "Seat 2 offline"
join 3
expect 3 "Players: 2"
replug 2
wait 3s
expect 2 "Players: 2"
expect 1 not "offline"
"""
    app, _ = run_script(script)
    assert app.links.is_up(2)


def test_stuck_button_is_reported_on_its_seat():
    """A button held for over 30 s is named on its seat and ignored until let go."""
    app, _ = run_script("table 2\nhold 1 act 31s\nexpect 1 \"ACT stuck\"\nrelease 1 act\n"
                        "wait 100ms\nexpect 1 not \"stuck\"\n")
    assert app.session.lobby.joined == [1]


def test_script_error_names_the_line():
    """A failed expectation is reported with its line number."""
    with pytest.raises(ScriptError, match="line 3: seat 1 does not show 'Hello'"):
        run_script("table 2\n\nexpect 1 \"Hello\"\n")


def test_script_unknown_command_names_the_line():
    """A typo in a script is reported with its line and the commands there are."""
    with pytest.raises(ScriptError, match="line 2: unknown command 'presss'"):
        run_script("table 2\npresss 1 act\n")


def test_one_button_seat_taps_to_act_and_holds_to_peek():
    """A one-button seat joins with a short press and sees its PEEK face while holding."""
    script = """table 2
one-button 2
tap 2 act
expect 1 "Seats: 2"
hold 2 act 1s
expect 2 "Nothing secret"
release 2 act
wait 100ms
expect 2 "Joined"
"""
    app, _ = run_script(script)
    assert app.session.lobby.joined == [2]


STAYING_ALIVE_RUNNING = (Path(__file__).parent / "scripts" / "staying_alive_win.table").read_text(
).split("# Turn 1")[0]


def test_seat_going_offline_pauses_the_game_until_it_is_back():
    """A pod that goes quiet stops the hourglass; when it is back the game runs on."""
    with ScriptSession(STAYING_ALIVE_RUNNING) as session:
        session.run()
        app = session.app
        app.handle(SeatLink(2, up=False))
        assert app.session.state.paused and "Seat 2 offline" in app.screens.faces[1].text()
        shown = app.screens.faces[1].big
        session.runner.wait(30)
        assert app.screens.faces[1].big == shown
        app.handle(SeatLink(2, up=True))
        assert not app.session.state.paused
        assert [e.action for e in app.session.record.entries[-2:]] == ["pause", "resume"]


def test_a_players_pause_outlasts_a_seat_coming_back():
    """Only the pause the link made is lifted when the seat is back."""
    with ScriptSession(STAYING_ALIVE_RUNNING + 'choose 1 "Pause"\n') as session:
        session.run()
        app = session.app
        app.handle(SeatLink(2, up=False))
        app.handle(SeatLink(2, up=True))
        assert app.session.state.paused


def test_public_view_keeps_the_commitment_and_reveals_the_key_at_the_end():
    """The public view shows the commitment all game, never the key or the seed, and the
    key (whole, over two lines) once the game is over; "Seed" names neither."""
    from engine.rng import commitment

    with ScriptSession(STAYING_ALIVE_RUNNING) as session:
        session.run()
        app = session.app
        key, seed = app.session.record.key, app.session.record.seed
        public = "\n".join(app.view(None).lines)
        assert f"Commitment {commitment(key)}" in public
        assert key.hex()[:16] not in public and seed.hex()[:16] not in public
        session.runner.wait(95)
        assert app.session.state.is_terminal()
        public = "\n".join(app.view(None).lines)
        assert key.hex()[:32] in public and key.hex()[32:] in public
        assert "seed" not in public.lower()
