"""A table's own War Table deck list: read, dealt from the seed, journaled, and refused clearly."""

from collections import Counter

from companion.app import App
from companion.cli import main
from companion.clock import FakeClock
from companion.journal_sqlite import SqliteJournal
from companion.lobby import StartGame
from engine import registry
from hardware.headless import HeadlessTable
from tests.dealing import deal

DECK = """# our copy of the War Table deck
3 x Police Station
Pump Shotgun
2 x Street Thug [enemy]
"""
KEY = bytes(range(32))


def start_they_live(journal=None) -> App:
    """They Live started with the table's deck list, and every player's character picked."""
    game = registry.get("they-live")
    table = HeadlessTable((1, 2, 3), lambda event: None, clock=FakeClock())
    app = App(table.hardware, clock=FakeClock(), journal=journal, key_source=lambda n: KEY,
              deck_lists={game.key: game.parse_deck_list(DECK)})
    app.start()
    deal(app, StartGame(game, (1, 2, 3), {}))
    assert app.session.state.deck is None  # shuffled once the picks have cut
    for seat in (1, 2, 3):
        app.choose(seat, app.actions(seat)[0], app.clock())
    return app


def test_deck_list_is_shuffled_from_the_seed_with_every_card():
    """The virtual deck holds exactly the listed cards, in an order the seed decides."""
    app = start_they_live()
    assert Counter(app.session.state.deck) == Counter(
        ["Police Station"] * 3 + ["Pump Shotgun"] + ["Street Thug [enemy]"] * 2)
    assert app.session.record.replay().deck == app.session.state.deck


def test_deck_list_survives_a_restart(tmp_path):
    """After a power cut the resumed game draws from the same list in the same order."""
    journal = SqliteJournal(tmp_path / "journal.sqlite3")
    app = start_they_live(journal)
    order = list(app.session.state.deck)
    journal.close()
    record, state = SqliteJournal(tmp_path / "journal.sqlite3").resume()
    assert record.deck_list == app.session.record.deck_list
    assert state.deck == order


def test_deck_list_errors_name_the_file_and_line(tmp_path, capsys):
    """A bad line in the list stops the start with the file and the line number."""
    bad = tmp_path / "deck.txt"
    bad.write_text("3 x Police Station\n0 x Nothing\n")
    assert main(["play", "they-live", "--deck-list", str(bad)]) == 2
    assert f"{bad}: deck list line 2" in capsys.readouterr().err


def test_a_game_without_deck_lists_says_so(tmp_path, capsys):
    """Only games that name a table's own cards take a list; the others refuse it plainly."""
    deck = tmp_path / "deck.txt"
    deck.write_text(DECK)
    assert main(["play", "staying-alive", "--deck-list", str(deck)]) == 2
    assert "Staying Alive takes no deck list" in capsys.readouterr().err
