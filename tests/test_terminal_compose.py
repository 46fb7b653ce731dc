"""Layout of the terminal table: seat frames, the grid, the focus view, status and help."""

from hardware.terminal.compose import (
    FRAME_HEIGHT,
    FRAME_WIDTH,
    Scene,
    SeatPanel,
    compose,
    display_width,
    fit,
    grid_size,
    seat_frame,
)

FULL = ["⣿" * 64] * 16


def panels(count: int) -> list[SeatPanel]:
    return [SeatPanel(seat, FULL, act_held=True, peek_held=True) for seat in range(1, count + 1)]


def scene(count: int, focus: int | None = None, help_shown: bool = False, **extra) -> Scene:
    fields = {"tunes": ["warning"] * 6, "message": "The Inspector checks seat 4 " * 9}
    fields.update(extra)
    width = 80 if focus or help_shown else 200
    return Scene(panels(count), focus, help_shown, width=width, **fields)


def size(lines: list[str]) -> tuple[int, int]:
    return max(display_width(line) for line in lines), len(lines)


def test_compose_grid_of_six_seats_fits_200_by_60() -> None:
    """Six seats, with every indicator and a long message, fit a 200x60 terminal."""
    width, height = size(compose(scene(6)))
    assert width <= 200 and height <= 60
    assert height == grid_size(6)[1]


def test_compose_grid_of_eight_seats_fits_200_by_60() -> None:
    """Eight seats still fit 200x60 in three rows."""
    width, height = size(compose(scene(8)))
    assert width <= 200 and height <= 60


def test_compose_focus_view_fits_80_by_24() -> None:
    """One seat large with the seat list, status and keys fits an 80x24 terminal."""
    lines = compose(scene(8, focus=5))
    width, height = size(lines)
    assert width <= 80 and height <= 24
    assert sum("⣿" * 64 in line for line in lines) == 16


def test_compose_help_fits_80_by_24() -> None:
    """The key help page fits an 80x24 terminal."""
    width, height = size(compose(scene(8, help_shown=True)))
    assert width <= 80 and height <= 24


def test_compose_grid_places_seats_three_per_row() -> None:
    """The fourth seat's frame starts the second row, under the first."""
    lines = compose(scene(4))
    assert "Seat 1" in lines[0] and "Seat 3" in lines[0]
    assert "Seat 4" in lines[FRAME_HEIGHT]
    assert lines[FRAME_HEIGHT].index("Seat 4") == lines[0].index("Seat 1")


def test_compose_frame_is_exact_size_with_every_flag() -> None:
    """A frame keeps its 66x18 shape whatever its label flags."""
    busy = SeatPanel(7, None, offline=True, act_held=True, peek_held=True)
    assert size(seat_frame(busy)) == (FRAME_WIDTH, FRAME_HEIGHT)
    assert size(seat_frame(SeatPanel(1, FULL))) == (FRAME_WIDTH, FRAME_HEIGHT)


def test_compose_frame_labels_seat_state() -> None:
    """The frame's top edge names the seat and says OFFLINE, off, ACT held, PEEK held."""
    top = seat_frame(SeatPanel(3, None, offline=True, act_held=True, peek_held=True))[0]
    for label in ("Seat 3", "OFFLINE", "off", "ACT held", "PEEK held"):
        assert label in top
    quiet = seat_frame(SeatPanel(3, FULL))[0]
    assert "held" not in quiet and "off" not in quiet.lower()


def test_compose_blank_frame_is_dark() -> None:
    """A blanked seat shows an empty frame, with no dot lit."""
    body = seat_frame(SeatPanel(2))[1:-1]
    assert all(line == "│" + " " * 64 + "│" for line in body)


def test_compose_frame_bottom_shows_the_seat_keys() -> None:
    """Each frame's bottom edge tells which keys press that seat's buttons."""
    bottom = seat_frame(SeatPanel(5))[-1]
    assert "5/g tap" in bottom and "t tap" in bottom


def test_compose_focus_lists_every_seat_and_marks_the_focus() -> None:
    """The focus view lists all seats beside the large one, marking the one shown."""
    lines = compose(scene(4, focus=3))
    text = "\n".join(lines)
    assert "▸3" in text and "Seat 3" in lines[0]
    assert all(f" {seat} ACT PEEK" in text for seat in (1, 2, 4))


def test_compose_status_shows_tunes_and_message() -> None:
    """The status lines show the last tunes with a note sign and the app's message."""
    lines = compose(scene(2, tunes=["start", "tick"], message="Night falls"))
    assert "♪ start  ♪ tick" in "\n".join(lines)
    assert "» Night falls" in lines


def test_compose_message_with_newlines_stays_on_one_line() -> None:
    """A message with line breaks or escapes cannot break the layout."""
    lines = compose(scene(2, message="one\ntwo\x1b[2Jthree"))
    assert not any("\n" in line or "\x1b[2J" in line for line in lines)
    assert any(line.startswith("» one two") for line in lines)


def test_compose_fit_cuts_by_display_width() -> None:
    """Text is cut by terminal columns, counting wide characters as two."""
    assert fit("abcdef", 4) == "abcd"
    assert fit("日本語", 5) == "日本"
    assert display_width("\x1b[7m on \x1b[0m") == 4
