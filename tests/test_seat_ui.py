"""A seat's highlight, confirmations and notices, on the clock."""

from companion.seat_ui import MAX_NOTICE_PAGES, NOTICE_PAGE, SeatUI, pages
from engine.api import Action

FLIP, END, LOSE = Action("flip", "Flip hourglass"), Action("end", "End turn"), Action(
    "lose", "Lose everything", confirm=True)


def test_notice_pages_fit_one_line_each():
    """A long notice is cut at spaces into 21-character lines, none lost."""
    text = "Seat 3 inspects seat 1: discard the Hoffman Lenses"
    assert pages(text) == ["Seat 3 inspects seat", "1: discard the", "Hoffman Lenses"]
    assert " ".join(pages(text)) == text


def test_notices_arriving_together_are_shown_one_after_the_other():
    """A death announced just before the next wave is not wiped out by it."""
    ui = SeatUI(1)
    ui.tell("Frank died", 0.0)
    ui.tell("Wave 2", 0.1)
    assert ui.notice == "Frank died"
    ui.expire(NOTICE_PAGE)
    assert ui.notice == "Wave 2"
    ui.expire(2 * NOTICE_PAGE)
    assert ui.notice == ""


def test_a_backlog_of_routine_notices_gives_way_to_the_newest():
    """Stale news does not hold the title bar for long: old routine notices are dropped."""
    ui = SeatUI(1)
    for n in range(10):
        ui.tell(f"News {n}", 0.0)
    waiting = [page for notice in ui.pending for page in notice.pages]
    assert len(waiting) <= MAX_NOTICE_PAGES and waiting[-1] == "News 9"


def test_a_reveal_is_never_dropped():
    """What the rules reveal reaches every screen, however much news follows it."""
    ui = SeatUI(1)
    ui.tell("Turn news", 0.0)
    ui.tell("Seat 2 shows the Knight", 0.0, important=True)
    for n in range(10):
        ui.tell(f"News {n}", 0.0)
    shown = []
    for step in range(1, 30):
        shown.append(ui.notice)
        ui.expire(step * NOTICE_PAGE)
    assert "Seat 2 shows the" in shown and "Knight" in shown


def test_confirm_action_needs_a_second_press_in_time():
    """A press that cannot be taken back asks for ACT again, and forgets after a while."""
    ui = SeatUI(1)
    assert ui.needs_second_press(LOSE, 0.0)
    assert ui.bar([LOSE, FLIP])[0] == "ACT again: Lose everything"
    ui.expire(5.0)
    assert ui.needs_second_press(LOSE, 5.0)
    assert not ui.needs_second_press(LOSE, 6.0)


def test_plain_actions_go_at_once():
    """Everything else acts on the first press, so the Lookout's flip is instant."""
    assert not SeatUI(1).needs_second_press(FLIP, 0.0)


def test_the_count_gives_way_to_a_long_label():
    """The words of the action matter more than '2/5' when both do not fit."""
    long = Action("x", "Invader check: narr")
    assert SeatUI(1).bar([long, FLIP]) == ("> Invader check: narr", "")
    assert SeatUI(1).bar([END, FLIP]) == ("> End turn", "1/2")


def test_a_long_notice_is_shown_whole_never_cut():
    """Every page of a notice longer than the backlog limit is still shown, in order."""
    seat = SeatUI(1)
    text = " ".join(f"word{n}" for n in range(40))
    seat.tell(text, 0.0)
    shown, now = [seat.notice], 0.0
    while seat.notice_until is not None:
        now = seat.notice_until
        seat.expire(now)
        shown.append(seat.notice)
    assert " ".join(p for p in shown if p) == text
