"""What a running hourglass costs on each seat's I2C bus, measured on the real luma drivers."""

from pathlib import Path

from companion.render import BIG_SIZE, large_font
from companion.script_cli import ScriptSession

SETUP = (Path(__file__).parent / "scripts" / "staying_alive_win.table").read_text().split(
    "# Turn 1"
)[0]


def test_hourglass_second_costs_under_160_bytes_per_seat():
    """Each hourglass tick sends a seat under 160 bytes (a full frame is about 1030).

    The one exception is the minute rolling over ("1:00" -> "0:59", three digits at once),
    which stays under 250; averaged over the minute a seat's bus carries under 80 bytes/s.
    """
    with ScriptSession(SETUP) as session:
        session.run()
        session.runner.wait(4.5)  # let the start notices expire: only the clock changes now
        costs: dict[str, list[int]] = {}
        for _ in range(60):
            for bus in session.table.buses.values():
                bus.clear()
            session.runner.wait(1.0)
            shown = session.app.screens.faces[1].big
            costs[shown] = [bus.bytes_sent for bus in session.table.buses.values()]
    rollover = costs.pop("0:59")
    assert all(0 < cost < 250 for cost in rollover)
    assert all(0 < cost < 160 for seat_costs in costs.values() for cost in seat_costs)
    per_seat = [sum(c[i] for c in costs.values()) + rollover[i] for i in range(len(rollover))]
    assert all(total / 60 < 80 for total in per_seat)


def test_hourglass_digits_are_big_enough_to_read_at_arms_length():
    """The seconds are drawn 24 pixels tall: about 4 mm on a 0.96-inch OLED, like 16 pt print."""
    top, bottom = large_font(BIG_SIZE).getbbox("0")[1::2]
    assert bottom - top >= 24


def test_nothing_is_sent_while_nothing_changes():
    """A paused table sends no bytes at all: unchanged frames are skipped."""
    with ScriptSession(SETUP + '\nchoose 1 "Pause"\nwait 5s\n') as session:
        session.run()
        for bus in session.table.buses.values():
            bus.clear()
        session.runner.wait(10.0)
        assert all(bus.bytes_sent == 0 for bus in session.table.buses.values())
        assert session.app.session.state.paused
        assert "PAUSED" in session.app.screens.faces[1].text()
