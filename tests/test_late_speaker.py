"""The loudspeaker opens after the table is ready, on its own thread, and speaks from then on."""

from __future__ import annotations

import queue
import threading

from companion.app import App
from companion.clock import FakeClock
from companion.speaker import LateSpeaker
from hardware.base import QuitRequested, Speaker
from hardware.headless import HeadlessTable


class Mouth(Speaker):
    def __init__(self) -> None:
        self.said: list[str] = []
        self.closed = False

    def say(self, text: str) -> None:
        self.said.append(text)

    def close(self) -> None:
        self.closed = True


def test_the_speaker_opens_only_once_the_seats_are_ready():
    """The loop opens the speaker after READY (every seat drawn), not before."""
    clock = FakeClock()
    opened_with_faces: list[int] = []
    mouth = Mouth()
    events: queue.Queue = queue.Queue()
    with HeadlessTable((1, 2, 3), events.put, clock=clock) as table:
        app = App(table.hardware, clock=clock)

        def open_speaker() -> Speaker:
            opened_with_faces.append(len(app.screens.faces))
            return mouth

        speaker = LateSpeaker(open_speaker)
        events.put(QuitRequested("test"))
        app.run(events, on_ready=speaker.open_soon)
        speaker.close()
    assert opened_with_faces == [3]
    assert mouth.closed


def test_narration_before_the_speaker_is_open_is_not_spoken_then_it_is():
    gate = threading.Event()
    mouth = Mouth()

    def open_speaker() -> Speaker:
        gate.wait(10)
        return mouth

    speaker = LateSpeaker(open_speaker)
    speaker.open_soon()
    speaker.say("too early")
    gate.set()
    speaker.close()  # waits for the opening
    speaker.say("Invaders, open your eyes")
    assert mouth.said == ["Invaders, open your eyes"]


def test_opening_twice_opens_one_speaker():
    opened: list[Mouth] = []
    speaker = LateSpeaker(lambda: opened.append(Mouth()) or opened[-1])
    speaker.open_now()
    speaker.open_soon()
    speaker.close()
    assert len(opened) == 1 and opened[0].closed


def test_a_table_without_audio_is_known_to_have_no_speaker_once_opening_failed():
    speaker = LateSpeaker(lambda: None)
    assert speaker.available()  # not known yet: narration stays on
    speaker.open_now()
    assert not speaker.available()
