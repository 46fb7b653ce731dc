"""Seat OLEDs: partial updates over a recorded I2C bus, checked against a controller RAM model."""

from __future__ import annotations

import errno
import functools
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from luma.core.device import device as luma_device
from luma.core.interface.serial import i2c
from luma.oled.device import sh1106, ssd1306
from PIL import Image, ImageDraw

from companion.render import large_font
from hardware.drivers import oled
from hardware.drivers.bus import RecordingBus, Tca9548a, Transfer
from hardware.drivers.chorus import DISPLAY_OFF, DISPLAY_ON
from hardware.drivers.oled import CONTROLLERS, OledScreen
from hardware.drivers.planner import page_bytes
from podproto.wire import CHIPS

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")

SIZE = (128, 64)
ADDRESS = 0x3C
RAM_COLUMNS = {"ssd1306": 128, "sh1106": 132}
COLUMN_OFFSET = {"ssd1306": 0, "sh1106": 2}
# Commands followed by argument bytes, per controller (everything else is one byte).
ARGUMENTS = {
    "ssd1306": {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1,
                0xDA: 1, 0xDB: 1},
    "sh1106": {0x81: 1, 0x8D: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1},
}


class Ram:
    """What the controller holds after a stream of I2C transfers: RAM, pointers, on/off."""

    def __init__(self, driver: str) -> None:
        self.driver = driver
        self.width = RAM_COLUMNS[driver]
        self.cells = bytearray(self.width * 8)
        self.lit = False
        self.page = self.column = 0
        self.columns = (0, 127)
        self.pages = (0, 7)
        self.seen = 0

    def feed(self, transfers: list[Transfer]) -> Ram:
        for transfer in transfers[self.seen :]:
            if transfer.address != ADDRESS:
                continue
            if transfer.control == 0x00:
                self._commands(list(transfer.data))
            elif transfer.control == 0x40:
                for value in transfer.data:
                    self._write(value)
        self.seen = len(transfers)
        return self

    def image(self) -> Image.Image:
        """The visible 128x64 pixels: bit 0 of a page byte is the page's top row."""
        image = Image.new("1", SIZE)
        offset = COLUMN_OFFSET[self.driver]
        for y in range(64):
            for x in range(128):
                if self.cells[(y // 8) * self.width + x + offset] >> (y % 8) & 1:
                    image.putpixel((x, y), 1)
        return image

    def visible(self) -> bytes:
        offset = COLUMN_OFFSET[self.driver]
        return b"".join(
            bytes(self.cells[p * self.width + offset : p * self.width + offset + 128])
            for p in range(8)
        )

    def _commands(self, stream: list[int]) -> None:
        while stream:
            command = stream.pop(0)
            count = ARGUMENTS[self.driver].get(command, 0)
            arguments, stream = stream[:count], stream[count:]
            self._command(command, arguments)

    def _command(self, command: int, arguments: list[int]) -> None:
        if command in (DISPLAY_OFF, DISPLAY_ON):
            self.lit = command == DISPLAY_ON
        elif self.driver == "ssd1306" and command == 0x21:
            self.columns, self.column = tuple(arguments), arguments[0]
        elif self.driver == "ssd1306" and command == 0x22:
            self.pages, self.page = tuple(arguments), arguments[0]
        elif self.driver == "sh1106" and 0xB0 <= command <= 0xB7:
            self.page = command & 0x07
        elif self.driver == "sh1106" and command <= 0x0F:
            self.column = self.column & 0xF0 | command
        elif self.driver == "sh1106" and 0x10 <= command <= 0x1F:
            self.column = (command & 0x0F) << 4 | self.column & 0x0F

    def _write(self, value: int) -> None:
        self.cells[self.page * self.width + self.column] = value
        if self.driver == "sh1106":
            self.column = min(self.column + 1, self.width - 1)
            return
        self.column += 1
        if self.column > self.columns[1]:
            self.column = self.columns[0]
            self.page = self.page + 1 if self.page < self.pages[1] else self.pages[0]


@functools.cache
def reference(driver: str, rotate: int) -> tuple[luma_device, RecordingBus]:
    """One plain luma device per driver and rotation (each registers an exit hook: reuse)."""
    bus = RecordingBus()
    build = ssd1306 if driver == "ssd1306" else sh1106
    device = build(i2c(bus=bus, address=ADDRESS), rotate=rotate)
    device.persist = True
    return device, bus


def luma_ram(driver: str, image: Image.Image, rotate: int = 0) -> Ram:
    """The RAM luma's own display() leaves for ``image`` (the reference bit order)."""
    device, bus = reference(driver, rotate)
    bus.clear()
    device.display(image)
    return Ram(driver).feed(bus.transfers)


def clock_face(text: str) -> Image.Image:
    image = Image.new("1", SIZE)
    ImageDraw.Draw(image).text((18, 16), text, font=large_font(36), fill=1)
    return image


def image_from(data: bytes) -> Image.Image:
    return Image.frombytes("1", SIZE, data)


@pytest.fixture(params=["ssd1306", "sh1106"])
def driver(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def rig(driver: str) -> Iterator[tuple[OledScreen, RecordingBus, Ram]]:
    bus = RecordingBus()
    screen = OledScreen(bus, driver=driver, address=ADDRESS)
    screen.reconnect()
    yield screen, bus, Ram(driver)
    screen.close()


@pytest.fixture(scope="module", params=[("ssd1306", 0), ("sh1106", 0), ("ssd1306", 2),
                                        ("sh1106", 2)])
def shared_rig(request: pytest.FixtureRequest) -> Iterator[tuple[OledScreen, RecordingBus, Ram,
                                                                 int]]:
    """One screen per driver and rotation for all hypothesis examples (luma devices are big)."""
    driver, rotate = request.param
    bus = RecordingBus()
    screen = OledScreen(bus, driver=driver, address=ADDRESS, rotate=rotate)
    screen.reconnect()
    yield screen, bus, Ram(driver), rotate
    screen.close()


frames = st.binary(min_size=1024, max_size=1024)
rectangles = st.lists(
    st.tuples(st.integers(0, 127), st.integers(0, 63), st.integers(1, 40), st.integers(1, 30),
              st.integers(0, 1)),
    max_size=4,
)


def test_oled_drives_every_chip_table_toml_accepts() -> None:
    """The chips are one list (podproto.wire.CHIPS); the Pi has a controller for each."""
    assert tuple(CONTROLLERS) == CHIPS


@settings(max_examples=100, deadline=None)
@given(frames)
def test_page_bytes_holds_each_pixel_where_the_controller_reads_it(data: bytes) -> None:
    """Byte ``page * 128 + x`` holds column x of the page's 8 rows, the top one in bit 0:
    checked pixel by pixel against the image, on any frame."""
    image = image_from(data)
    ram = page_bytes(image)
    assert len(ram) == 1024
    assert all(bool(ram[y // 8 * 128 + x] >> (y % 8) & 1) == bool(image.getpixel((x, y)))
               for y in range(64) for x in range(128))


@settings(max_examples=40, deadline=None)
@given(first=frames, changes=rectangles)
def test_show_ram_matches_luma_display(shared_rig, first: bytes, changes) -> None:
    """After any two frames, the controller RAM is exactly what luma's display() would leave."""
    screen, bus, ram, rotate = shared_rig
    before, after = image_from(first), image_from(first)
    draw = ImageDraw.Draw(after)
    for x, y, width, height, fill in changes:
        draw.rectangle((x, y, x + width, y + height), fill=fill)
    screen.show(before)
    screen.show(after)
    expected = luma_ram(ram.driver, after, rotate)
    assert ram.feed(bus.transfers).visible() == expected.visible()


def test_show_ram_holds_the_image_pixels(rig) -> None:
    """The pixels on the panel are the image's: bit 0 of each page byte is its top row."""
    screen, bus, ram = rig
    image = clock_face("1:23")
    screen.show(image)
    assert ram.feed(bus.transfers).image().tobytes() == image.tobytes()
    assert ram.lit


def test_show_hourglass_tick_sends_under_160_bytes(rig) -> None:
    """A one-second hourglass tick ("1:23" to "1:22") costs a small fraction of a frame."""
    screen, bus, ram = rig
    screen.show(clock_face("1:23"))
    sent = bus.bytes_sent
    screen.show(clock_face("1:22"))
    assert 0 < bus.bytes_sent - sent < 160
    assert ram.feed(bus.transfers).visible() == luma_ram(ram.driver, clock_face("1:22")).visible()


def test_show_first_frame_is_whole(rig) -> None:
    """The first frame after connecting is sent whole (the RAM is not trusted yet)."""
    screen, bus, _ = rig
    bus.clear()
    screen.show(clock_face("1:23"))
    assert bus.bytes_sent > 1030


def test_show_whole_frame_goes_in_page_sized_transfers(rig) -> None:
    """A whole frame's 1024 RAM bytes go in 8 data transfers of 128, each with its address
    and control byte (luma's 32-byte SMBus blocks were 32 transfers, 48 B more on the
    wire): a full redraw is shorter, and the panel still shows the image."""
    screen, bus, ram = rig
    image = clock_face("1:23")
    before = len(bus.transfers)  # after the init sequence: luma's own clear, in its blocks
    screen.show(image)
    data = [t for t in bus.transfers[before:] if t.control == 0x40]
    assert [len(t.data) for t in data] == [128] * 8
    assert ram.feed(bus.transfers).image().tobytes() == image.tobytes()


def test_show_identical_frame_sends_nothing(rig) -> None:
    """Re-showing the same picture costs no bus time at all."""
    screen, bus, _ = rig
    screen.show(clock_face("0:05"))
    bus.clear()
    screen.show(clock_face("0:05"))
    assert bus.transfers == []


def test_show_nearby_changes_share_one_write(rig) -> None:
    """Two pixels a few columns apart on one page go out as one addressed write."""
    screen, bus, ram = rig
    screen.show(Image.new("1", SIZE))
    image = Image.new("1", SIZE)
    image.putpixel((40, 3), 1)
    image.putpixel((44, 5), 1)
    before = len(bus.transfers)
    screen.show(image)
    assert [transfer.control for transfer in bus.transfers[before:]] == [0x00, 0x40]
    assert ram.feed(bus.transfers).image().tobytes() == image.tobytes()


def test_conceal_switches_off_before_writing(rig) -> None:
    """Ending a peek: display off first, then the public face, then display on."""
    screen, bus, ram = rig
    screen.show(clock_face("SPY"))
    before = len(bus.transfers)
    screen.conceal(clock_face("1:23"))
    assert bus.transfers[before] == Transfer(ADDRESS, 0x00, bytes([DISPLAY_OFF]))
    assert bus.transfers[-1] == Transfer(ADDRESS, 0x00, bytes([DISPLAY_ON]))
    assert ram.feed(bus.transfers).image().tobytes() == clock_face("1:23").tobytes()


def test_disclose_and_conceal_write_the_same_transfers_whatever_the_frame(driver) -> None:
    """A private face's traffic never depends on its pixels: two different secrets shown and
    then hidden again cross the bus as the same transfers, in the same order."""
    def shapes(secret: str) -> list[tuple]:
        bus = RecordingBus()
        screen = OledScreen(bus, driver=driver, address=ADDRESS)
        screen.reconnect()
        screen.show(clock_face("1:23"))
        before = len(bus.transfers)
        screen.disclose(clock_face(secret))
        screen.disclose(clock_face(secret))  # unchanged, and still written whole
        screen.conceal(clock_face("1:23"))
        ram = Ram(driver).feed(bus.transfers)
        assert ram.image().tobytes() == clock_face("1:23").tobytes()
        screen.close()
        return [(t.control, len(t.data)) if t.control == 0x40 else (t.control, t.data)
                for t in bus.transfers[before:]]

    assert shapes("SPY") == shapes("1") and sum(n for c, n in shapes("1") if c == 0x40) == 3072


def test_blank_clears_ram_and_switches_off(rig) -> None:
    """Blanking leaves a dark, empty panel; the next show lights it again."""
    screen, bus, ram = rig
    screen.show(clock_face("SPY"))
    screen.blank()
    ram.feed(bus.transfers)
    assert bus.transfers[-1].control == 0x40
    assert not ram.lit and not any(ram.cells)
    screen.show(clock_face("1:00"))
    assert ram.feed(bus.transfers).lit


def test_show_unplugged_raises_then_recovers_whole(rig) -> None:
    """An unplugged display raises OSError; after reconnecting the whole frame is re-sent."""
    screen, bus, ram = rig
    screen.show(clock_face("1:23"))
    bus.fail_with(OSError(errno.EREMOTEIO, "Remote I/O error"))
    with pytest.raises(OSError):
        screen.show(clock_face("1:22"))
    with pytest.raises(OSError):
        screen.reconnect()
    with pytest.raises(OSError):
        screen.show(clock_face("1:21"))
    bus.recover()
    screen.reconnect()
    bus.clear()
    screen.show(clock_face("1:20"))
    assert bus.bytes_sent > 1030
    ram = Ram(ram.driver).feed(bus.transfers)
    assert ram.image().tobytes() == clock_face("1:20").tobytes()


def test_reconnect_absent_display_builds_nothing(driver: str) -> None:
    """A display missing at start costs one probe per retry, never a luma init sequence."""
    bus = RecordingBus()
    bus.fail_with(OSError(errno.ENXIO, "No such device or address"))
    screen = OledScreen(bus, driver=driver)
    for _ in range(3):
        with pytest.raises(OSError):
            screen.reconnect()
    assert not screen.online
    bus.recover()
    screen.reconnect()
    assert screen.online
    assert bus.transfers[0] == Transfer(ADDRESS, 0x00, bytes([0xE3]))


def test_show_rejects_wrong_image_mode(rig) -> None:
    """A colour image is a renderer bug, refused with a clear error rather than drawn wrong."""
    screen, _, _ = rig
    with pytest.raises(ValueError, match="128x64 mode-1"):
        screen.show(Image.new("RGB", SIZE))


def test_a_public_image_s_ram_is_made_once_for_every_screen_a_private_one_s_each_time(
        driver: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A turn change hands several seats the same public image: its controller RAM is made
    for the first screen (of each rotation) and found for the others, and each shows it. A
    private image's RAM is made for every screen each time, so its cost never tells
    whether the same secret was shown before."""
    made: list[Image.Image] = []

    def counted(image: Image.Image) -> bytes:
        made.append(image)
        return page_bytes(image)

    monkeypatch.setattr(oled, "page_bytes", counted)
    rigs = [(OledScreen(bus, driver=driver, address=ADDRESS, rotate=rotate), bus)
            for rotate, bus in ((0, RecordingBus()), (0, RecordingBus()), (2, RecordingBus()))]
    for screen, _ in rigs:
        screen.reconnect()
    public, private = clock_face("1:23"), clock_face("0:45")
    for screen, _ in rigs:
        screen.show(public)
    assert len(made) == 2  # rotations 0 and 2
    for (_, bus), rotate in zip(rigs, (0, 0, 2), strict=True):
        assert Ram(driver).feed(bus.transfers).visible() == luma_ram(driver, public,
                                                                       rotate).visible()
    for _ in range(2):
        for screen, _ in rigs:
            screen.disclose(private)
    assert len(made) == 2 + 6
    for screen, _ in rigs:
        screen.close()


def test_mux_selects_channel_only_when_switching() -> None:
    """Screens behind one TCA9548A: the mux is written only when another channel is needed."""
    bus = RecordingBus()
    mux = Tca9548a(bus, 0x70)
    left = OledScreen(mux.channel(0))
    right = OledScreen(mux.channel(5))
    left.reconnect()
    right.reconnect()
    bus.clear()
    left.show(clock_face("1:00"))
    left.show(clock_face("0:59"))
    right.show(clock_face("1:00"))
    selects = [transfer.data for transfer in bus.transfers if transfer.address == 0x70]
    assert selects == [bytes([1 << 0]), bytes([1 << 5])]
    left.close()
    assert not bus.closed
    right.close()
    assert bus.closed


def test_mux_reselects_after_bus_error() -> None:
    """After a bus error the mux may have reset, so the channel is selected again."""
    bus = RecordingBus()
    mux = Tca9548a(bus, 0x71)
    channel = mux.channel(2)
    channel.write_byte(0x3C, 0)
    bus.fail_with(OSError(errno.EIO, "I/O error"))
    with pytest.raises(OSError):
        channel.write_byte(0x3C, 0)
    bus.recover()
    bus.clear()
    channel.write_byte(0x3C, 0)
    assert [transfer.address for transfer in bus.transfers] == [0x71, 0x3C]
