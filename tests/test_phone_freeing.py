"""Freeing a phone seat from the lobby, in real browsers: the lobby says which seats are
phones (on the public page too), any joined player frees one, the device that held it gets a
clear page, and the link then seats another device."""

from __future__ import annotations

import pytest

from companion.scripts import ScriptRunner, parse
from hardware.web.table import with_browser_public

from .phones import Phone, needs_chromium
from .test_phone_browser import PhoneTable

pytestmark = needs_chromium
KEY = bytes(range(32))


@pytest.fixture()
def table():
    table = PhoneTable(3, KEY)
    try:
        table.seat_phones(range(1, 3))
        yield table
    finally:
        table.close()


def test_a_joined_player_frees_a_phone_seat_and_another_device_takes_it(table):
    server = with_browser_public(table.hardware)
    assert server is not None
    runner = ScriptRunner(table.app, table.clock, table.drive, table.pump)
    runner.run(parse("join 1 2")[1])
    watcher = Phone()
    newcomer = Phone()
    try:
        watcher.open(server.public_link(), table.clock.now)
        watcher.wait_for("state", "showing")
        rows = watcher.driver.find_elements("css selector", "#lines p")
        assert [row.text for row in rows] == ["Players: 2", "Seats: 1 2", "Phones: 1 2 3",
                                              "Then: Choose game"]
        assert watcher.text("joinable") == "Free phone seats: 3"

        newcomer.open(table.link(2), table.clock.now)  # held by the first phone: refused
        newcomer.wait_for("state", "refused")
        runner.run(parse('choose 1 "Free phone seat 2"')[1])
        table.pump(until=lambda: not table.app.links.is_up(2))
        table.phones[2].wait_for("state", "refused")
        assert table.phones[2].text("refused-title") == "Seat freed"
        assert table.app.session.mode.joined == [1]  # whoever opens the link joins anew
        watcher.wait_text("joinable", "Free phone seats: 2 3")

        newcomer.driver.get("about:blank")  # the same address again would not load anew
        newcomer.open(table.link(2), table.clock.now)
        newcomer.wait_for("state", "playing")
        table.pump(until=lambda: table.app.links.is_up(2))
        table.phones[2].close()
        table.phones[2] = newcomer
        table.shows(2)
        runner.run(parse("join 2")[1])
        assert table.app.session.mode.joined == [1, 2]
    finally:
        watcher.close()


def test_in_a_game_a_player_frees_a_lost_phone_and_its_seat_plays_on_elsewhere(table):
    """A phone lost mid-game: another player frees its seat from the table's menu, the game
    goes on as it was, and the link seats the new device in the same game."""
    runner = ScriptRunner(table.app, table.clock, table.drive, table.pump)
    runner.run(parse('join 1 2\nchoose 1 "Choose game"\nchoose 1 "Heroes Love to Lie"\n'
                     'choose 1 "Start game"\ncut 1 2')[1])
    state = table.app.session.state
    assert not state.is_terminal()
    assert "Free phone seat 1" not in [a.label for a in table.app.actions(1)]  # not itself
    newcomer = Phone()
    try:
        runner.run(parse('choose 1 "Free phone seat 2"')[1])
        table.pump(until=lambda: not table.app.links.is_up(2))
        table.phones[2].wait_for("state", "refused")
        assert table.phones[2].text("refused-title") == "Seat freed"
        assert table.app.session.state is state and 2 in state.seats  # the game plays on
        newcomer.open(table.link(2), table.clock.now)
        newcomer.wait_for("state", "playing")
        table.pump(until=lambda: table.app.links.is_up(2))
        table.phones[2].close()
        table.phones[2] = newcomer
        table.shows(2)  # the new device shows seat 2's face in the same game
    finally:
        newcomer.close()
