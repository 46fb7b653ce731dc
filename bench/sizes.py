"""How much of everything to measure: the full run (``make bench``) and ``--quick``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Sizes:
    seats: int  # seats at the table whose presses and game are measured
    players: int  # how many of them play
    presses: int  # screen-changing button edges timed per table (ours and the stock driver)
    real_presses: int  # screen-changing edges traced on the real-shaped path (own thread)
    warmth_presses: int  # and in the session that times its work cold and warm (bench.warmth)
    glass_seconds: float  # hourglass seconds counted on the bus with nobody pressing
    expiries: int  # short hourglasses run out on the app's loop
    poll_expiries: int  # and on the naive poll loop beside it
    idle_seconds: float  # the window idle CPU and wake-ups are counted over
    launches: int  # process starts timed (start to ready, companion --help)
    reloads: int  # SIGHUPs to the service, and rounds of display reconnects, for memory
    resume_moves: int  # moves into a game the journal holds when start to ready is timed
    think: float  # table seconds between that game's moves (the hourglass ticks meanwhile)
    commits: int  # journal appends timed, per journal mode
    shuffles: int  # 5-card shuffles in the permutation test
    deals: int  # role deals in the per-seat frequency test
    phones: int  # phone seats connected to the service
    phone_presses: int  # presses on them timed to their frames
    loop_timings: int  # timings of the published Cortex-A53 loop each time one is taken
    counted_moves: int  # bot moves whose instructions are counted under valgrind (0: none)
    counted_rounds: int  # rounds of the published loop counted beside them


FULL = Sizes(seats=8, players=5, presses=400, real_presses=1200, warmth_presses=300,
             glass_seconds=60, expiries=1000, poll_expiries=200, idle_seconds=20, launches=5,
             reloads=50, resume_moves=30, think=1.0, commits=300, shuffles=60_000,
             deals=20_000, phones=8, phone_presses=1000, loop_timings=5, counted_moves=40,
             counted_rounds=20)
QUICK = Sizes(seats=3, players=3, presses=8, real_presses=8, warmth_presses=4, glass_seconds=1,
              expiries=1, poll_expiries=1, idle_seconds=0.5, launches=1, reloads=2,
              resume_moves=2, think=0.0, commits=10, shuffles=1_200, deals=400, phones=2,
              phone_presses=4, loop_timings=1, counted_moves=0,
              counted_rounds=0)  # counting takes a minute: tests count alone
