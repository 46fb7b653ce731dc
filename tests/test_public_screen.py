"""The public screen: the hourglass as a running sand glass, banners, reveals, never a secret."""

from __future__ import annotations

import dataclasses
import random

import pygame
import pytest
import segno
from PIL import Image

from companion.public_view import public_page
from engine import registry
from engine.api import HourglassView, SeatView, SecretFace
from hardware.base import Code
from hardware.window.public import (
    FPS,
    POP_SECONDS,
    PUBLIC_SIZE,
    QR_DARK,
    QR_LIGHT,
    REVEAL_SECONDS,
    PublicScene,
    PublicWindow,
    draw_public,
    public_frame,
    qr_modules,
)

from .golden import SWITCH, assert_golden, regenerating

SIZE = (640, 360)
TURN = SeatView("Seat 2's turn", ("Deck 10", "Lookout: Seat 4"), highlight=True,
                hourglass=HourglassView(61.3, 90.0, True))


@pytest.fixture(autouse=True, scope="module")
def fonts():
    pygame.font.init()
    yield


def frame(view: SeatView, now: float = 0.0, shown_at: float = 0.0,
          size: tuple[int, int] = SIZE) -> Image.Image:
    """What the public screen draws for ``view``, settled (no animation in progress)."""
    surface = pygame.Surface(size)
    draw_public(surface, public_frame(public_page(view), shown_at, now), now)
    return Image.frombytes("RGB", size, pygame.image.tostring(surface, "RGB"))


def scene_frame(scene: PublicScene, now: float) -> bytes:
    surface = pygame.Surface(SIZE)
    face, pop, reveal_pop = scene.face(now)
    draw_public(surface, face, now, pop, reveal_pop)
    return pygame.image.tostring(surface, "RGB")


def with_glass(shown: str, remaining: float, running: bool = True) -> SeatView:
    return SeatView("Seat 1's turn", ("Deck 7",), hourglass=HourglassView(remaining, 90.0,
                                                                           running, shown))


def test_golden_regeneration_is_switched_off():
    """The golden PNGs are only ever rewritten on purpose: the switch must be off here."""
    assert not regenerating(), f"{SWITCH} is on: review the rewritten PNGs, then unset it"


def test_hourglass_golden_turn_with_seconds():
    """A running glass with its seconds, the turn in the highlighted title: as reviewed."""
    assert_golden(frame(TURN), "public_turn_hourglass")


def test_hourglass_golden_they_live_wave():
    """They Live's wave, turn and health lines, as the public screen shows them."""
    view = SeatView("Wave 2: seat 3", ("Order: 3 4 1 2", "1:15 2:14 3:9 4:15"))
    assert_golden(frame(view), "public_they_live_wave")


def test_hourglass_golden_heroes_monsters_and_glory():
    """Heroes Love to Lie's Monsters in play and Glory, as the public screen shows them."""
    view = SeatView("Seat 3 chooses", ("Life 1:2 2:2 3:1", "Glory 1:0 2:3 3:1",
                                       "Dragon 7 Skeleton 5"))
    assert_golden(frame(view), "public_heroes_glory")


def test_banner_golden_game_over():
    """A game's end: the banner across the body with the outcome under it."""
    view = SeatView("Mind Invaders", ("Seat 2 wins: last one", "standing"), banner="GAME OVER")
    assert_golden(frame(view), "public_game_over")


def test_hourglass_seconds_shown_when_exact():
    """With the exact option the glass comes with its seconds, rounded up."""
    face = public_frame(public_page(TURN), 0.0, 0.0)
    assert face.big == "1:02"
    assert face.glass is not None and face.glass.sand == pytest.approx(61.3 / 90)


def test_hourglass_bar_shows_sand_but_no_seconds():
    """With the bar option the sand shows how much is left, but no digits tell the seconds."""
    face = public_frame(public_page(with_glass("bar", 45.0)), 0.0, 0.0)
    assert face.glass is not None and face.glass.sand == pytest.approx(0.5)
    assert ":" not in face.text()


def test_hourglass_none_tells_nothing_about_the_sand():
    """With no timer shown, a glass nearly full and one nearly empty draw the same pixels."""
    nearly_full, nearly_empty = with_glass("none", 85.0), with_glass("none", 3.0)
    assert "Hourglass running" in public_frame(public_page(nearly_full), 0.0, 0.0).text()
    assert frame(nearly_full).tobytes() == frame(nearly_empty).tobytes()


def test_hourglass_sand_runs_between_the_apps_calls():
    """Ten seconds after the last view, the screen shows ten seconds less and other pixels."""
    scene = PublicScene()
    scene.update(public_page(with_glass("exact", 30.0)), 100.0)
    assert scene.face(110.0)[0].big == "0:20"
    assert scene_frame(scene, 100.0) != scene_frame(scene, 110.0)


def test_hourglass_never_runs_below_zero():
    """Long after the sand ran out the glass shows 0:00 and an empty top bulb."""
    scene = PublicScene()
    scene.update(public_page(with_glass("exact", 5.0)), 0.0)
    face = scene.face(60.0)[0]
    assert face.big == "0:00" and face.glass is not None and face.glass.sand == 0.0


