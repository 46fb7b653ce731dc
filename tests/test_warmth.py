"""How cold the loop thread's steps run: the probe must time the service's own calls where
a press's step makes them, change nothing they return, and the model's headroom must be
the stretch at which a goal is just met."""

from __future__ import annotations

import dataclasses
import threading

import pytest
from PIL import Image, ImageDraw

from bench import realpath, warmth, zero
from hardware.drivers import oled
from hardware.drivers.emulated_wire import wire_seconds


def _image() -> Image.Image:
    image = Image.new("1", (128, 64), 0)
    ImageDraw.Draw(image).text((3, 20), "Seat 4's turn", fill=1)
    return image


def test_the_probe_times_each_press_step_s_first_call_once_and_returns_what_it_did() -> None:
    original, image = oled.page_bytes, _image()
    expected = original(image)
    tracer = realpath.Tracer()
    tracer.loop_thread, tracer.current = threading.current_thread(), zero.Trace(1, 0.0)
    with warmth.Probe() as probe:
        probe.watch(tracer)
        assert oled.page_bytes is not original
        assert oled.page_bytes(image) == expected
        assert oled.page_bytes(image) == expected  # the same step: not timed again
        tracer.current = zero.Trace(2, 0.0)
        oled.page_bytes(image)
        tracer.current = zero.Trace(None, 0.0)  # a tick: nobody pressed
        oled.page_bytes(image)
        tracer.current = zero.Trace(3, 0.0)
        other = threading.Thread(target=oled.page_bytes, args=(image,))  # a writer thread
        other.start()
        other.join()
    assert oled.page_bytes is original
    timed = next(part for part in probe.parts if part.name == "page_bytes")
    assert len(timed.cold) == len(timed.warm) == 2
    assert all(seconds > 0 for seconds in timed.cold + timed.warm)
    assert all(part.ratio is None for part in probe.parts if part is not timed)


def test_the_model_divides_by_the_least_cold_part_and_refuses_none() -> None:
    probe = warmth.Probe()
    digest, frame, plan = probe.parts
    digest.cold, digest.warm = [6e-6, 4e-6], [1e-6, 1e-6]  # 5x
    frame.cold, frame.warm = [90e-6], [30e-6]  # 3x
    assert probe.ratio == pytest.approx(3.0)
    plan.cold, plan.warm = [100e-6, 120e-6], [50e-6, 60e-6]  # 2x
    assert probe.ratio == pytest.approx(2.0)
    with pytest.raises(RuntimeError, match="no press"):
        _ = warmth.Probe().ratio


def test_the_headroom_is_the_stretch_at_which_the_presser_just_meets_its_goal() -> None:
    """Each press computes 1 ms here before its 100 bytes: on the Zero its screen is done
    after the wake-up, 1 ms times the factor and the bytes on the wire."""
    presses = [zero.Trace(1, float(n), cpu_started=0.0, cpu_ended=0.001,
                          sent=[zero.Sent(0.0, 0.001, 1, (1,), 100)]) for n in range(20)]
    session = realpath.Session(presses, presses)
    pi = zero.zero_2w(1.0)
    goal = 20.0
    wire = wire_seconds(100, pi.i2c_hz)
    expected = (goal / 1000 - zero.WAKE - wire) / 0.001
    found = realpath.headroom(session, pi, 0.0, (goal, 150.0))
    assert expected - 0.06 < found <= expected, (found, expected)
    at = dataclasses.replace(pi, cpu_factor=found)
    past = dataclasses.replace(pi, cpu_factor=expected + 0.1)
    (met, _), (missed, _) = (realpath.model_p99(session, one, 0.0) for one in (at, past))
    assert met < goal < missed
