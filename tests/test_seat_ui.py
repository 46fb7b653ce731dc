"""A seat's highlight, confirmations and notices, on the clock."""

import dataclasses
from pathlib import Path

from companion.render import Face, render
from companion.script_cli import run_script
from companion.seat_ui import (
    MAX_NOTICE_WAIT,
    MIN_NOTICE,
    SeatUI,
    notice_lines,
    notice_screens,
    reading_time,
)
from engine.api import Action

FLIP, END, LOSE = Action("flip", "Flip hourglass"), Action("end", "End turn"), Action(
    "lose", "Lose everything", confirm=True)


def test_a_notice_is_shown_whole_wrapped_at_spaces():
    """A notice is one screen of lines cut at spaces, shown all at once: nothing crawls."""
    text = "Seat 3 inspects seat 1: discard the Hoffman Lenses"
    assert notice_lines(text) == ("Seat 3 inspects seat", "1: discard the", "Hoffman Lenses")
    assert notice_screens(text) == [text]
    ui = SeatUI(1)
    ui.tell(text, 0.0)
    assert ui.notice == text
    ui.expire(reading_time(text) - 0.01)
    assert ui.notice == text


def test_a_notice_stays_for_a_reading_time_that_grows_with_its_length():
    """A short refusal goes quickly; four lines of narration stay long enough to read."""
    short, long = "Not now", "Seat 1 is not the Elf! Seat 1 pays 2 Gems and 1 Glory to Seat 3."
    assert reading_time(short) == MIN_NOTICE
    assert reading_time(long) > 3 * MIN_NOTICE
    ui = SeatUI(1)
    ui.tell(long, 0.0)
    ui.expire(3 * MIN_NOTICE)
    assert ui.notice == long


def test_notices_arriving_together_are_shown_one_after_the_other():
    """A death announced just before the next wave is not wiped out by it."""
    ui = SeatUI(1)
    ui.tell("Frank died", 0.0)
    ui.tell("Wave 2", 0.1)
    assert ui.notice == "Frank died"
    ui.expire(reading_time("Frank died"))
    assert ui.notice == "Wave 2"
    ui.expire(reading_time("Frank died") + reading_time("Wave 2"))
    assert ui.notice == ""


def test_a_backlog_of_routine_notices_gives_way_to_the_newest():
    """Stale news does not hold the screen for long: old routine notices are dropped."""
    ui = SeatUI(1)
    for n in range(10):
        ui.tell(f"News {n}", n * 0.1)
    assert sum(notice.wait() for notice in ui.pending) <= MAX_NOTICE_WAIT
    assert ui.pending[-1].screens[-1] == "News 9"


def test_the_notices_of_one_moment_are_all_shown():
    """One action's steps (a cleanup told in three screens) are one story: none is dropped
    for being too long to wait for, and they are shown in order."""
    ui = SeatUI(1)
    ui.tell("Old news", 0.0)
    steps = [f"Step {n}: " + " ".join(["words"] * 10) for n in range(4)]
    for step in steps:
        ui.tell(step, 1.0)
    shown = []
    while ui.notice_until is not None:
        shown.append(ui.notice)
        ui.expire(ui.notice_until)
    assert shown[-4:] == steps


def test_a_reveal_is_never_dropped():
    """What the rules reveal reaches every screen, however much news follows it."""
    ui = SeatUI(1)
    ui.tell("Turn news", 0.0)
    ui.tell("Seat 2 shows the Knight", 0.0, important=True)
    for n in range(10):
        ui.tell(f"News {n}", 0.0)
    shown = []
    while ui.notice_until is not None:
        shown.append(ui.notice)
        ui.expire(ui.notice_until)
    assert "Seat 2 shows the Knight" in shown


