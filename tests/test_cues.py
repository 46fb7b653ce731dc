"""Every cue a game can name is rendered by every output that takes cues.

A game names cues only from engine/cues.py (``Buzz(Tune.TURN)``, ``Vibrate(seat,
Pattern.LONG)``). Hardware must not import the engine, so it keeps its own tables keyed by the
plain names (hardware/tunes.py): ONE tune table for the buzzers, the pods' piezos and the
speaker, and ONE vibration table for the motors, the pods and the simulators' panels. These
tests hold the tables to the vocabulary, and every buzzer, motor, speaker and public screen
class in ``hardware`` to rendering every member of it: tunes on everything public, vibrations
on one seat's own motor or panel and never on the public screen.
"""

from __future__ import annotations

import importlib
import inspect
import io
import json
import pkgutil
import threading
from collections.abc import Callable

import pygame
import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from gpiozero.tones import Tone

import hardware
from engine.cues import Pattern, Tune
from hardware import tunes
from hardware.base import Buzzer, PublicPage, PublicScreen, Speaker, Vibrator
from hardware.drivers.gpio import GpioBuzzer, GpioVibrator
from hardware.drivers.voice import RATE, MixerSpeaker, PromptCache, tune_samples
from hardware.pods.screen import PodBuzzer, PodVibrator
from hardware.public_screens import PublicScreens, joined
from hardware.terminal.table import TerminalBuzzer, TerminalTable, TerminalVibrator
from hardware.web.public import BrowserPublic
from hardware.web.seat import WebBuzzer, WebSeat, WebVibrator
from hardware.web.server import PhoneServer
from hardware.window.public import (
    TUNE_SECONDS,
    PublicScene,
    PublicWindow,
    PygamePublicScreen,
    draw_public,
)
from hardware.window.seats import PANEL_SIZE, PanelLayout, draw_panel
from hardware.window.table import (
    WindowBuzzer,
    WindowTable,
    WindowVibrator,
)
from podproto import wire
from tests.listener import Listener
from tests.speaker_tap import Tap
from tests.test_terminal import GRID, Keyboard, open_table, screen

TIMEOUT = 5.0
FRAME = 66  # columns of one seat's frame in the terminal


def implementations(base: type) -> set[type]:
    """Every concrete class in the hardware package (and its subpackages) that implements
    ``base``."""
    for module in pkgutil.walk_packages(hardware.__path__, "hardware."):
        importlib.import_module(module.name)
    found, pending = set(), [base]
    while pending:
        for sub in pending.pop().__subclasses__():
            pending.append(sub)
            if sub.__module__.startswith("hardware.") and not inspect.isabstract(sub):
                found.add(sub)
    return found


def test_cues_every_output_is_checked_here() -> None:
    """A new buzzer, motor, speaker or public screen fails here until the tests below cover
    it (PublicWindow is a PygamePublicScreen whose cue it inherits)."""
    assert implementations(Buzzer) == {GpioBuzzer, TerminalBuzzer, WindowBuzzer, PodBuzzer,
                                       WebBuzzer}
    assert implementations(Vibrator) == {GpioVibrator, PodVibrator, TerminalVibrator,
                                         WindowVibrator, WebVibrator}
    assert implementations(Speaker) == {MixerSpeaker}
    assert implementations(PublicScreen) == {PygamePublicScreen, PublicWindow, BrowserPublic,
                                             PublicScreens}


class Socket:
    """A phone seat's socket as the seat sees it: what went to the phone, in order."""

    def __init__(self) -> None:
        self.sent: list[bytes] = []

    def send(self, sealed: bytes) -> None:
        self.sent.append(sealed)

    def send_frame(self, sealed: bytes, written: object = None) -> None:
        self.sent.append(sealed)

    def close(self, code: int, why: str) -> None:
        raise AssertionError("the socket was closed")


def test_cues_phone_vibrator_sends_every_pattern_to_the_phone() -> None:
    """Each pattern reaches the seated phone as its steps, sealed with the seat's key."""
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    from hardware.web import wire
    from hardware.web.sealing import SeatKey

    key = bytes(range(32))
    seat = WebSeat(1, lambda event: None, lambda: 0.0, SeatKey(1, key))
    socket = Socket()
    assert seat.join(wire.Hello(bytes(16), 0), socket)
    vibrator = WebVibrator(seat, lambda call, *args: call(*args))
    for pattern in Pattern:
        socket.sent.clear()
        vibrator.pulse(pattern.value)
        (sealed,) = socket.sent
        plain = ChaCha20Poly1305(key).decrypt(sealed[:12], sealed[12:],
                                              b"table-companion seat 1 to-phone")
        on_time, off_time, repeats = tunes.vibration(pattern.value)
        assert plain == wire.vibrate(round(on_time * 1000), round(off_time * 1000), repeats)


