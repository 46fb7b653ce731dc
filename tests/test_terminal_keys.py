"""The keyboard scheme of the terminal table: taps, toggled holds, quit, view keys, escapes."""

import pytest

from hardware.base import ButtonEdge, ButtonName, QuitRequested
from hardware.terminal.keys import KeyDecoder, ViewKey, seat_key_hint

ACT, PEEK = ButtonName.ACT, ButtonName.PEEK


def decoder(seats: tuple[int, ...] = (1, 2, 3, 4)) -> KeyDecoder:
    return KeyDecoder(seats, clock=lambda: 7.5)


def test_keys_digit_taps_act_with_one_timestamp() -> None:
    """Pressing 3 presses and releases seat 3's ACT at the same instant: a tap."""
    assert decoder().feed(b"3") == [
        ButtonEdge(3, ACT, True, 7.5),
        ButtonEdge(3, ACT, False, 7.5),
    ]


def test_keys_home_row_letter_taps_act_like_the_digit() -> None:
    """The Nth home-row letter taps seat N's ACT, the same as digit N."""
    assert decoder().feed(b"d") == decoder().feed(b"3")


def test_keys_peek_letter_taps_peek() -> None:
    """The Nth top-row letter taps seat N's PEEK."""
    assert decoder().feed(b"w") == [
        ButtonEdge(2, PEEK, True, 7.5),
        ButtonEdge(2, PEEK, False, 7.5),
    ]


def test_keys_shifted_peek_letter_holds_until_pressed_again() -> None:
    """Shift+E holds seat 3's PEEK down; Shift+E again releases it."""
    keys = decoder()
    assert keys.feed(b"E") == [ButtonEdge(3, PEEK, True, 7.5)]
    assert keys.is_held(3, PEEK)
    assert keys.feed(b"E") == [ButtonEdge(3, PEEK, False, 7.5)]
    assert not keys.is_held(3, PEEK)


def test_keys_shifted_home_row_letter_holds_act() -> None:
    """Shift+A holds seat 1's ACT (a long press) until Shift+A again."""
    keys = decoder()
    assert keys.feed(b"A") == [ButtonEdge(1, ACT, True, 7.5)]
    assert keys.is_held(1, ACT) and not keys.is_held(1, PEEK)
    assert keys.feed(b"A") == [ButtonEdge(1, ACT, False, 7.5)]


def test_keys_tap_on_a_held_button_releases_it() -> None:
    """Tapping a button that is held lets it go instead of pressing it twice."""
    keys = decoder()
    keys.feed(b"Q")
    assert keys.feed(b"q") == [ButtonEdge(1, PEEK, False, 7.5)]
    assert not keys.is_held(1, PEEK)


def test_keys_of_seats_not_at_the_table_do_nothing() -> None:
    """With seats 1, 3 and 4 only, seat 2's and seat 8's keys press nothing."""
    keys = decoder((1, 3, 4))
    assert keys.feed(b"2swWSS8kiIK") == []


@pytest.mark.parametrize(("data", "reason"), [(b"\x03", "ctrl-c"), (b"\x11", "ctrl-q")])
def test_keys_ctrl_c_and_ctrl_q_quit(data: bytes, reason: str) -> None:
    """Ctrl-C and Ctrl-Q ask the app to quit."""
    assert decoder().feed(data) == [QuitRequested(reason)]


def test_keys_view_keys_are_reported_in_order() -> None:
    """Tab, 0 and ? come out as view keys, between the button edges around them."""
    events = decoder().feed(b"\t?01")
    assert events[:3] == [ViewKey.NEXT_SEAT, ViewKey.HELP, ViewKey.GRID]
    assert events[3] == ButtonEdge(1, ACT, True, 7.5)


@pytest.mark.parametrize(
    "sequence",
    [b"\x1b[A", b"\x1bOA", b"\x1b[15~", b"\x1b[1;5D", b"\x1ba", b"\x1b[200~"],
)
def test_keys_escape_sequences_press_no_button(sequence: bytes) -> None:
    """Arrow, function and Alt keys press nothing, though their bytes hold seat letters."""
    keys = decoder()
    assert keys.feed(sequence) == []
    assert keys.feed(b"1")[0] == ButtonEdge(1, ACT, True, 7.5)


def test_keys_escape_sequence_split_across_reads_presses_nothing() -> None:
    """A sequence cut between two reads is still swallowed whole."""
    keys = decoder()
    assert keys.feed(b"\x1b[1;5") == []
    assert keys.feed(b"A") == []


def test_keys_lone_escape_does_not_eat_the_next_key() -> None:
    """The Esc key on its own is ignored and the next key still works."""
    keys = decoder()
    assert keys.feed(b"\x1b") == []
    assert keys.feed(b"2") == [ButtonEdge(2, ACT, True, 7.5), ButtonEdge(2, ACT, False, 7.5)]


def test_keys_other_bytes_press_nothing() -> None:
    """Enter, space, other letters and non-ASCII bytes are ignored."""
    assert decoder().feed(b"\r\n zZbxp9\xc3\xb6") == []


def test_keys_hint_names_the_seat_keys() -> None:
    """Seat 3's hint names its digit, its letters and their shifted holds."""
    hint = seat_key_hint(3)
    assert "3/d tap" in hint and "D hold" in hint
    assert "e tap" in hint and "E hold" in hint
