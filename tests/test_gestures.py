"""Button edges become the gestures a player meant, bounces and stuck buttons included."""

from companion.gestures import HOLD_TIME, LOCKOUT, STUCK_AFTER, Gesture, GestureReader
from hardware.base import ButtonEdge, ButtonName

ACT, PEEK = ButtonName.ACT, ButtonName.PEEK


def edge(button, pressed, at, seat=1):
    return ButtonEdge(seat, button, pressed, at)


def kinds(gestures):
    return [g.gesture for g in gestures]


def test_act_acts_on_the_leading_edge():
    """ACT takes effect on the press itself: a flip costs no debounce delay."""
    reader = GestureReader()
    out = reader.edge(edge(ACT, True, 10.0))
    assert kinds(out) == [Gesture.ACT] and out[0].at == 10.0


def test_bounce_inside_lockout_is_one_press():
    """Contact bounce within the lockout never becomes a second press."""
    reader = GestureReader()
    presses = []
    for i, level in enumerate([True, False, True, False, True]):
        presses += reader.edge(edge(ACT, level, 10.0 + i * 0.002))
    presses += reader.advance(10.0 + LOCKOUT)
    assert kinds(presses) == [Gesture.ACT]
    assert reader.held(1, ACT)


def test_release_bounced_inside_lockout_is_still_seen():
    """A press shorter than the lockout still ends in a release once the lockout ends."""
    reader = GestureReader()
    reader.edge(edge(PEEK, True, 5.0))
    assert reader.edge(edge(PEEK, False, 5.01)) == []
    assert reader.next_deadline() == 5.0 + LOCKOUT
    assert kinds(reader.advance(5.0 + LOCKOUT)) == [Gesture.NEXT]
    assert not reader.held(1, PEEK)


def test_peek_tap_moves_the_highlight_and_hold_peeks():
    """A short PEEK moves the highlight; a long one shows the secret until release."""
    reader = GestureReader()
    reader.edge(edge(PEEK, True, 1.0))
    assert kinds(reader.edge(edge(PEEK, False, 1.2))) == [Gesture.NEXT]
    reader.edge(edge(PEEK, True, 2.0))
    assert reader.next_deadline() == 2.0 + HOLD_TIME
    assert kinds(reader.advance(2.0 + HOLD_TIME)) == [Gesture.PEEK_START]
    assert kinds(reader.edge(edge(PEEK, False, 4.0))) == [Gesture.PEEK_END]


def test_one_button_seat_short_is_act_and_hold_is_peek():
    """On a one-button seat a short press is ACT (on release) and a hold is PEEK."""
    reader = GestureReader(one_button_seats=frozenset({1}))
    assert reader.edge(edge(ACT, True, 1.0)) == []
    assert kinds(reader.edge(edge(ACT, False, 1.1))) == [Gesture.ACT]
    reader.edge(edge(ACT, True, 2.0))
    assert kinds(reader.advance(2.0 + HOLD_TIME)) == [Gesture.PEEK_START]
    assert kinds(reader.edge(edge(ACT, False, 3.0))) == [Gesture.PEEK_END]


def test_stuck_button_is_reported_and_ignored_until_released():
    """A button held past 30 s is reported stuck; its release is not a tap."""
    reader = GestureReader()
    reader.edge(edge(PEEK, True, 0.0))
    reader.advance(HOLD_TIME)
    out = reader.advance(STUCK_AFTER)
    assert kinds(out) == [Gesture.PEEK_END, Gesture.STUCK]
    assert not reader.held(1, PEEK)
    assert reader.next_deadline() is None
    assert kinds(reader.edge(edge(PEEK, False, 50.0))) == [Gesture.UNSTUCK]


def test_seats_are_independent():
    """A press on one seat never shows up as another seat's gesture."""
    reader = GestureReader()
    out = reader.edge(edge(ACT, True, 1.0, seat=3)) + reader.edge(edge(ACT, True, 1.0, seat=4))
    assert [g.seat for g in out] == [3, 4]


def test_no_deadline_while_act_is_held_on_what_does_not_count():
    """ACT held on an action that is no count's step (the app stops its repeats) asks the
    loop to wake only for the stuck check."""
    reader = GestureReader()
    reader.edge(edge(ACT, True, 1.0))
    reader.advance(1.0 + LOCKOUT)
    reader.stop_repeat(1)
    assert reader.next_deadline() == 1.0 + STUCK_AFTER
    assert Gesture.REPEAT not in kinds(reader.advance(10.0))


def test_held_act_repeats_faster_the_longer_it_is_held():
    """Held, ACT repeats after REPEAT_DELAY, then every REPEAT_SLOW, then every REPEAT_FAST
    once it has repeated for SLOW_FOR; each repeat at its own moment; a release stops it."""
    reader = GestureReader()
    reader.edge(edge(ACT, True, 1.0))
    repeats = [g.at - 1.0 for g in reader.advance(2.9) if g.gesture is Gesture.REPEAT]
    assert repeats == [0.5, 0.75, 1.0, 1.25, 1.5, 1.625, 1.75, 1.875]
    assert reader.next_deadline() == 3.0
    reader.edge(edge(ACT, False, 2.95))
    assert reader.advance(20.0) == [] and reader.next_deadline() is None


def test_act_under_peek_and_one_button_holds_never_repeat():
    """ACT pressed while PEEK is held turns a page, once; a one-button seat's hold is PEEK."""
    reader = GestureReader(one_button_seats=frozenset({2}))
    reader.edge(edge(PEEK, True, 1.0))
    reader.advance(1.0 + HOLD_TIME)
    reader.edge(edge(ACT, True, 2.0))
    reader.edge(edge(ACT, True, 2.0, seat=2))
    assert Gesture.REPEAT not in kinds(reader.advance(10.0))


def test_act_while_peek_is_down_turns_the_page_and_never_acts():
    """ACT pressed while PEEK is held (a player reading its secret) is a PAGE, so it can
    never change the game behind the secret face; once PEEK is let go ACT acts again."""
    reader = GestureReader()
    reader.edge(edge(PEEK, True, 1.0))
    held = reader.advance(1.0 + HOLD_TIME)
    assert kinds(held) == [Gesture.PEEK_START]
    assert kinds(reader.edge(edge(ACT, True, 2.0))) == [Gesture.PAGE]
    reader.edge(edge(ACT, False, 2.1))
    assert kinds(reader.edge(edge(PEEK, False, 3.0))) == [Gesture.PEEK_END]
    assert kinds(reader.edge(edge(ACT, True, 4.0))) == [Gesture.ACT]