def test_cues_phone_buzzer_sends_every_tune_as_tones_at_the_seats_volume() -> None:
    """Each tune reaches the seated phone as its notes in Hz and ms with the seat's level,
    sealed, and every tune is the same length on the network; a muted seat is sent none."""
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    from hardware.web import wire
    from hardware.web.sealing import SeatKey

    key = bytes(range(32))
    seat = WebSeat(1, lambda event: None, lambda: 0.0, SeatKey(1, key))
    socket = Socket()
    assert seat.join(wire.Hello(bytes(16), 0), socket)
    buzzer = WebBuzzer(seat, lambda call, *args: call(*args))
    lengths = set()
    for tune in Tune:
        socket.sent.clear()
        buzzer.play(tune, 0.2)
        (sealed,) = socket.sent
        lengths.add(len(sealed))
        plain = ChaCha20Poly1305(key).decrypt(sealed[:12], sealed[12:],
                                              b"table-companion seat 1 to-phone")
        steps = [(round(Tone(note).frequency) if note else 0, round(seconds * 1000))
                 for note, seconds in tunes.TUNES[tune]]
        assert plain[:3] == bytes((wire.TUNE, 51, len(steps))), tune
        pairs = [(int.from_bytes(plain[i:i + 2], "big"), int.from_bytes(plain[i + 2:i + 4], "big"))
                 for i in range(3, len(plain), 4)]
        assert pairs == steps + [(0, 0)] * (wire.TUNE_STEPS - len(steps)), tune
    assert len(lengths) == 1
    socket.sent.clear()
    buzzer.play(Tune.TURN, 0.0)
    assert socket.sent == []


def test_cues_tables_are_the_vocabulary() -> None:
    """The tune and vibration tables hold every cue a game can name, and nothing else."""
    assert set(tunes.TUNES) == set(Tune)
    assert set(tunes.VIBRATION_PATTERNS) == set(Pattern)


class SoundingPin(MockPWMPin):
    """A mock pin that signals each time it starts to sound (a frequency, or on)."""

    def __init__(self, factory, info) -> None:
        self.sounded = threading.Condition()
        self.sounds = 0
        super().__init__(factory, info)

    def _change_state(self, value) -> bool:
        with self.sounded:
            changed = super()._change_state(value)
            if value:
                self.sounds += 1
                self.sounded.notify_all()
        return changed

    def sounds_after(self, action: Callable[[], None]) -> bool:
        """Whether the pin starts to sound once ``action`` has run."""
        with self.sounded:
            before = self.sounds
        action()
        with self.sounded:
            return self.sounded.wait_for(lambda: self.sounds > before, TIMEOUT)


@pytest.mark.parametrize("tonal", [True, False], ids=["passive piezo", "active buzzer"])
def test_cues_gpio_buzzer_sounds_every_tune(mock_factory: MockFactory, tonal: bool) -> None:
    """Both kinds of buzzer start every tune (a new tune cuts the one before short)."""
    pin = mock_factory.pin(18, pin_class=SoundingPin)
    buzzer = GpioBuzzer(18, tonal=tonal)
    try:
        for tune in Tune:
            assert pin.sounds_after(lambda tune=tune: buzzer.play(tune)), tune
    finally:
        buzzer.close()


def test_cues_gpio_motor_runs_every_pattern(mock_factory: MockFactory) -> None:
    """The seat's motor starts for every pattern."""
    pin = mock_factory.pin(22, pin_class=SoundingPin)
    vibrator = GpioVibrator(22)
    try:
        for pattern in Pattern:
            assert pin.sounds_after(lambda p=pattern: vibrator.pulse(p)), pattern
    finally:
        vibrator.close()


def test_cues_pod_motor_gets_every_pattern_as_timings() -> None:
    """A pod is sent each pattern as the same timings the GPIO motor runs."""
    sent: list[tuple[int, bytes]] = []
    vibrator = PodVibrator(lambda kind, payload: sent.append((kind, payload)) or True)
    for pattern in Pattern:
        sent.clear()
        vibrator.pulse(pattern)
        on_time, off_time, repeats = tunes.VIBRATION_PATTERNS[pattern]
        steps = [(round(on_time * 1000), round(off_time * 1000))] * repeats
        assert sent == [(wire.VIBRATE, wire.steps(steps))], pattern