def test_hourglass_animates_only_while_running():
    """A running glass asks for frames; a stopped one leaves the screen asleep."""
    scene = PublicScene()
    scene.update(public_page(with_glass("exact", 30.0)), 0.0)
    assert scene.next_frame(1.0) == pytest.approx(1.0 + 1 / FPS)
    scene.update(public_page(with_glass("exact", 30.0, running=False)), 2.0)
    assert scene.next_frame(3.0) is None


def test_banner_pops_in_then_settles():
    """A new banner grows in over a moment, then stays still without further frames."""
    scene = PublicScene()
    view = SeatView("They Live", ("Humans win",), banner="GAME OVER")
    scene.update(public_page(view), 50.0)
    assert scene.face(50.1)[1] < 1.0 and scene.next_frame(50.1) is not None
    assert scene_frame(scene, 50.1) != scene_frame(scene, 51.0)
    assert scene.face(51.0)[1] == 1.0 and scene.next_frame(51.0) is None


def test_banner_same_banner_again_does_not_pop():
    """Redrawing the same banner (every app redraw) does not restart its animation."""
    scene = PublicScene()
    view = SeatView("They Live", banner="GAME OVER")
    scene.update(public_page(view), 50.0)
    scene.update(public_page(view), 60.0)
    assert scene.face(60.0)[1] == 1.0


def test_reveal_card_shows_then_goes():
    """A public reveal pops in as a card, stays a few seconds, then the screen is as before."""
    scene = PublicScene()
    scene.update(public_page(SeatView("Seat 1 chooses")), 0.0)
    before = scene_frame(scene, 0.0)
    scene.reveal("Seat 3 is not the Exorcist!", 1.0)
    settled = 1.0 + POP_SECONDS + 0.1
    assert "Seat 3 is not the Exorcist!" in scene.face(settled)[0].text()
    assert scene.next_frame(settled) == pytest.approx(1.0 + REVEAL_SECONDS)
    assert scene_frame(scene, 1.0 + REVEAL_SECONDS) == before


def test_secret_never_drawn_from_the_view():
    """A view carrying a secret draws the very same pixels as one without it."""
    secret = SeatView("Seat 2's turn", ("Deck 10",), secret=SecretFace("INVADER", ("Seat 4",)))
    public = SeatView("Seat 2's turn", ("Deck 10",))
    assert "INVADER" not in public_frame(public_page(secret), 0.0, 0.0).text()
    assert frame(secret).tobytes() == frame(public).tobytes()


def test_secret_random_games_public_screen_hides_every_secret():
    """Over random play of every game, the public screen never says what must stay hidden."""
    for game in registry.all_games():
        for seed in range(3):
            _check_random_game(game, seed)


def _check_random_game(game, seed: int) -> None:
    chooser = random.Random(seed)
    seats = tuple(range(1, game.min_players + 1))
    state = game.new_state(seats, {}, bytes([seed]) * 32)
    now = 0.0
    for _ in range(150):
        if state.is_terminal():
            return
        deadline = state.next_deadline()
        if deadline is not None and deadline <= now:
            state.advance(now)
        face = public_frame(public_page(state.view(None, now)), now, now)
        for phrase in state.secrets_hidden_from(None):
            assert phrase not in face.text(), f"{game.key}: public screen shows {phrase!r}"
        now += chooser.uniform(0, 3)
        active = sorted(state.active_seats())
        seat = chooser.choice(active) if active else None
        actions = state.legal_actions(seat) if seat is not None else []
        if actions:
            state.apply(seat, chooser.choice(actions).id, now)


def test_window_shows_the_public_drawing_full_screen():
    """The HDMI window shows exactly what the drawing function draws for the view."""
    window = PublicWindow(lambda: 20.0, fullscreen=False)
    try:
        window.show(public_page(TURN), 20.0)
        captured = window.capture()
    finally:
        window.close()
    assert captured.size == PUBLIC_SIZE
    assert captured.tobytes() == frame(TURN, 20.0, 20.0, PUBLIC_SIZE).tobytes()


def test_public_screen_draws_the_commitment_whole_and_as_a_qr_code() -> None:
    """The fair deal's commitment stands in the corner: its digits, and a QR code whose
    modules are drawn one for one (a phone reads what the table noted)."""
    code = Code("Commitment", "630dcd2966c4336691125448bbb25b4f")
    surface = pygame.Surface(SIZE)
    page = dataclasses.replace(public_page(TURN), code=code)
    face = public_frame(page, 0.0, 0.0)
    assert "Commitment 630dcd2966c4336691125448bbb25b4f" in face.text()
    draw_public(surface, face, 0.0)
    image = Image.frombytes("RGB", SIZE, pygame.image.tostring(surface, "RGB"))
    modules = qr_modules(code.text)
    assert modules == tuple(tuple(bool(m) for m in row)
                            for row in segno.make(code.text, error="m").matrix_iter(border=4))
    white = sum(1 for pixel in image.getdata() if pixel == QR_LIGHT)
    dark = sum(1 for pixel in image.getdata() if pixel == QR_DARK)
    lit = sum(not m for row in modules for m in row)
    assert white >= lit and dark > 0  # every light module is at least one pixel
    plain = frame(TURN)
    assert QR_LIGHT not in set(plain.getdata())
