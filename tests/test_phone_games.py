"""Every game, start to finish, on a table of phones only (``companion play --seats 0
--phones N``'s table): the real app on a fake clock, the real server, and phones speaking
the seat page's protocol over its sealed sockets (tests/phones.py). The browser tests play
Staying Alive on Chromium; this plays all five games, quickly, the same way underneath."""

from __future__ import annotations

import queue
from pathlib import Path

import pytest

from companion.app import App
from companion.clock import FakeClock
from companion.scripts import ScriptRunner, parse
from hardware.base import TableHardware
from hardware.web.seat import WebScreen
from hardware.web.table import phone_seats

from .phones import SocketPhones

SCRIPTS = Path(__file__).parent / "scripts"
WHOLE_GAMES = ("staying_alive_win", "they_live_humans_win", "alter_ego_win",
               "heroes_whole_game", "mind_invaders_unmask")


@pytest.mark.parametrize("name", WHOLE_GAMES)
def test_a_whole_game_is_played_on_phones_only(name: str) -> None:
    """The script's every expectation holds on phone seats, the game ends, and each phone
    shows exactly the screen the app last drew for its seat."""
    settings, commands = parse((SCRIPTS / f"{name}.table").read_text())
    seats = range(1, int(settings["table"].args[0]) + 1)
    key = bytes.fromhex(settings["key"].args[0])
    events: queue.SimpleQueue[object] = queue.SimpleQueue()
    clock = FakeClock()
    hardware = TableHardware(seats=phone_seats(seats, events.put, port=0, listen="127.0.0.1",
                                               clock=clock))
    phones = SocketPhones({n: hardware.seats[n].phone_link or "" for n in seats},
                          lambda: clock.now)
    try:
        app = App(hardware, clock=clock, key_source=lambda n: key)
        app.start()

        def pump() -> None:
            pending = []
            while not events.empty():
                pending.append(events.get())
            app.step(*pending)

        phones.seat_all()
        while not all(app.links.is_up(n) for n in seats):
            app.step(events.get(timeout=10))
        runner = ScriptRunner(app, clock, lambda seat, button, pressed: phones.drive(
            seat, button.value, pressed), pump)
        runner.run(commands)
        assert app.session.state is not None and app.session.state.is_terminal()
        for number in seats:
            screen = hardware.seats[number].screen
            assert isinstance(screen, WebScreen)
            phones.wait_shows(number, screen.rows, screen.lit)
    finally:
        phones.close()
        hardware.close()