def test_cues_terminal_shows_every_tune() -> None:
    """The terminal simulator's status line names each tune as it plays."""
    keyboard = Keyboard()
    try:
        with open_table(keyboard) as (table, out):
            for tune in Tune:
                table.hardware().buzzer.play(tune)
                assert f"♪ {tune}" in screen(out.getvalue())[-4], tune
    finally:
        keyboard.close()


def test_cues_window_shows_every_tune() -> None:
    """The emulator window's status line names each tune as it plays."""
    with WindowTable([1, 2], lambda event: None, clock=lambda: 0.0) as window:
        for tune in Tune:
            window.hardware().buzzer.play(tune)
            shown = window.scene.status_text().split("buzzer: ")[-1].split(", ")
            assert shown[-1] == tune, tune


def test_cues_pod_piezo_gets_every_tune_as_tones_at_the_seats_volume() -> None:
    """A pod with a piezo is sent each tune's notes in Hz and ms, with the seat's level; a
    pod without one is sent nothing."""
    sent: list[tuple[int, bytes]] = []
    piezo = [True]
    buzzer = PodBuzzer(lambda kind, payload: sent.append((kind, payload)) or True,
                       lambda: piezo[0])
    for tune in Tune:
        sent.clear()
        buzzer.play(tune, 0.2)
        steps = [(round(Tone(note).frequency) if note else 0, round(seconds * 1000))
                 for note, seconds in tunes.TUNES[tune]]
        assert sent == [(wire.BUZZ, wire.buzz(51, steps))], tune
    piezo[0] = False
    sent.clear()
    buzzer.play(Tune.TURN)
    assert sent == [] and not buzzer.sounds()


def test_cues_speaker_plays_every_tune(tmp_path, tap: Tap) -> None:
    """The speaker plays each tune as tones as long as the tune, at the table's volume
    (scaled by its own)."""
    speaker = MixerSpeaker(PromptCache(tmp_path), volume=0.5, silent_close=0.01)
    try:
        for tune in Tune:
            speaker.play(tune, 0.2)
            assert speaker.wait_idle(10.0) and speaker.wait_closed(10.0), tune
            played = tap.played()
            assert len(played) / RATE == pytest.approx(tunes.duration(tune), abs=0.01), tune
            assert max(played) == round(0.1 * max(tune_samples(tune))), tune
    finally:
        speaker.close()


def test_cues_public_screen_flashes_every_tune() -> None:
    """The public screen shows each tune's name for a moment, in its title bar."""
    scene = PublicScene()
    public = PygamePublicScreen(scene, wake=lambda: None)
    public.show(PublicPage(title="Seat 2's turn"), 0.0)
    surface = pygame.Surface((640, 360))
    draw_public(surface, scene.face(0.0)[0], 0.0)
    quiet_title = pygame.image.tostring(surface.subsurface((0, 0, 640, 50)), "RGB")
    for at, tune in enumerate(Tune, start=1):
        public.cue(tune, float(at))
        face = scene.face(at + 0.1)[0]
        assert face.tune == tune and f"♪ {tune}" in face.text(), tune
        draw_public(surface, face, at + 0.1)
        assert pygame.image.tostring(surface.subsurface((0, 0, 640, 50)), "RGB") != quiet_title
        assert scene.face(at + TUNE_SECONDS)[0].tune is None, tune
        assert scene.next_frame(at + 0.5) == at + TUNE_SECONDS  # wakes to take it away


def test_cues_browser_public_screen_sends_every_tune_beside_the_window() -> None:
    """Through the fan-out, each tune reaches the window's scene and, as its name, every
    browser watching /table (whose page flashes it: tests/test_public_browser.py)."""
    server = PhoneServer([], lambda event: None, host="127.0.0.1", port=0).start()
    scene = PublicScene()
    public = joined(PygamePublicScreen(scene, wake=lambda: None), server.public)
    assert isinstance(public, PublicScreens)
    listener = Listener(f"ws://127.0.0.1:{server.port}/ws/table")
    try:
        public.show(PublicPage(title="Seat 2's turn"), 0.0)
        assert json.loads(listener.received.get(timeout=TIMEOUT))["title"] == "Seat 2's turn"
        for at, tune in enumerate(Tune, start=1):
            public.cue(tune, float(at))
            message = json.loads(listener.received.get(timeout=TIMEOUT))
            assert message == {"kind": "cue", "tune": tune}
            assert scene.face(at + 0.1)[0].tune == tune
    finally:
        listener.close()
        server.close()


