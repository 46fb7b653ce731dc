"""The 128x64 seat screens: golden PNGs of the key faces, and what the text layer reports."""

import dataclasses

import pytest

from companion.composer import clock_text, face_for, secret_face_for, with_headline
from companion.render import WIDTH, Face, render, small_font
from companion.seat_ui import notice_lines
from engine.api import LINE, HourglassView, SeatView, SecretFace
from tests.golden import assert_golden
from tests.shape import outline

KEY_SCREENS = {
    "seat_lookout_turn": face_for(
        SeatView("Your turn", ("Draw 1 card",), hourglass=HourglassView(83.2, 90, True),
                 highlight=True), "> Flip hourglass", "1/6"),
    "seat_waiting_bar": face_for(
        SeatView("Seat 3's turn", ("Lookout    Stamina 5", "Deck 12 Goal 2"),
                 hourglass=HourglassView(41.0, 90, True, "bar")), "> Pause", "1/2"),
    "seat_join": face_for(
        SeatView("Table companion", ("Press ACT to join", "Players: 2", "Seats: 1 3")),
        "> Join"),
    "seat_peek_secret": secret_face_for(
        SeatView("Seat 2's turn", secret=SecretFace("INVADER CHECK", (
            "Other Invaders:", "Seat 5: Invader", "Hold until the cue")))),
    "seat_game_over": face_for(
        SeatView("Game over", ("Win: everyone escaped",), banner="WIN"), "> Play again", "1/2"),
}
LOOKOUT_TURN = KEY_SCREENS["seat_lookout_turn"]
KEY_SCREENS |= {
    "seat_notice_one_line": dataclasses.replace(LOOKOUT_TURN,
                                                notice=notice_lines("Choices changed")),
    "seat_notice_whole": with_headline(dataclasses.replace(LOOKOUT_TURN, notice=notice_lines(
        "Seat 1 is not the Elf! Seat 1 pays 2 Gems and 1 Glory to Seat 3."))),
}


@pytest.mark.parametrize("name", sorted(KEY_SCREENS))
def test_render_key_screens_match_golden(name):
    """Each key screen draws exactly as reviewed (golden PNGs in tests/golden)."""
    assert_golden(render(KEY_SCREENS[name]), f"oled_{name}")


def test_render_s_font_sets_exactly_a_view_s_line_across_the_screen():
    """The view contract's line width is what the screen shows: LINE cells of the small font
    fill the 128 pixels, and one more would not fit."""
    font = small_font()
    assert font.getbbox("W" * LINE)[2] <= WIDTH < font.getbbox("W" * (LINE + 1))[2]


def test_render_is_one_bit_and_oled_sized():
    """Frames are 128x64 one-bit images, what the SSD1306 and SH1106 take."""
    image = render(KEY_SCREENS["seat_join"])
    assert image.size == (128, 64) and image.mode == "1"


def test_clock_text_rounds_up_so_zero_means_empty():
    """The glass shows 0:00 only once the sand is really gone."""
    assert clock_text(90) == "1:30"
    assert clock_text(0.2) == "0:01"
    assert clock_text(0) == "0:00"
    assert clock_text(59.0001) == "1:00"


def test_text_reports_only_what_is_drawn():
    """A banner hides the big digits, so the text layer does not claim them."""
    face = Face(title="Game over", big="0:47", banner="WIN", lines=("Win", "more"), bar="> x")
    assert face.text().splitlines() == ["Game over", "WIN", "Win", "> x"]


def test_long_lines_are_cut_not_wrapped_off_screen():
    """A line longer than 21 characters ends in '~' instead of running off the glass."""
    long = Face(title="T", lines=("x" * 40,))
    short = Face(title="T", lines=("x" * 20 + "~",))
    assert render(long).tobytes() == render(short).tobytes()


def test_public_face_never_reads_the_secret():
    """The seat's public face is the same whatever its secret is."""
    base = SeatView("Seat 1's turn", ("Stamina 5",))
    one = face_for(SeatView(**{**base.__dict__, "secret": SecretFace("INVADER")}))
    two = face_for(SeatView(**{**base.__dict__, "secret": SecretFace("HUMAN")}))
    assert render(one).tobytes() == render(two).tobytes()


def test_a_notice_is_drawn_whole_and_never_takes_the_title_or_the_bar():
    """Every word of a notice is on the screen at once, under the seat's own title (its
    role, whose turn) and above the action bar; nothing crawls."""
    role = face_for(SeatView("Your role: Lookout", ("Take it, face up.", "Take 5 stamina,",
                                                     "draw 3 cards."), highlight=True), "> Ready")
    text = "Seat 1 is not the Elf! Seat 1 pays 2 Gems and 1 Glory to Seat 3."
    shown = dataclasses.replace(role, notice=notice_lines(text))
    assert shown.text().splitlines() == ["Your role: Lookout", text, "> Ready"]
    title_and_bar = [*range(0, 11 * 128), *range(53 * 128, 64 * 128)]
    before, after = render(role).getdata(), render(shown).getdata()
    assert [before[i] for i in title_and_bar] == [after[i] for i in title_and_bar]


def test_a_short_notice_leaves_the_clock_and_first_lines_in_view():
    """A one-line notice covers only the body's last line: the running sand stays."""
    face = dataclasses.replace(LOOKOUT_TURN, notice=notice_lines("Not now"))
    assert face.text().splitlines() == [
        "Your turn", "1:24", "Not now", "> Flip hourglass", "1/6"]
    lines = face_for(SeatView("Seat 2's turn", ("Lookout", "Deck 12", "Goal 1")))
    assert dataclasses.replace(lines, notice=("Paused",)).text().splitlines() == [
        "Seat 2's turn", "Lookout", "Deck 12", "Paused"]


def test_a_notice_that_covers_the_clock_moves_it_to_the_title():
    """Four lines cover the big digits; the sand's seconds go to the title's corner."""
    face = KEY_SCREENS["seat_notice_whole"]
    assert face.title == "Your turn" + "1:24".rjust(21 - len("Your turn"))
    assert "1:24" in face.text().splitlines()[0]


def test_render_sealed_faces_have_one_outline_whatever_they_say():
    """A PEEK face is lit edge to edge on every page, long or short words, three lines or
    one, one page or two: a glance cannot tell two secrets apart by their shape."""
    faces = [
        SecretFace("INVADER CHECK", ("Other Invaders:", "Seat 3: Invader", "Hold until the cue")),
        SecretFace("YOUR IDENTITY", ("Seat 2: Human",)),
        SecretFace("Your Hero", ("Giant (8)", "React: Cancel a theft", "Remove 1 Life (6)", "x")),
    ]
    outlines = {outline(render(secret_face_for(SeatView("T", secret=s)))) for s in faces}
    assert outlines == {((0, 127),) * 8}
