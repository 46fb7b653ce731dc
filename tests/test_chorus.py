"""Screens behind one mux that show the same frame get its bytes once, and each still ends up
showing exactly its own last frame; the presser's screen costs no byte more; a private face
goes alone; a display that is gone is still noticed.

The displays are luma's, behind a real :class:`Tca9548a` over a recording bus that connects
channels as the chip does (a write reaches every display on every channel connected, and is
acknowledged if any of them hears it). What each display holds is rebuilt from the wire by the
controller RAM model of tests/test_oled.py, channel by channel.
"""

from __future__ import annotations

import errno
import random
import threading
from collections import defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from smbus2 import i2c_msg

from hardware.drivers import chorus
from hardware.drivers.bus import BusWriter, RecordingBus, Tca9548a, Transfer
from hardware.drivers.chorus import NOP, Chorus
from hardware.drivers.oled import CONTROLLERS, OledScreen
from hardware.drivers.planner import FRAME_BYTES, I2C_BLOCK, plan, transfers

from .test_oled import ADDRESS, Ram, image_from

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")

MUX = 0x70
HANG = 30.0  # seconds: only a hung writer takes this long


class MuxedWire(RecordingBus):
    """One bus behind a TCA9548A as the wire sees it: a display write is acknowledged when a
    display on a connected channel hears it (``absent``: channels whose display is gone), and
    ``hold``/``let`` keep transfers back until the test lets them go."""

    def __init__(self) -> None:
        super().__init__()
        self.absent: set[int] = set()
        self.mask = 0
        self._ready = threading.Condition()
        self._held = False
        self._credit = 0
        self.waiting = 0
        self.calls: list[int] = []  # each i2c_rdwr call's message count
        self.call_bytes: list[int] = []  # each call's bytes on the wire (a command write: one)

    def hold(self) -> None:
        with self._ready:
            self._held = True

    def let(self, count: int) -> None:
        """Let ``count`` more transfers go (whenever the writer gets to them)."""
        with self._ready:
            self._credit += count
            self._ready.notify_all()

    def open(self) -> None:
        with self._ready:
            self._held = False
            self._ready.notify_all()

    def write_byte(self, i2c_addr: int, value: int) -> None:
        self._wait()
        if i2c_addr == MUX:
            self.mask = value
        super().write_byte(i2c_addr, value)

    def write_i2c_block_data(self, i2c_addr: int, register: int, data: Sequence[int]) -> None:
        self._wait()
        self._answered()
        self.call_bytes.append(2 + len(data))
        super().write_i2c_block_data(i2c_addr, register, data)

    def i2c_rdwr(self, *i2c_msgs: i2c_msg) -> None:
        """One ``I2C_RDWR``: each of its messages crosses when the test lets it."""
        self.calls.append(len(i2c_msgs))
        self.call_bytes.append(sum(1 + len(message) for message in i2c_msgs))
        for message in i2c_msgs:
            self._wait()
            self._answered()
            super().i2c_rdwr(message)

    def _answered(self) -> None:
        if not any(self.mask >> channel & 1 for channel in range(8) if channel not in self.absent):
            raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def until_waiting(self) -> None:
        """Return once a transfer is held at the wire (the writer can go no further)."""
        with self._ready:
            assert self._ready.wait_for(lambda: self.waiting > 0 and not self._credit, HANG)

    def _wait(self) -> None:
        with self._ready:
            self.waiting += 1
            self._ready.notify_all()
            assert self._ready.wait_for(lambda: not self._held or self._credit > 0, HANG)
            self.waiting -= 1
            if self._held:
                self._credit -= 1
            self._ready.notify_all()


def per_channel(carried: list[Transfer]) -> dict[int, list[tuple[int, Transfer]]]:
    """Each channel's transfers (with the mask they went under), as its display heard them."""
    heard: dict[int, list[tuple[int, Transfer]]] = defaultdict(list)
    mask = 0
    for transfer in carried:
        if transfer.address == MUX and transfer.control is None:
            mask = transfer.data[0]
            continue
        for channel in range(8):
            if mask >> channel & 1:
                heard[channel].append((mask, transfer))
    return heard