def test_cues_terminal_shows_every_vibration_on_its_own_frame_only() -> None:
    """A seat's vibration marks that seat's frame ("~~") while the pattern runs; no other
    seat's frame, and not the seat list."""
    now = [0.0]
    keyboard = Keyboard()
    out = io.StringIO()
    try:
        with TerminalTable([1, 2, 3], keyboard.events.put, out=out, inp=keyboard.inp,
                           clock=lambda: now[0], size=GRID) as table:
            for pattern in Pattern:
                table.hardware().seats[2].vibrator.pulse(pattern)
                lines = screen(out.getvalue())
                frames = [lines[0][i * FRAME: (i + 1) * FRAME] for i in range(3)]
                assert ["~~" in frame for frame in frames] == [False, True, False], pattern
                now[0] += tunes.felt_seconds(pattern)
                table.set_status(f"after {pattern}")  # any repaint
                assert "~~" not in screen(out.getvalue())[0], pattern
    finally:
        keyboard.close()


def test_cues_window_shakes_every_vibration_on_its_own_panel_only() -> None:
    """A seat's vibration shakes that seat's panel while the pattern runs, and no other."""
    now = [0.0]
    with WindowTable([1, 2], lambda event: None, clock=lambda: now[0]) as window:
        for pattern in Pattern:
            window.hardware().seats[1].vibrator.pulse(pattern)
            assert window.scene.felt(1, now[0]) and not window.scene.felt(2, now[0]), pattern
            assert window.scene.next_frame(now[0]) is not None  # it animates
            now[0] += tunes.felt_seconds(pattern)
            assert not window.scene.felt(1, now[0]), pattern


def test_cues_window_panel_looks_different_while_it_shakes() -> None:
    """The shaking panel is drawn otherwise: its OLED moved, its edge lit, "~~" by its name."""
    layout = PanelLayout(1, (0, 0))
    drawn = []
    for shake in (None, 3):
        canvas = pygame.Surface(PANEL_SIZE)
        draw_panel(canvas, layout, None, lambda name: False, shake)
        drawn.append(pygame.image.tostring(canvas, "RGB"))
    assert drawn[0] != drawn[1]


class Recorder(Buzzer, Speaker, PublicScreen):
    """A buzzer, speaker or public screen that writes down what it was asked for."""

    def __init__(self, heard: list, name: str, sounds: bool = True) -> None:
        self.heard, self.name, self._sounds = heard, name, sounds

    def sounds(self) -> bool:
        return self._sounds

    def play(self, tune: str, volume: float = 1.0) -> None:
        self.heard.append((self.name, tune, volume))

    def say(self, text: str, volume: float = 1.0) -> None:
        self.heard.append((self.name, text, volume))

    def show(self, page: PublicPage, now: float) -> None:
        pass

    def cue(self, tune: str, now: float) -> None:
        self.heard.append((self.name, tune))


def effect_player(buzzer: Buzzer | None, heard: list):
    from companion.effects import EffectPlayer
    from hardware.base import SeatHardware, TableHardware

    seats = {n: SeatHardware(n, screen=None, vibrator=None) for n in (1, 2)}
    hardware = TableHardware(seats, buzzer=buzzer, speaker=Recorder(heard, "speaker"),
                             public=Recorder(heard, "public"))
    return EffectPlayer(hardware, {}, on_status=lambda text: None)


@pytest.mark.parametrize("buzzer", ["gpio", "text", "none"])
def test_cues_speaker_plays_tunes_only_where_no_buzzer_sounds(buzzer: str) -> None:
    """A table with a buzzer that sounds hears each tune once, from the buzzer; where the
    buzzer is text (the simulators) or absent, the speaker plays it. The public screen
    flashes it either way."""
    heard: list = []
    table_buzzer = None if buzzer == "none" else Recorder(heard, "buzzer", buzzer == "gpio")
    effect_player(table_buzzer, heard).buzz(Tune.WIN, 0.0)
    sounding = [name for name, *_ in heard if name in ("buzzer", "speaker")]
    expected = {"gpio": ["buzzer"], "text": ["buzzer", "speaker"], "none": ["speaker"]}
    assert sounding == expected[buzzer]
    assert ("public", Tune.WIN) in heard


def test_cues_vibrations_never_reach_the_public_screen_or_the_speaker() -> None:
    """Every pattern goes to its seat's motor alone: nothing public hears or shows it."""
    heard: list = []
    player = effect_player(Recorder(heard, "buzzer"), heard)
    felt: list = []

    class Motor(Vibrator):
        def pulse(self, pattern: str) -> None:
            felt.append(pattern)

    player.hardware.seats[2].vibrator = Motor()
    for pattern in Pattern:
        player.vibrate(2, pattern)
    assert felt == list(Pattern)
    assert heard == []
