"""The integer window planner sends exactly the windows the original Window-object planner
chose, for both OLED controllers and for the pod link's own cost model: the same bytes on
the bus, only planned faster."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.drivers.oled import CONTROLLERS, FRAME_BYTES, PAGES, WIDTH, plan
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
