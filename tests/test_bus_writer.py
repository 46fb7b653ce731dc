"""A writer thread per I2C bus: the loop hands a screen's bytes over and goes on drawing, the
screen still ends up showing exactly the last image, in order, and a display that stopped
answering is still reported."""

from __future__ import annotations

import errno
import sys
import threading
from collections.abc import Sequence

import pytest
from smbus2 import i2c_msg

from hardware.drivers.bus import BusWriter, RecordingBus
from hardware.drivers.chorus import DISPLAY_OFF
from hardware.drivers.oled import OledScreen

from .test_oled import Ram, clock_face


class HeldBus(RecordingBus):
    """A bus whose wire is held until the test lets it go (a slow 400 kHz bus, by events)."""

    def __init__(self) -> None:
        super().__init__()
        self.wire = threading.Event()

    def write_i2c_block_data(self, i2c_addr: int, register: int, data: Sequence[int]) -> None:
        self.wire.wait(10)
        super().write_i2c_block_data(i2c_addr, register, data)

    def i2c_rdwr(self, *i2c_msgs: i2c_msg) -> None:
        self.wire.wait(10)
        super().i2c_rdwr(*i2c_msgs)


@pytest.fixture
def writer():
    writer = BusWriter("i2c-test")
    writer.attach()
    yield writer
    writer.release()


def reconnected(writer: BusWriter) -> tuple[RecordingBus, OledScreen]:
    """A display on a recording bus, reconnected (initialised) through ``writer``."""
    bus = RecordingBus()
    screen = OledScreen(bus, writer=writer)
    screen.reconnect()
    return bus, screen


def test_show_returns_while_the_wire_is_busy_and_the_screen_ends_up_right(writer):
    bus = HeldBus()
    bus.wire.set()
    screen = OledScreen(bus, writer=writer)
    screen.reconnect()
    before = len(bus.transfers)
    bus.wire.clear()
    for text in ("1:03", "1:02", "1:01"):
        screen.show(clock_face(text))  # none of these waits for the held wire
    sent_while_held = len(bus.transfers) - before
    bus.wire.set()
    writer.call(lambda: None)  # everything handed over is on the wire now
    assert sent_while_held == 0
    assert Ram("ssd1306").feed(bus.transfers).image().tobytes() == clock_face("1:01").tobytes()
    screen.close()


def test_the_public_face_is_written_only_after_the_display_went_dark(writer):
    bus, screen = reconnected(writer)
    screen.show(clock_face("SECRET"))
    writer.call(lambda: None)
    start = len(bus.transfers)
    screen.conceal(clock_face("1:00"))
    writer.call(lambda: None)
    after = bus.transfers[start:]
    assert after[0].data == bytes([DISPLAY_OFF])
    assert Ram("ssd1306").feed(bus.transfers).image().tobytes() == clock_face("1:00").tobytes()
    screen.close()


def test_a_display_that_stops_answering_is_reported_on_the_next_draw(writer):
    bus, screen = reconnected(writer)
    bus.fail_with(OSError(errno.EREMOTEIO, "Remote I/O error"))
    screen.show(clock_face("0:09"))  # handed over: the failure happens on the writer
    writer.call(lambda: None)
    with pytest.raises(OSError):
        screen.show(clock_face("0:08"))
    assert not screen.online
    bus.recover()
    screen.reconnect()
    screen.show(clock_face("0:07"))
    writer.call(lambda: None)
    assert Ram("ssd1306").feed(bus.transfers).image().tobytes() == clock_face("0:07").tobytes()
    screen.close()


def test_blank_and_reconnect_wait_for_the_wire_and_raise_here(writer):
    bus = RecordingBus()
    screen = OledScreen(bus, writer=writer)
    bus.fail_with(OSError(errno.EREMOTEIO, "Remote I/O error"))
    with pytest.raises(OSError):
        screen.reconnect()
    bus.recover()
    screen.reconnect()
    screen.show(clock_face("2:00"))
    screen.blank()  # returns once the screen is dark and clear
    ram = Ram("ssd1306").feed(bus.transfers)
    assert not ram.lit and not any(ram.cells)
    screen.close()
    assert bus.closed