def test_notices_wait_while_the_seat_holds_peek():
    """The secret face is shown unchanged while PEEK is held; a reveal that arrived then is
    read in full after the release, not lost behind the secret."""
    ui = SeatUI(1)
    ui.start_peek(0.0)
    ui.tell("Seat 2 shows the Knight", 0.5, important=True)
    ui.tell("Seat 2's turn", 0.5)
    assert ui.notice_until not in ui.deadlines()  # no wake-ups while it waits
    ui.expire(5.0)
    assert ui.notice == "Seat 2 shows the Knight"
    ui.end_peek(6.0)
    ui.expire(6.0 + reading_time(ui.notice) - 0.01)
    assert ui.notice == "Seat 2 shows the Knight"
    ui.expire(6.0 + reading_time(ui.notice))
    assert ui.notice == "Seat 2's turn"


def test_confirm_action_needs_a_second_press_in_time():
    """A press that cannot be taken back asks for ACT again (naming the action when the
    line has room for both), and forgets after a while."""
    ui = SeatUI(1)
    assert ui.needs_second_press(LOSE, 0.0)
    assert ui.bar([LOSE, FLIP])[0] == "ACT again to confirm"
    fold = Action("fold", "Fold", confirm=True)
    assert ui.needs_second_press(fold, 0.0)
    assert ui.bar([fold, FLIP])[0] == "ACT again: Fold"
    assert ui.needs_second_press(LOSE, 0.0)
    ui.expire(5.0)
    assert ui.needs_second_press(LOSE, 5.0)
    assert not ui.needs_second_press(LOSE, 6.0)


def test_plain_actions_go_at_once():
    """Everything else acts on the first press, so the Lookout's flip is instant."""
    assert not SeatUI(1).needs_second_press(FLIP, 0.0)


def test_the_count_always_shows_and_a_long_label_gives_way_by_its_arrow():
    """A seat counts its PEEK presses by '2/5': it stays beside every label, which gives up
    its '> ' for the room; beside a label of 20 the count is drawn small in the last cell."""
    long = Action("x", "Invader check: narr")
    assert SeatUI(1).bar([long, FLIP]) == ("Invader check: narr", "1/2")
    assert SeatUI(1).bar([END, FLIP]) == ("> End turn", "1/2")
    undo = Action("sys:undo", "Undo S3 Swap role le")
    ui = SeatUI(1, highlighted="sys:undo")
    offers = [END, FLIP, Action("sys:pause", "Pause"), undo]
    bar, count = ui.bar(offers)
    assert (bar, count) == ("Undo S3 Swap role le", "4/4")
    face = Face(title="", bar=bar, bar_right=count)
    assert face.bar_room() >= len(bar)  # nothing of the label is cut
    label_cells = (0, 53, 121, 64)
    plain = render(Face(title="", bar=bar))
    assert render(face).crop(label_cells).tobytes() == plain.crop(label_cells).tobytes()
    shown = {render(dataclasses.replace(face, bar_right=f"{n}/12")).crop((121, 53, 128, 64))
             .tobytes() for n in range(1, 13)}
    assert len(shown) == 12  # every place in the list looks different


def test_a_text_longer_than_a_screen_is_still_shown_whole_a_screen_at_a_time():
    """Games word their notices to fit one screen; anything longer is not cut: it is shown
    in whole screens of four lines, in order."""
    seat = SeatUI(1)
    text = " ".join(f"word{n}" for n in range(40))
    seat.tell(text, 0.0)
    shown = [seat.notice]
    while seat.notice_until is not None:
        seat.expire(seat.notice_until)
        shown.append(seat.notice)
    assert all(len(notice_lines(screen)) <= 4 for screen in shown)
    assert " ".join(p for p in shown if p) == text


SWAP, GAIN, MORE = Action("swap", "Swap role left"), Action("gain", "Gain 1 stamina"), Action(
    "more", "Deck count...")
NO_STAMINA = Action("flip", "Flip: no stamina!")
PAUSE = Action("sys:pause", "Pause")


def _table_owned(action_id: str) -> bool:
    return action_id.startswith("sys:")


def test_after_its_own_action_a_seat_starts_again_from_the_first():
    """A list that keeps its shape: the highlight is back on the first action, unlit, so
    the usual PEEK, PEEK, ACT means the same thing again."""
    ui, shape = SeatUI(1), [FLIP, END, LOSE, SWAP, MORE, PAUSE]
    ui.next(shape, 0.0)
    ui.acted(END, [a.id for a in shape], shape, 1.0, _table_owned)
    assert ui.current(shape)[0] == FLIP and not ui.reshaped


