"""The integer window planner sends exactly the windows the original Window-object planner
chose, for both OLED controllers and for the pod link's own cost model, and cuts them into
the same transfers the byte-by-byte version did: the same bytes on the bus, only planned
faster."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.drivers.oled import CONTROLLERS
from hardware.drivers.planner import FRAME_BYTES, I2C_BLOCK, PAGES, WIDTH, plan, transfers
from hardware.pods.screen import LINK

from .planner_reference import reference_plan

frames = st.binary(min_size=FRAME_BYTES, max_size=FRAME_BYTES)
COST_MODELS = {**CONTROLLERS, LINK.name: LINK}


@st.composite
def edits(draw) -> tuple[bytes, bytes]:
    """A frame and the same frame with a few rectangles changed (digits, words, bars)."""
    old = bytearray(draw(frames))
    new = bytearray(old)
    for _ in range(draw(st.integers(0, 6))):
        first = draw(st.integers(0, PAGES - 1))
        last = draw(st.integers(first, min(PAGES - 1, first + 3)))
        start = draw(st.integers(0, WIDTH - 1))
        end = draw(st.integers(start + 1, WIDTH))
        for page in range(first, last + 1):
            for column in range(start, end):
                new[page * WIDTH + column] ^= draw(st.integers(1, 255))
    return bytes(old), bytes(new)


@settings(max_examples=300, deadline=None)
@given(edits(), st.sampled_from(sorted(COST_MODELS)))
def test_integer_planner_chooses_the_reference_windows(pair, name):
    old, new = pair
    controller = COST_MODELS[name]
    assert plan(old, new, controller) == reference_plan(old, new, controller)


@settings(max_examples=50, deadline=None)
@given(frames, st.sampled_from(sorted(COST_MODELS)))
def test_unknown_ram_is_planned_like_the_reference(new, name):
    controller = COST_MODELS[name]
    assert plan(None, new, controller) == reference_plan(None, new, controller)


@settings(max_examples=200, deadline=None)
@given(edits(), st.sampled_from(sorted(CONTROLLERS)))
def test_transfers_fill_the_ram_the_byte_by_byte_blocks_filled(pair, name):
    """Each window's addressing, then its blocks of at most I2C_BLOCK bytes, each block's
    RAM spans visiting exactly the offsets, in the order, of the block of offsets the
    writer took before (page by page, column by column)."""
    old, new = pair
    controller = CONTROLLERS[name]
    windows = plan(old, new, controller)
    expected: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    for window in windows:
        expected.append((controller.address(window), ()))
        offsets = [page * WIDTH + column
                   for page in range(window.first_page, window.last_page + 1)
                   for column in range(window.start, window.end)]
        expected += [((), tuple(offsets[at:at + I2C_BLOCK]))
                     for at in range(0, len(offsets), I2C_BLOCK)]
    got = [(commands, tuple(offset for start, end in spans for offset in range(start, end)))
           for commands, spans in transfers(windows, controller)]
    assert got == expected
