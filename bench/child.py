"""The measurements that need a process of their own: ``python -m bench.child ROLE [ARG]``.

Each role prints one JSON line on stdout. Imports are inside the roles, so ``bare`` shows what
an interpreter costs before any of the companion is loaded.

- ``ready JOURNAL``: build an 8-seat table and start the app on the journal, which replays
  the game in it; ``ready_at`` is the monotonic moment the first frame is on every seat (the
  parent started its clock just before launching us).
- ``memory SEATS PLAYERS THINK``: play a whole game through the buttons (``THINK`` table
  seconds between moves), then report resident memory.
- ``idle LOOP JOURNAL``: start a game with the hourglass running, journaled as in production
  (the app writes the sand every few seconds), with the speaker open and silent (SDL's dummy
  audio: its audio thread as on a Pi's sound card), say ``ready``, then run the app on loop
  ``LOOP`` (``event`` or ``poll``) until the parent ends us.
- ``reconnects ROUNDS``: an 8-seat table started, then every display reconnected (a new luma
  device, luma's init sequence) and redrawn in full ``ROUNDS`` times; the growth of
  resident memory over those rounds, after two rounds to warm up.
- ``bare``: resident memory of the interpreter alone.
"""

from __future__ import annotations

import json
import sys
import time


def ready(journal_path: str) -> dict:
    import queue

    from companion.app import App
    from companion.journal_sqlite import SqliteJournal
    from hardware.headless import HeadlessTable

    table = HeadlessTable(range(1, 9), queue.Queue().put)
    app = App(table.hardware, journal=SqliteJournal(journal_path))
    app.start()
    if len(app.screens.faces) != len(table.hardware.seats):
        raise RuntimeError("app.start() left a seat without a frame")
    ready_at = time.monotonic()
    if app.session.state is None:
        raise RuntimeError("the journal held no game to resume")
    return {"ready_at": ready_at, "replayed": len(app.session.record.entries)}


def memory(seats: str, players: str, think: str) -> dict:
    from .proc import resident_kib
    from .table import BenchTable

    with BenchTable(int(seats)) as table:
        table.open_game(int(players))
        while not (table.app.session.state and table.app.session.state.is_terminal()):
            table.play_move(think=float(think))
        rss, peak = resident_kib()
    return {"rss_kib": rss, "peak_kib": peak}


def idle(loop: str, journal_path: str) -> dict:
    import queue
    import threading
    from pathlib import Path

    from companion.app import App
    from hardware.base import QuitRequested
    from hardware.drivers.voice import PromptCache, open_speaker
    from hardware.headless import HeadlessTable

    from .journal import RunningJournal
    from .loops import LOOPS, deal_to_start
    from .table import PLAYERS, SEATS

    events: queue.Queue = queue.Queue()
    with HeadlessTable(range(1, SEATS + 1), events.put) as table:
        voice = PromptCache(Path(journal_path).parent / "voice")
        table.hardware.speaker = open_speaker(voice, volume=0.8)
        app = App(table.hardware, journal=RunningJournal(Path(journal_path)))
        lookout = deal_to_start(app, PLAYERS, {"hourglass": "180"})
        app.choose(lookout, "start", app.clock())
        safety = threading.Timer(150, events.put, (QuitRequested("bench safety"),))
        safety.daemon = True
        safety.start()
        _say({"ready": True})
        LOOPS[loop](app, events)
    return {"stopped": True}


def reconnects(rounds: str) -> dict:
    import gc
    import queue

    from companion.app import App
    from hardware.headless import HeadlessTable

    from .proc import resident_kib

    def reconnect_all(app: App) -> None:
        for number in app.seat_numbers:
            app.screens.forget(number)
            app.screens.reconnect(number, app.clock())
        app.redraw()
        for bus in table.buses.values():
            bus.clear()  # the recording bus keeps every transfer; a real bus keeps none

    with HeadlessTable(range(1, 9), queue.Queue().put) as table:
        app = App(table.hardware)
        app.start()
        for _ in range(2):
            reconnect_all(app)
        gc.collect()
        before, _ = resident_kib()
        for _ in range(int(rounds)):
            reconnect_all(app)
        gc.collect()
        after, _ = resident_kib()
    return {"growth_kib": after - before}


def bare() -> dict:
    from .proc import resident_kib

    rss, peak = resident_kib()
    return {"rss_kib": rss, "peak_kib": peak}


ROLES = {"ready": ready, "memory": memory, "idle": idle, "reconnects": reconnects,
         "bare": bare}


def _say(document: dict) -> None:
    print(json.dumps(document), flush=True)


if __name__ == "__main__":
    role, *args = sys.argv[1:]
    _say(ROLES[role](*args))