def test_the_writer_thread_ends_with_the_last_screen_on_its_bus():
    writer = BusWriter("i2c-ends")
    screens = [OledScreen(RecordingBus(), writer=writer) for _ in range(2)]
    names = {thread.name for thread in threading.enumerate()}
    assert "i2c-ends" in names
    for screen in screens:
        screen.close()
    assert "i2c-ends" not in {thread.name for thread in threading.enumerate()}


HANG = 30.0  # seconds: only a writer that never runs its task


class Call:
    """A task of one bus call that says when it starts (:meth:`BusWriter.carrying`), or
    not, and is held in its call until the test lets it go; ``select``: the call begins
    with a mux select (:meth:`BusWriter.selecting`), held until the test lets it go too."""

    def __init__(self, writer: BusWriter, *, says: bool = True, select: bool = False) -> None:
        self.writer, self.says, self.select = writer, says, select
        self.began, self.let_go = threading.Event(), threading.Event()
        self.selecting, self.selected = threading.Event(), threading.Event()

    def step(self) -> bool:
        self.began.set()
        if self.select:
            self.writer.selecting()
            self.selecting.set()
            assert self.selected.wait(HANG)
        if self.says:
            self.writer.carrying()
        assert self.let_go.wait(HANG)
        return False


def handing_over(writer: BusWriter, task: Call) -> threading.Thread:
    """The loop's hand-over of ``task``, urgent, on a thread of its own."""
    handing = threading.Thread(target=writer.submit, args=(task, lambda error: None),
                               kwargs={"urgent": True})
    handing.start()
    return handing


def test_urgent_work_handed_to_an_idle_writer_has_begun_when_the_hand_over_returns(writer):
    """The loop hands the presser's frame over and goes on drawing the other seats; the
    writer shares the GIL with it. Handed to an idle writer, the frame's call has begun
    when the hand-over returns (the writer did not wait for the loop's turn); handed to a
    writer busy on the wire, the hand-over returns at once (the loop does not wait for the
    call on the wire)."""
    first, second = Call(writer), Call(writer)
    writer.submit(first, lambda error: None, urgent=True)
    assert first.began.is_set()
    writer.submit(second, lambda error: None, urgent=True)
    assert not second.began.is_set()
    first.let_go.set()
    assert second.began.wait(HANG)
    second.let_go.set()


def test_a_task_that_never_says_it_started_is_waited_for_until_its_step_is_over(writer):
    silent = Call(writer, says=False)
    handing = handing_over(writer, silent)
    assert silent.began.wait(HANG)
    assert handing.is_alive()  # the hand-over waits while the step runs
    silent.let_go.set()
    handing.join(HANG)
    assert not handing.is_alive()


def test_a_call_after_a_mux_select_is_waited_for_through_the_select(writer, monkeypatch):
    """The writer's few lines between the select and its call would wait for the loop's
    turn of the GIL: the hand-over waits through the select (here the turn is long)."""
    monkeypatch.setattr(sys, "getswitchinterval", lambda: HANG)
    call = Call(writer, select=True)
    handing = handing_over(writer, call)
    assert call.selecting.wait(HANG)
    assert handing.is_alive()
    call.selected.set()
    handing.join(HANG)
    assert not handing.is_alive()
    call.let_go.set()


def test_a_select_that_hangs_holds_the_hand_over_no_longer_than_a_turn_of_the_gil(
        writer, monkeypatch):
    """A stuck bus's select (held until the driver's timeout) does not hold the loop: the
    hand-over goes on after a switch interval (here none)."""
    monkeypatch.setattr(sys, "getswitchinterval", lambda: 0.0)
    call = Call(writer, select=True)
    handing = handing_over(writer, call)
    handing.join(HANG)
    assert not handing.is_alive()
    assert call.selecting.is_set() and not call.selected.is_set()
    call.selected.set()
    call.let_go.set()