def shown(wire: MuxedWire, channel: int, driver: str = "ssd1306") -> bytes:
    return Ram(driver).feed([t for _, t in per_channel(wire.transfers)[channel]]).visible()


def data_bytes(carried: list[Transfer]) -> int:
    return sum(len(t.data) for t in carried if t.control == 0x40)


class Blocker:
    """A writer task that holds the writer until released: everything handed over meanwhile
    is pending at once when the writer next plans, as on a busy wire."""

    def __init__(self) -> None:
        self.inside = threading.Event()
        self.released = threading.Event()

    def step(self) -> bool:
        self.inside.set()
        assert self.released.wait(HANG)
        return False


class Rig:
    def __init__(self, count: int, driver: str = "ssd1306") -> None:
        self.driver = driver
        self.wire = MuxedWire()
        self.mux = Tca9548a(self.wire, MUX)
        self.writer = BusWriter("i2c-test")
        self.chorus = Chorus(ADDRESS, CONTROLLERS[driver], self.writer, self.mux)
        self.screens = [OledScreen(self.mux.channel(c), driver=driver, address=ADDRESS,
                                   writer=self.writer, chorus=self.chorus) for c in range(count)]
        for screen in self.screens:
            screen.reconnect()

    @contextmanager
    def together(self) -> Iterator[None]:
        """Hand updates over while the writer is busy; then let it send them all."""
        blocker = Blocker()
        self.writer.submit(blocker, lambda error: None)
        assert blocker.inside.wait(HANG)
        try:
            yield
        finally:
            blocker.released.set()
            self.drain()

    def drain(self) -> None:
        self.writer.call(lambda: None)

    def others_join_mid_frame(self, frame: bytes) -> None:
        """With the wire held and the presser handed its frame: once the mux switch, the
        presser's addressing and its first block are sent (its second on its way), the
        seven others are handed ``frame``; then every transfer goes."""
        self.wire.let(3)
        self.wire.until_waiting()
        for screen in self.screens[1:]:
            show(screen, frame)
        self.wire.open()
        self.drain()

    def held(self) -> Blocker:
        """Every screen shown its own noise and sent; then the wire held and the writer busy
        until the blocker returned is released."""
        for number, screen in enumerate(self.screens):
            show(screen, noise(number))
        self.drain()
        self.wire.hold()
        blocker = Blocker()
        self.writer.submit(blocker, lambda error: None)
        assert blocker.inside.wait(HANG)
        return blocker

    def four_queued_the_first_on_the_wire(self) -> None:
        """Seats 0 to 3 handed ``noise(70 + n)`` while the writer is busy, so all four are
        planned; then seat 0's first call on the wire, held there."""
        blocker = self.held()
        for number in range(4):
            show(self.screens[number], noise(70 + number))
        blocker.released.set()
        self.wire.until_waiting()

    def close(self) -> None:
        self.wire.open()
        for screen in self.screens:
            screen.close()


@pytest.fixture
def rig() -> Iterator[Rig]:
    made = Rig(8)
    yield made
    made.close()


def noise(seed: int) -> bytes:
    return random.Random(seed).randbytes(FRAME_BYTES)


def show(screen: OledScreen, frame: bytes) -> None:
    screen.show(image_from(_unpacked(frame)))


