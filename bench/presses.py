"""Presses and hourglass seconds on a full 8-seat table: latency and bytes on the bus.

The same game (same seed, same moves, same fake-clock pace) is played twice: once on the
companion's partial-update driver, once with luma's stock full-frame driver in its place.
Presses are timed with ``perf_counter`` from the pin edge until every changed byte has been
handed to the bus; only edges made while the hourglass runs and that changed a screen count.
The recording bus takes bytes instantly, so the wire time is estimated beside it: on a real
table the seats share one 400 kHz bus behind the mux, 9 clock cycles a byte.
"""

from __future__ import annotations

from dataclasses import dataclass

from hardware.drivers.oled import Controller, OledScreen

from .optimum import optimum_cost
from .report import Figure
from .sizes import Sizes
from .stats import Spread, spread
from .table import BenchTable, Edge

THINK = 0.5  # table seconds between two moves: the hourglass ticks meanwhile
I2C_HZ = 400_000
BITS_PER_BYTE = 9  # 8 data bits and the ACK
STOCK = "luma full frame"


@dataclass(frozen=True)
class Play:
    """What one driver did: press latency, bytes per changed seat, bytes per glass second."""

    latency_ms: Spread
    wire_ms: Spread
    seat_bytes: Spread
    seat_bytes_mean: float
    glass_bytes_per_seat_second: float
    glass_optimum_per_seat_second: float | None  # None for luma's full frames: no plan


def measure(sizes: Sizes) -> list[Figure]:
    ours = play(sizes, stock=False)
    stock = play(sizes, stock=True)
    ratio = ours.glass_bytes_per_seat_second / stock.glass_bytes_per_seat_second
    assert ours.glass_optimum_per_seat_second is not None
    optimum = ours.glass_optimum_per_seat_second
    press_ratio = ours.seat_bytes_mean / stock.seat_bytes_mean
    return [
        _pair("press_p50", f"press to bytes on bus p50, {sizes.seats} seats", ours.latency_ms.p50,
              stock.latency_ms.p50, "ms"),
        _pair("press_p99", "press to bytes on bus p99", ours.latency_ms.p99,
              stock.latency_ms.p99, "ms", 5.0),
        _pair("press_max", "press to bytes on bus max", ours.latency_ms.max,
              stock.latency_ms.max, "ms"),
        _pair("press_wire_p99", "press to last byte on wire p99 (est.)", ours.wire_ms.p99,
              stock.wire_ms.p99, "ms"),
        _pair("press_bytes", "bytes per press on one seat (mean)", ours.seat_bytes_mean,
              stock.seat_bytes_mean, "B", 420.0),
        _pair("press_bytes_p99", "bytes per press on one seat p99", ours.seat_bytes.p99,
              stock.seat_bytes.p99, "B"),
        _pair("glass_bytes", "bytes per hourglass second per seat",
              ours.glass_bytes_per_seat_second, stock.glass_bytes_per_seat_second, "B", 84.5),
        Figure("glass_optimum", "... the cost model's optimum (banded plans, bench/optimum.py)",
               optimum, "B"),
        Figure("glass_over_optimum", "bytes per glass second, ours / that optimum",
               ours.glass_bytes_per_seat_second / optimum, "x"),
        Figure("press_bytes_ratio", "bytes per press, ours / stock", press_ratio, "x"),
        Figure("glass_bytes_ratio", "bytes per glass second, ours / stock", ratio, "x"),
    ]


def play(sizes: Sizes, *, stock: bool) -> Play:
    with BenchTable(sizes.seats, stock=stock) as table:
        table.open_game(sizes.players)
        table.play_until_glass_runs()
        frames = [] if stock else _watch_frames(table)
        glass = _glass_bytes(table, sizes.glass_seconds)
        optimum = None if stock else _optimum_bytes(frames, table, sizes.glass_seconds)
        table.record = True
        while len(table.edges) < sizes.presses:
            table.play_move(think=THINK)
        edges = table.edges[: sizes.presses]
    seat_bytes = [sent for edge in edges for sent in edge.bytes_by_seat.values()]
    return Play(
        latency_ms=spread([edge.seconds * 1000 for edge in edges]),
        wire_ms=spread([_on_wire_ms(edge) for edge in edges]),
        seat_bytes=spread(seat_bytes),
        seat_bytes_mean=sum(seat_bytes) / len(seat_bytes),
        glass_bytes_per_seat_second=glass,
        glass_optimum_per_seat_second=optimum,
    )


Frames = list[tuple[Controller, bytes | None, bytes]]


def _watch_frames(table: BenchTable) -> Frames:
    """From now on, every RAM change each seat's screen plans: (controller, old, new)."""
    frames: Frames = []
    for seat in table.table.hardware.seats.values():
        screen = seat.screen
        assert isinstance(screen, OledScreen)
        update = screen._update

        def watched(frame: bytes, _screen=screen, _update=update, **how: bool) -> None:
            held = _screen._part.held  # the RAM the plan starts from (no writer: all sent)
            frames.append((_screen._controller, None if held is None else bytes(held), frame))
            _update(frame, **how)

        screen._update = watched  # type: ignore[method-assign]
    return frames


def _optimum_bytes(frames: Frames, table: BenchTable, seconds: float) -> float:
    """Bytes per seat per second of the glass, had every frame been sent by the cheapest
    banded plan (see bench/optimum.py); the watch began when the glass count did."""
    total = sum(optimum_cost(_unknown(new) if old is None else old, new, controller)
                for controller, old, new in frames)
    return total / len(table.buses) / seconds


def _glass_bytes(table: BenchTable, seconds: float) -> float:
    """Bytes per seat per second while the glass runs and nobody presses anything."""
    table.clear_buses()
    table.runner.wait(seconds)
    return sum(table.bytes_sent().values()) / len(table.buses) / seconds


def _on_wire_ms(edge: Edge) -> float:
    wire = sum(edge.bytes_by_seat.values()) * BITS_PER_BYTE / I2C_HZ
    return (edge.seconds + wire) * 1000


def _pair(key: str, label: str, ours: float, stock: float, unit: str,
          budget: float | None = None) -> Figure:
    return Figure(key, label, ours, unit, budget, baseline=stock, baseline_label=STOCK)


def _unknown(frame: bytes) -> bytes:
    """RAM that differs from ``frame`` everywhere: an unknown screen is sent whole."""
    return bytes(byte ^ 0xFF for byte in frame)