def test_an_own_action_that_reshapes_the_list_lights_the_bar_while_the_seat_peeks():
    """The Lookout's last stamina moves the flip from the top to the end: PEEK, PEEK would
    now reach "Swap role left", so the bar is lit until the seat's next ACT."""
    ui = SeatUI(3)
    before = [FLIP, END, LOSE, SWAP, GAIN, MORE, PAUSE]
    after = [END, LOSE, SWAP, GAIN, MORE, NO_STAMINA, PAUSE]
    ui.acted(FLIP, [a.id for a in before], after, 0.0, _table_owned)
    assert ui.current(after)[0] == END and ui.reshaped
    ui.next(after, 0.5)
    ui.next(after, 1.0)
    assert ui.current(after)[0] == SWAP and ui.reshaped  # never without the cue
    ui.acted(SWAP, [a.id for a in after], after, 1.5, _table_owned)
    assert not ui.reshaped


def test_the_lit_bar_lapses_with_the_highlight():
    """Left alone, the cue goes after a few seconds, like the highlight."""
    ui = SeatUI(3)
    ui.acted(FLIP, ["flip", "end", "lose"], [END, LOSE, NO_STAMINA], 0.0, _table_owned)
    ui.expire(10.0)
    assert not ui.reshaped


def test_a_new_step_is_not_a_reshaped_list():
    """A list that shares only the table's own entries (pause...) is a new step, unlit."""
    ui = SeatUI(1)
    ui.acted(END, ["end", "lose", "sys:pause"], [Action("check:low", "Strain under 5"), PAUSE],
             0.0, _table_owned)
    assert not ui.reshaped


def test_the_flip_that_takes_the_last_stamina_lights_the_lookouts_bar():
    """The table script's moment, on the headless table: after the last stamina's flip the
    Lookout's PEEK, PEEK shows "Swap role left" in a lit bar (its pixels inverted)."""
    script = Path(__file__).parent / "scripts" / "staying_alive_flip_reshapes_the_list.table"
    app, _ = run_script(script.read_text(encoding="utf-8"), script.stem)
    face = app.screens.faces[3]
    assert face.bar == "> Swap role left" and face.inverted_bar
    bar_rows = render(face).crop((0, 52, 128, 64))
    assert sum(1 for pixel in bar_rows.getdata() if pixel) > 0.6 * 128 * 12  # dark on light


def test_every_result_reaches_the_seat_in_order_and_can_be_read_again():
    """Narration and reveals never give way, however many wait (the force-reveal result
    went by unseen); the last ones can be read again, each under its own title, and only
    on the seat that was told them (a refusal told to one seat is never another's)."""
    from companion.effects import EffectPlayer, Recall, Tell
    from engine.api import Narrate, Reveal
    from hardware.headless import HeadlessTable

    ui = {1: SeatUI(1), 2: SeatUI(2)}
    player = EffectPlayer(HeadlessTable((1, 2), lambda event: None), ui, lambda text: None)
    told = [Narrate("Force-reveal: 2 of 3 say yes"), Reveal("Billy: Seat 2: Human"),
            *(Narrate(f"Wave step {n} of a long story") for n in range(8))]
    player.play(told, 0.0)
    player.play([Narrate("Seat 1 ends the turn"), Tell("Not now", seat=2)], 1.0)
    now, shown = 0.0, []
    while ui[1].notice:
        shown.append(ui[1].notice)
        now = ui[1].notice_until or now
        ui[1].expire(now)
    assert shown == [e.text for e in told] + ["Seat 1 ends the turn"]
    player.play([Recall(1)], now)
    again = []
    while ui[1].notice:
        again.append((ui[1].notice_title, ui[1].notice))
        ui[1].expire(ui[1].notice_until or now)
    assert again[0] == ("Last results 1/4", "Wave step 5 of a long story")
    assert again[-1] == ("Last results 4/4", "Seat 1 ends the turn")
    assert "Not now" in ui[2].history and all("Not now" not in t for _, t in again)