def _unpacked(frame: bytes) -> bytes:
    """The row-major 1-bit image whose controller RAM (page_bytes) is ``frame``."""
    rows = bytearray(FRAME_BYTES)
    for page in range(8):
        for x in range(128):
            value = frame[page * 128 + x]
            for bit in range(8):
                if value >> bit & 1:
                    y = page * 8 + bit
                    rows[y * 16 + x // 8] |= 0x80 >> (x % 8)
    return bytes(rows)


def test_screens_to_show_one_frame_get_its_bytes_once(rig: Rig) -> None:
    """Eight screens, each showing its own noise, then all the same frame: one frame of
    bytes crosses the wire (not eight), with every channel connected, and each shows it."""
    for number, screen in enumerate(rig.screens):
        show(screen, noise(number))
    rig.drain()
    mark = len(rig.wire.transfers)
    lobby = noise(100)
    with rig.together():
        for screen in rig.screens:
            show(screen, lobby)
    assert data_bytes(rig.wire.transfers[mark:]) == FRAME_BYTES
    assert Transfer(MUX, None, bytes([0xFF])) in rig.wire.transfers[mark:]
    assert all(shown(rig.wire, channel) == lobby for channel in range(8))


def test_the_presser_costs_no_byte_more_and_goes_first(rig: Rig) -> None:
    """The presser's screen needs a little; the others showing the same frame need it all.
    Up to the presser's last byte the wire carries exactly the presser's own plan (the others
    connected too), and nothing that leaves the presser out."""
    old = noise(1)
    for number, screen in enumerate(rig.screens):
        show(screen, old if number == 0 else noise(10 + number))
    rig.drain()
    new = bytearray(old)
    new[300:340] = bytes(40)  # a digit changed on the presser's screen
    new = bytes(new)
    mark = len(rig.wire.transfers)
    with rig.together():
        rig.screens[0].awaited()
        for screen in rig.screens:
            show(screen, new)
    since = rig.wire.transfers[mark:]
    heard = per_channel(since)[0]
    last = max(index for index, t in enumerate(since) if t.control == 0x40
               and any(t is h for _, h in heard))
    before = [t for t in since[:last + 1] if t.address != MUX]
    controller = CONTROLLERS["ssd1306"]
    own = transfers(plan(old, new, controller), controller)
    assert len(before) == len(own)  # the presser's own plan, transfer for transfer
    assert data_bytes(before) == sum(end - start for _, spans in own for start, end in spans)
    assert all(mask == 0xFF for mask, t in heard[:len(before)])
    assert heard[len(before)][1] == Transfer(ADDRESS, 0x00, bytes([NOP]))  # then asked alone
    assert all(shown(rig.wire, channel) == new for channel in range(8))


def test_each_frame_goes_to_the_screens_that_show_it(rig: Rig) -> None:
    """Three frames among five screens: three groups, each sent once to its own channels."""
    for number, screen in enumerate(rig.screens):
        show(screen, noise(number))
    rig.drain()
    mark = len(rig.wire.transfers)
    frames = {0: noise(20), 1: noise(20), 2: noise(21), 3: noise(21), 4: noise(22)}
    with rig.together():
        for number, frame in frames.items():
            show(rig.screens[number], frame)
    masks = {t.data[0] for t in rig.wire.transfers[mark:] if t.address == MUX}
    assert {0b11, 0b1100, 0b10000} <= masks
    assert data_bytes(rig.wire.transfers[mark:]) == 3 * FRAME_BYTES
    assert all(shown(rig.wire, number) == frame for number, frame in frames.items())


def paged(pages: Sequence[int]) -> bytes:
    """A frame whose page ``n`` is page ``n`` of ``noise(pages[n])``: frames that share some
    pages (a turn change's title and body) and differ in others (each seat's action bar)."""
    return b"".join(noise(seed)[page * 128 : (page + 1) * 128] for page, seed in enumerate(pages))


def settled(rig: Rig, count: int) -> int:
    """The first ``count`` screens shown their own noise and sent; where the wire's record
    stands then."""
    for number, screen in enumerate(rig.screens[:count]):
        show(screen, noise(number))
    rig.drain()
    return len(rig.wire.transfers)


def counted_plans(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """Every frame the chorus plans from now on, in order."""
    planned: list[bytes] = []

    def counted(old: bytes | None, new: bytes, controller: object) -> object:
        planned.append(new)
        return plan(old, new, controller)

    monkeypatch.setattr(chorus, "plan", counted)
    return planned


def test_frames_that_differ_in_a_line_share_the_rest(rig: Rig) -> None:
    """A turn change: eight seats go from their own noise to one title and body, each with
    its own action bar (the last two pages). The six shared pages cross the wire once, every
    seat connected; each bar goes to its seat alone; every seat shows its own frame, and
    the last write each heard was to it alone (one it would fail, were it gone)."""
    for number, screen in enumerate(rig.screens):
        show(screen, noise(number))
    rig.drain()
    mark = len(rig.wire.transfers)
    frames = [paged((80, 81, 82, 83, 84, 85, 90 + n, 100 + n)) for n in range(8)]
    with rig.together():
        for screen, frame in zip(rig.screens, frames, strict=True):
            show(screen, frame)
    since = rig.wire.transfers[mark:]
    assert data_bytes(since) == 6 * 128 + 8 * 2 * 128  # not 8 * 1024
    heard = per_channel(since)
    for channel in range(8):
        assert shown(rig.wire, channel) == frames[channel]
        masks = [mask for mask, t in heard[channel]]
        assert 0xFF in masks and masks[-1] == 1 << channel


def test_screens_to_show_one_frame_join_the_blocks_another_frame_shares(
        rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 0 is handed its new frame, then seats 1 and 2 one frame of their own that
    differs from seat 0's in the last two pages (a turn change: the same title and body,
    another bar). Seat 1 joins seat 0's six blocks it shares; seat 2, handed seat 1's frame,
    is planned with it where it is queued (seat 0 is not planned again), the two joining
    those blocks and sent the other two pages once, both connected: 1 KiB and two pages
    cross the wire, not two frames; each seat shows its own, and the last write each heard
    was to it alone."""
    mark = settled(rig, 3)
    first = paged((80, 81, 82, 83, 84, 85, 90, 100))
    second = paged((80, 81, 82, 83, 84, 85, 91, 101))
    with rig.together():
        show(rig.screens[0], first)
        show(rig.screens[1], second)
        planned = counted_plans(monkeypatch)
        show(rig.screens[2], second)
    assert planned == [second]
    since = rig.wire.transfers[mark:]
    assert data_bytes(since) == FRAME_BYTES + 2 * 128
    heard = per_channel(since)
    for channel, frame in enumerate((first, second, second)):
        assert shown(rig.wire, channel) == frame
        assert heard[channel][-1][0] == 1 << channel


def test_screens_that_show_one_frame_handed_the_next_share_its_plan_unplanned(
        rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    """A turn change: eight seats that show the same frame are handed the same new one, one
    by one, while the wire is busy. The new frame is planned once, for the first seat; each
    seat after it joins those writes as they stand, not planned again with the others (a
    plan per seat is what a Zero's loop could least afford there). Its changed bytes cross
    the wire once, every seat connected; each seat shows it, and the last write each heard
    was to it alone."""
    old, new = paged((80, 81, 82, 83, 84, 85, 86, 87)), paged((80, 81, 92, 83, 84, 85, 96, 97))
    for screen in rig.screens:
        show(screen, old)
    rig.drain()
    mark = len(rig.wire.transfers)
    planned = counted_plans(monkeypatch)
    with rig.together():
        for screen in rig.screens:
            show(screen, new)
    assert planned == [new]
    since = rig.wire.transfers[mark:]
    controller = CONTROLLERS["ssd1306"]
    changed = transfers(plan(old, new, controller), controller)
    assert data_bytes(since) == sum(end - start for _, spans in changed for start, end in spans)
    heard = per_channel(since)
    for channel in range(8):
        assert shown(rig.wire, channel) == new
        assert heard[channel][-1][0] == 1 << channel


def test_a_frame_handed_over_while_another_is_sent_joins_the_blocks_not_yet_sent(
        rig: Rig) -> None:
    """A slow loop: seat 0's whole new frame (one window, eight blocks) is on its way, its
    second block on the wire, when seat 1 is handed a frame that differs from it in the last
    page only. Seat 1 joins the five blocks still queued that it shares, pointed at the third
    page by one write of its own, and is sent the other pages alone: 1 KiB and three pages
    cross the wire, not two frames."""
    mark = settled(rig, 2)
    first = paged((80, 81, 82, 83, 84, 85, 86, 87))
    second = paged((80, 81, 82, 83, 84, 85, 86, 88))
    rig.wire.hold()
    show(rig.screens[0], first)
    rig.wire.let(3)  # the switch, the addressing, the first block
    rig.wire.until_waiting()
    show(rig.screens[1], second)
    rig.wire.open()
    rig.drain()
    since = rig.wire.transfers[mark:]
    assert data_bytes(since) == FRAME_BYTES + 3 * 128
    shared = [t for mask, t in per_channel(since)[1] if mask == 0b11 and t.control == 0x40]
    assert len(shared) == 5
    assert shown(rig.wire, 0) == first
    assert shown(rig.wire, 1) == second


def test_a_private_face_goes_alone_whatever_the_others_show() -> None:
    """Two seats open their private faces at once: what the wire carries is the same whether
    their secrets are the same or not (no shared write would tell that they are)."""

    def wire_shape(second_secret: int) -> list[tuple]:
        rig = Rig(2)
        try:
            for number, screen in enumerate(rig.screens):
                show(screen, noise(number))
            rig.drain()
            mark = len(rig.wire.transfers)
            with rig.together():
                for screen, secret in zip(rig.screens, (50, second_secret), strict=True):
                    screen.disclose(image_from(_unpacked(noise(secret))))
            assert shown(rig.wire, 1) == noise(second_secret)
            return [(t.address, t.control, len(t.data) if t.control == 0x40 else t.data)
                    for t in rig.wire.transfers[mark:]]
        finally:
            rig.close()

    assert wire_shape(50) == wire_shape(51)


def test_a_public_frame_never_joins_a_private_face_s_writes() -> None:
    """Seat 0 opens its private face while seat 1 is handed a public frame whose pages are,
    or are not, those of the secret: what the wire carries is the same either way (a shared
    write would tell another screen's pixels are the secret's)."""

    def wire_shape(public: bytes) -> list[tuple]:
        rig = Rig(2)
        try:
            for number, screen in enumerate(rig.screens):
                show(screen, noise(number))
            rig.drain()
            mark = len(rig.wire.transfers)
            with rig.together():
                rig.screens[0].disclose(image_from(_unpacked(noise(50))))
                show(rig.screens[1], public)
            assert shown(rig.wire, 0) == noise(50) and shown(rig.wire, 1) == public
            return [(t.address, t.control, len(t.data) if t.control == 0x40 else t.data)
                    for t in rig.wire.transfers[mark:]]
        finally:
            rig.close()

    secret = noise(50)
    assert wire_shape(secret[:768] + noise(51)[768:]) == wire_shape(noise(52))


def test_a_display_that_is_gone_is_noticed_and_the_others_show_their_frame(rig: Rig) -> None:
    """Channel 2's display is unplugged as all eight go to one frame: the others' acks would
    cover it in a shared write, but each is then asked alone, so seat 3's screen reports the
    fault, and the seven others show the frame."""
    for number, screen in enumerate(rig.screens):
        show(screen, noise(number))
    rig.drain()
    rig.wire.absent.add(2)
    frame = noise(30)
    with rig.together():
        for screen in rig.screens:
            show(screen, frame)
    with pytest.raises(OSError):
        show(rig.screens[2], frame)
    assert all(shown(rig.wire, channel) == frame for channel in range(8) if channel != 2)
    rig.wire.absent.clear()
    rig.screens[2].reconnect()
    show(rig.screens[2], frame)
    rig.drain()
    assert shown(rig.wire, 2) == frame


def test_once_the_presser_is_sent_the_chorus_waits_its_turn() -> None:
    """A background redraw of another chorus on the same wire (its own address) was queued
    first: the presser's screen goes before it, then the whole redraw, then the rest of the
    presser's chorus."""
    wire = MuxedWire()
    mux = Tca9548a(wire, MUX)
    writer = BusWriter("i2c-test")
    controller = CONTROLLERS["ssd1306"]
    near = Chorus(ADDRESS, controller, writer, mux)
    far = Chorus(0x3D, controller, writer, mux)
    pressed, *others = [OledScreen(mux.channel(c), address=ADDRESS, writer=writer, chorus=near)
                        for c in range(4)]
    ticking = OledScreen(mux.channel(4), address=0x3D, writer=writer, chorus=far)
    screens = [pressed, *others, ticking]
    try:
        for number, screen in enumerate(screens):
            screen.reconnect()
            show(screen, noise(number))
        writer.call(lambda: None)
        mark = len(wire.transfers)
        blocker = Blocker()
        writer.submit(blocker, lambda error: None)
        assert blocker.inside.wait(HANG)
        show(ticking, noise(40))
        pressed.awaited()
        show(pressed, noise(41))
        for number, screen in enumerate(others):
            show(screen, noise(42 + number))
        blocker.released.set()
        writer.call(lambda: None)
        since = [t for t in wire.transfers[mark:] if t.address != MUX]
        far_at = [index for index, t in enumerate(since) if t.address == 0x3D]
        heard = [t for _, t in per_channel(wire.transfers[mark:])[0] if t.control == 0x40]
        presser_last = max(index for index, t in enumerate(since) if any(t is h for h in heard))
        assert far_at == list(range(far_at[0], far_at[0] + len(far_at)))  # whole, unbroken
        assert presser_last < far_at[0] and far_at[-1] < len(since) - 1
        assert shown(wire, 0) == noise(41)
        assert all(shown(wire, c) == noise(42 + c - 1) for c in range(1, 4))
    finally:
        for screen in screens:
            screen.close()


pools = st.integers(0, 3)


@settings(max_examples=25, deadline=None)
@given(rounds=st.lists(st.tuples(st.lists(st.one_of(st.none(), pools), min_size=4, max_size=4),
                                 st.one_of(st.none(), st.integers(0, 3)), st.integers(0, 12)),
                       min_size=1, max_size=4))
def test_every_screen_ends_up_showing_its_last_frame(rounds) -> None:
    """Rounds of frames from a small pool (so screens share), a presser now and then, and a
    newer round handed over while the last is half sent: each screen ends up showing exactly
    the last frame it was given."""
    rig = Rig(4)
    try:
        last = {number: noise(200 + number) for number in range(4)}
        for number, screen in enumerate(rig.screens):
            show(screen, last[number])
        rig.drain()
        rig.wire.hold()
        for frames, presser, sent in rounds:
            if presser is not None:
                rig.screens[presser].awaited()
            for number, choice in enumerate(frames):
                if choice is not None:
                    last[number] = noise(300 + choice)
                    show(rig.screens[number], last[number])
            rig.wire.let(sent)
        rig.wire.open()
        rig.drain()
        assert all(shown(rig.wire, number) == frame for number, frame in last.items())
    finally:
        rig.close()


@settings(max_examples=25, deadline=None)
@given(rounds=st.lists(st.tuples(st.lists(st.one_of(st.none(), st.lists(
                           st.integers(0, 2), min_size=8, max_size=8)), min_size=4, max_size=4),
                                 st.one_of(st.none(), st.integers(0, 3)), st.integers(0, 12)),
                       min_size=1, max_size=4))
def test_screens_whose_frames_share_pages_each_end_up_showing_their_own(rounds) -> None:
    """As above, with frames made of pages from a small pool (so screens share some pages
    and not others, and join each other's windows, whole or mid-way): each screen ends up
    showing exactly the last frame it was given."""
    rig = Rig(4)
    try:
        last = {number: noise(200 + number) for number in range(4)}
        for number, screen in enumerate(rig.screens):
            show(screen, last[number])
        rig.drain()
        rig.wire.hold()
        for frames, presser, sent in rounds:
            if presser is not None:
                rig.screens[presser].awaited()
            for number, pages in enumerate(frames):
                if pages is not None:
                    last[number] = paged([310 + 3 * page + seed for page, seed in enumerate(pages)])
                    show(rig.screens[number], last[number])
            rig.wire.let(sent)
        rig.wire.open()
        rig.drain()
        assert all(shown(rig.wire, number) == frame for number, frame in last.items())
    finally:
        rig.close()


def test_the_presser_s_frame_is_one_system_call(rig: Rig) -> None:
    """The presser's whole new screen goes as one ``I2C_RDWR`` (its addressing and every
    block, each its own message), not a call a transfer; the seven others, handed the same
    frame while it is on the wire, follow it in one shared write."""
    for number, screen in enumerate(rig.screens):
        show(screen, noise(number))
    rig.drain()
    mark, calls = len(rig.wire.transfers), len(rig.wire.calls)
    frame = noise(59)
    rig.wire.hold()
    rig.screens[0].awaited()
    show(rig.screens[0], frame)
    rig.others_join_mid_frame(frame)
    presser = len(transfers(plan(noise(0), frame, CONTROLLERS["ssd1306"]),
                            CONTROLLERS["ssd1306"]))
    assert rig.wire.calls[calls] == presser > 2
    since = rig.wire.transfers[mark:]
    assert data_bytes(since) == 2 * FRAME_BYTES  # the presser's, then the others' once
    assert all(shown(rig.wire, channel) == frame for channel in range(8))


def test_a_screen_nobody_waits_for_goes_a_block_a_call(rig: Rig) -> None:
    """A frame no press waits for goes in calls of several messages (one system call, and
    one return of the GIL to the writer, for a window's addressing and its block, or for
    several small windows), none longer on the wire than one block of RAM bytes and the
    longest addressing: a press that lands meanwhile waits no longer than that."""
    show(rig.screens[0], noise(0))
    rig.drain()
    frame = bytearray(noise(0))
    frame[128:256] = noise(1)[128:256]  # a whole page: one window, a block
    for page in range(2, 8):  # and a few bytes here and there: small windows
        for column in (3, 60, 120):
            frame[page * 128 + column] ^= 0xFF
    calls, mark = len(rig.wire.call_bytes), len(rig.wire.transfers)
    show(rig.screens[0], bytes(frame))
    rig.drain()
    messages = [t for t in rig.wire.transfers[mark:] if t.address != MUX]
    sizes = rig.wire.call_bytes[calls:]
    assert max(sizes) <= 2 + I2C_BLOCK + 2 + CONTROLLERS["ssd1306"].address_bytes
    assert len(sizes) <= len(messages) // 2
    assert shown(rig.wire, 0) == bytes(frame)


def test_a_frame_handed_over_while_others_are_sent_plans_none_of_them_again(
        rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seats handed their frames one by one while the first are on the wire (a turn change
    on a slow Pi) are each planned once, after the rest: the writer does not plan the
    queued seats again for every one of them, with the wire idle meanwhile."""
    rig.four_queued_the_first_on_the_wire()
    planned = counted_plans(monkeypatch)
    for number in range(4, 7):
        show(rig.screens[number], noise(70 + number))
    rig.wire.open()
    rig.drain()
    seat_of = {noise(70 + number): number for number in range(8)}
    assert [seat_of.get(frame) for frame in planned] == [4, 5, 6]
    assert all(shown(rig.wire, number) == noise(70 + number) for number in range(7))


def test_a_frame_a_screen_on_the_wire_is_to_show_is_planned_as_it_is_handed(
        rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 0's new frame is on the wire, seats 1 to 3 queued with frames of their own, when
    seat 4 is handed seat 0's frame: it is planned there and then, joining what is queued
    of seat 0's, and nothing else is planned again (the writer planning every queued seat
    again would leave the wire idle meanwhile). Each seat shows its frame."""
    rig.four_queued_the_first_on_the_wire()
    planned = counted_plans(monkeypatch)
    show(rig.screens[4], noise(70))
    rig.wire.open()
    rig.drain()
    assert planned == [noise(70)]
    assert shown(rig.wire, 4) == noise(70)
    assert all(shown(rig.wire, number) == noise(70 + number) for number in range(4))


def test_frames_handed_over_while_the_presser_is_sent_ride_along(
        rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    """A presser's frame longer than one ``I2C_RDWR`` (here three messages a call) is on
    the wire when the seven others are handed the same frame: they join its next block but
    one (that one is already on its way; one write points them there), and the two blocks
    they missed follow once the presser is sent: 1 KiB and two blocks cross the wire, not
    two frames."""
    monkeypatch.setattr(chorus, "RDWR_MESSAGES", 3)
    for number, screen in enumerate(rig.screens):
        show(screen, noise(number))
    rig.drain()
    mark = len(rig.wire.transfers)
    frame = noise(60)
    rig.wire.hold()
    rig.screens[0].awaited()
    show(rig.screens[0], frame)
    rig.others_join_mid_frame(frame)
    since = rig.wire.transfers[mark:]
    assert data_bytes(since) == FRAME_BYTES + 256
    presser = [t for _, t in per_channel(since)[0] if t.control == 0x40]
    others = [t for _, t in per_channel(since)[1] if t.control == 0x40]
    assert len([t for t in presser if any(t is o for o in others)]) == 6
    assert all(shown(rig.wire, channel) == frame for channel in range(8))


def test_once_the_presser_is_sent_its_riders_are_planned_and_nothing_else(
        rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seats 5 and 6 are queued with frames of their own, the presser's frame goes first,
    and seats 1 to 3 are handed it while it is on the wire: they ride along, and once it
    is sent what they still lack is planned, together; the frames of seats 5 and 6 are not
    planned again (the writer does that with the wire idle). Each seat shows its frame."""
    monkeypatch.setattr(chorus, "RDWR_MESSAGES", 3)
    blocker = rig.held()
    frame = noise(62)
    for number in (5, 6):
        show(rig.screens[number], noise(70 + number))
    rig.screens[0].awaited()
    show(rig.screens[0], frame)
    blocker.released.set()
    rig.wire.let(3)
    rig.wire.until_waiting()
    planned = counted_plans(monkeypatch)
    for screen in rig.screens[1:4]:
        show(screen, frame)
    rig.wire.open()
    rig.drain()
    assert planned == [frame]
    assert all(shown(rig.wire, channel) == frame for channel in range(4))
    assert all(shown(rig.wire, number) == noise(70 + number) for number in (5, 6))


def test_a_presser_joined_by_riders_is_asked_before_the_wire_turns_to_other_work(
        rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    """Riders make the presser's last writes shared (its frame longer than one ``I2C_RDWR``
    of three messages), so its display is then asked alone (a NOP): that probe is the
    presser's, sent as soon as its frame is, before the writer turns to older work queued
    meanwhile (not once the rest is planned, with the others' planning on the presser's
    time)."""
    monkeypatch.setattr(chorus, "RDWR_MESSAGES", 3)
    blocker = rig.held()
    frame = noise(61)
    ran_at: list[int] = []

    class Older:
        def step(self) -> bool:
            ran_at.append(len(rig.wire.transfers))
            return False

    rig.writer.submit(Older(), lambda error: None)  # queued before the presser's frame
    rig.screens[0].awaited()
    show(rig.screens[0], frame)
    blocker.released.set()
    rig.others_join_mid_frame(frame)
    mask, asked = 0, None
    for position, transfer in enumerate(rig.wire.transfers):
        if transfer.address == MUX and transfer.control is None:
            mask = transfer.data[0]
        elif mask == 1 and transfer.control == 0x00 and tuple(transfer.data) == (NOP,):
            asked = position
    assert asked is not None
    assert ran_at and ran_at[0] > asked
    assert all(shown(rig.wire, channel) == frame for channel in range(8))


def test_a_presser_whose_screen_did_not_change_holds_nobody_up(rig: Rig) -> None:
    """The presser's screen is planned first and alone; when it has nothing to send, the
    others' frames still go at once."""
    for number, screen in enumerate(rig.screens):
        show(screen, noise(number))
    rig.drain()
    with rig.together():
        rig.screens[0].awaited()
        show(rig.screens[0], noise(0))  # the same frame again
        for number, screen in enumerate(rig.screens[1:], start=1):
            show(screen, noise(70 + number % 2))
    assert shown(rig.wire, 0) == noise(0)
    assert all(shown(rig.wire, n) == noise(70 + n % 2) for n in range(1, 8))
