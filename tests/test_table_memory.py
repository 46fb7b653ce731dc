"""A table remembers: card values, each game's options and each seat's cues, in one file
that survives a restart, is private, and never takes the table down when damaged."""

from __future__ import annotations

import json
import stat

from companion.app import App
from companion.clock import FakeClock
from companion.game_mode import SETTLE
from companion.lobby import Lobby
from companion.memory import TableMemory
from companion.statedir import memory_path
from engine import registry
from engine.api import Buzz, Vibrate
from engine.cues import Tune
from hardware.headless import HeadlessTable
from hardware.pods.screen import PodBuzzer
from podproto import wire

THEY_LIVE = registry.get("they-live")


def _app(tmp_path, seats: int = 3, *, has_speaker: bool = True) -> App:
    numbers = range(1, seats + 1)
    memory = TableMemory(memory_path(tmp_path))
    table = HeadlessTable(numbers, lambda event: None, clock=FakeClock())
    lobby = Lobby.prepared(list(numbers), list(numbers), memory=memory, has_speaker=has_speaker)
    app = App(table.hardware, clock=FakeClock(), lobby=lobby,
              key_source=lambda n: b"m" * n)
    app.start()
    return app


def _choose(app: App, seat: int, label: str) -> None:
    action = next(a for a in app.actions(seat) if a.label.startswith(label))
    app.choose(seat, action, app.clock())


def _enter_15(app: App, seat: int) -> None:
    """Three +5 from "?" (0 + 15; a CRITICAL stops below the health), then OK."""
    for _ in range(3):
        _choose(app, seat, "+5")
    _choose(app, seat, "OK")


def _end_to_lobby(app: App) -> None:
    """End game (it ends as any game ends, its outcome shown), then on to the lobby."""
    _choose(app, 1, "End game")
    _choose(app, 1, "Yes")
    app.clock.raw.advance(SETTLE)  # type: ignore[attr-defined]  # the outcome read first
    _choose(app, 1, "New game")
    _choose(app, 1, "Yes")


def _start_they_live(app: App, names=("Nada", "Holly", "Dixon")) -> None:
    _choose(app, 1, "Choose game")
    _choose(app, 1, "They Live")
    _choose(app, 1, "Start")  # each player's pick is that player's cut
    for seat, name in zip((1, 2, 3), names, strict=True):
        _choose(app, seat, name)


def test_table_memory_card_values_are_kept_for_the_next_game_and_the_next_run(tmp_path):
    """Values entered once are not asked again: in the next game, and after a restart."""
    app = _app(tmp_path)
    _start_they_live(app)
    for seat in (1, 1, 2, 2, 3):
        _enter_15(app, seat)
    assert app.session.state.phase == "identity"
    _end_to_lobby(app)
    again = _app(tmp_path)  # a new process on the same state directory
    _start_they_live(again)
    assert again.session.state.phase == "identity"
    assert again.session.state.players[1].max_health == 15
    assert again.session.record.options["known:Nada.health"] == "15"


def test_table_memory_file_is_private_documented_json(tmp_path):
    """Mode 0600, and the shape docs/table-memory.md describes."""
    app = _app(tmp_path)
    _start_they_live(app)
    _enter_15(app, 1)
    path = memory_path(tmp_path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    data = json.loads(path.read_text())
    assert data["version"] == 1 and data["recent"] == ["they-live"]
    assert data["values"] == {"they-live": {"Nada.health": 15}}
    assert data["options"] == {"they-live": {"check": "narrated", "die": "physical"}}


def test_table_memory_damaged_file_is_reported_and_ignored(tmp_path):
    """A damaged file never stops the table: every seat is told, play goes on, and the next
    change writes a good file."""
    memory_path(tmp_path).write_text('{"version": 1, "values": {"they-live": {"x": -3}}}')
    app = _app(tmp_path)
    assert all("Table memory damaged" in app.ui[seat].notice for seat in (1, 2, 3))
    _start_they_live(app)
    _enter_15(app, 1)
    assert json.loads(memory_path(tmp_path).read_text())["values"] == {
        "they-live": {"Nada.health": 15}}


def test_table_memory_garbage_file_is_ignored(tmp_path):
    memory_path(tmp_path).write_bytes(b"\xff\x00 not json")
    memory = TableMemory(memory_path(tmp_path))
    assert memory.problem and memory.known("they-live") == {}


def test_table_memory_options_per_game_and_the_last_game_offered_first(tmp_path):
    """"Check: silent" set once is the option the next They Live game opens with; the game
    list starts with the game the table played last."""
    app = _app(tmp_path)
    _choose(app, 1, "Choose game")
    _choose(app, 1, "They Live")
    _choose(app, 1, "Check")
    _choose(app, 1, "Start")
    _end_to_lobby(app)
    _choose(app, 1, "Choose game")
    assert app.actions(1)[0].label == "They Live"
    _choose(app, 1, "They Live")
    assert "Check: silent" in [a.label for a in app.actions(1)]


def test_table_memory_without_a_speaker_the_check_starts_silent_and_says_why(tmp_path):
    """Narration nobody hears is text on screens nobody may read: silent comes first."""
    app = _app(tmp_path, has_speaker=False)
    _choose(app, 1, "Choose game")
    _choose(app, 1, "They Live")
    assert "Check: silent" in [a.label for a in app.actions(1)]
    assert "No speaker: silent" in app.view(1).lines


def test_table_memory_a_seat_turns_its_own_vibration_off(tmp_path):
    """Seat 2's vibration off: its private cues are not felt; seat 1's still are."""
    app = _app(tmp_path)
    pulses = []
    for number, seat in app.hardware.seats.items():
        seat.vibrator = type("V", (), {"pulse": lambda self, p, n=number: pulses.append(n),
                                       "close": lambda self: None})()
    _choose(app, 2, "Vibrate: on")
    assert "Vibrate: off" in [a.label for a in app.actions(2)]
    app.effects.play([Vibrate(1), Vibrate(2)], app.clock())
    app.effects.release()
    assert pulses == [1]
    assert TableMemory(memory_path(tmp_path)).cue(2, "vibration") == "off"


class Heard:
    """A buzzer that writes down each tune and the volume it was asked for."""

    def __init__(self) -> None:
        self.tunes: list[tuple[str, float]] = []

    def play(self, tune: str, volume: float = 1.0) -> None:
        self.tunes.append((tune, volume))

    def sounds(self) -> bool:
        return True

    def close(self) -> None:
        pass


def test_table_memory_any_seat_sets_the_table_volume(tmp_path):
    """Seat 2 turns the table's volume down: the shared buzzer plays quieter, every seat's
    menu says so, and the table remembers it."""
    app = _app(tmp_path)
    app.hardware.buzzer = buzzer = Heard()
    _choose(app, 2, "Table volume: high")
    assert "Table volume: low" in [a.label for a in app.actions(1)]
    app.effects.play([Buzz(Tune.TURN)], app.clock())
    app.effects.release()
    _choose(app, 3, "Table volume: low")
    app.effects.play([Buzz(Tune.TURN)], app.clock())
    app.effects.release()
    assert buzzer.tunes == [(Tune.TURN, 0.2), (Tune.TURN, 0.0)]
    assert TableMemory(memory_path(tmp_path)).cue(None, "table-volume") == "off"


def test_table_memory_a_seat_with_a_piezo_sets_its_own_volume(tmp_path):
    """Only a seat whose pod has a piezo is offered "My volume"; it scales the level that pod
    is sent, and Off sends it nothing. The shared buzzer keeps the table's volume."""
    memory = TableMemory(memory_path(tmp_path))
    table = HeadlessTable([1, 2], lambda event: None, clock=FakeClock())
    sent: list[tuple[int, bytes]] = []
    table.hardware.seats[1].buzzer = PodBuzzer(lambda kind, data: sent.append((kind, data))
                                               or True, has_piezo=lambda: True)
    lobby = Lobby.prepared([1, 2], [1, 2], memory=memory)
    app = App(table.hardware, clock=FakeClock(), lobby=lobby, key_source=lambda n: b"m" * n)
    app.start()
    assert "My volume: high" in [a.label for a in app.actions(1)]
    assert not any(a.label.startswith("My volume") for a in app.actions(2))
    levels = []
    for label in ("My volume: high", "My volume: low", None):
        sent.clear()
        app.effects.play([Buzz(Tune.TURN)], app.clock())
        app.effects.release()
        levels.append([wire.parse_buzz(data)[0] for kind, data in sent if kind == wire.BUZZ])
        if label:
            _choose(app, 1, label)
    assert levels == [[255], [51], []]
    assert TableMemory(memory_path(tmp_path)).cue(1, "volume") == "off"
    assert memory.volume(None) == 1.0


def test_table_memory_replayed_game_keeps_its_values(tmp_path):
    """Undo and resume replay a game from its journaled options: the known values too."""
    app = _app(tmp_path)
    _start_they_live(app)
    for seat in (1, 1, 2, 2, 3):
        _enter_15(app, seat)
    _end_to_lobby(app)
    _start_they_live(app)
    _choose(app, 1, "Done")
    replayed = app.session.record.replay()
    assert replayed.players[1].max_health == 15 and replayed.phase == "identity"
