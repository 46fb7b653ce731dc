"""Secrets have no shape: what a neighbour can notice of a seat never depends on a secret.

Over all five games, on the random-play machinery: at every moment the secrets still secret
are dealt again among the seats (tests/shape.py), and for every press, hold, release, action
and passing second the two tables' bus traffic, cues, public faces and the outlines of the
private faces are the same, and every page of the private faces looks the same at a glance
(blurred). A face that leaks (one extra lit line for one role, a shorter word) fails it.

Each game is played on two wirings: every seat on a bus of its own, and every seat behind
one mux on one wire, where screens that are to show the same frame are sent it together
(hardware/drivers/chorus.py): there which seats share a frame, and in what order the seats
are sent, must not depend on a secret either.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import replace

import pytest
from PIL import ImageDraw

from companion import composer, render
from companion.app import App
from companion.render import Face
from companion.screens import Frame
from engine import registry
from engine.api import Vibrate
from engine.cues import Pattern
from engine.games.they_live import menus, views
from engine.games.they_live.cards import HUMAN, INVADER
from engine.games.they_live.menus import MenuName
from engine.games.they_live.phases import PHASES
from engine.games.they_live.turns import on_turn
from engine.text import fit
from hardware.base import ButtonName
from tests.shape import GLANCE_BOUND, HOLD, REDEALS, Lockstep, transfer_shape

SEEDS = 2
STEPS = 60
WIRINGS = {"own buses": False, "one mux": True}


def _options(key: str, number: int) -> dict[str, str]:
    game = registry.get(key)
    return {opt.key: opt.choices[number % len(opt.choices)] for opt in game.options}


def _players(key: str, number: int) -> int:
    game = registry.get(key)
    return max(game.min_players, min(game.max_players, 4 + number))


def play(key: str, number: int, steps: int = STEPS, *, mux: bool = False) -> Lockstep:
    run = Lockstep(key, _players(key, number), _options(key, number), number, mux=mux)
    try:
        for _ in range(steps):
            run.step()
    finally:
        run.close()
    return run


@pytest.mark.parametrize("mux", WIRINGS.values(), ids=WIRINGS.keys())
@pytest.mark.parametrize("key", [game.key for game in registry.all_games()])
def test_private_faces_look_the_same_whatever_the_deal(key: str, mux: bool) -> None:
    """Two deals with the same public facts: the same traffic, cues and face outlines. In
    They Live that includes the character pick, before anything is dealt, whose presses are
    the cut that deals the identities. On one mux, seats were sent frames together."""
    told_apart = glanced = together = 0
    for number in range(SEEDS):
        run = play(key, number, mux=mux)
        assert run.compared > STEPS, f"{key}: too few moments compared ({run.compared})"
        together += run.together
        told_apart += run.told_apart
        glanced = max(glanced, run.glanced)
        record = run.a.app.session.record
        assert record.cut_in_play == registry.get(key).first_press_cuts
        if record.cut_in_play:  # the lockstep went through the cut in play, and past it
            assert run.undealt and record.cut and record.cut == record.played_cut()
            assert run.a.app.session.state.dealt and run.b.app.session.record.cut == record.cut
    secret = REDEALS[key] is not REDEALS["staying-alive"]
    assert told_apart or not secret, f"{key}: no PEEK face ever differed between the deals"
    assert (glanced > 0) == secret, f"{key}: PEEK faces blurred {glanced} apart"
    assert (together > 0) == mux, f"{key}: {together} frames sent to several seats at once"


def test_private_faces_one_mux_puts_the_same_bytes_on_the_wire_every_run() -> None:
    """Which seats share a frame depends on which have work pending at once on the writer's
    thread; with the writer held through each moment, a game played twice puts the same
    bytes on each table's wire, though the second time the threads switch a thousand times
    as often."""
    wires = []
    switching = sys.getswitchinterval()
    for interval in (switching, switching / 1000):
        sys.setswitchinterval(interval)
        try:
            run = play("they-live", 1, mux=True)
        finally:
            sys.setswitchinterval(switching)
        assert run.together
        wires.append([table.wire.bus.transfers for table in (run.a, run.b)])
    assert wires[0] == wires[1]


def test_private_faces_silent_invader_check_is_the_same_on_every_wire() -> None:
    """Every seat holds PEEK through the silent check: whatever the deal, and whether a seat
    is Human or Invader, each seat's bus carries the same transfers as every other's."""
    from engine.games.they_live.cards import CHARACTERS
    from engine.known import as_options

    # Every card's values known, so every seat's public health has the same digits.
    known = as_options({f"{name}.{value}": {"health": 15, "critical": 3}[value]
                        for name, card in CHARACTERS.items()
                        for value in ("health", "critical") if getattr(card, value) is None})
    run = Lockstep("they-live", 4, {"check": "silent", **known}, 7)
    try:
        while run.a.app.session.state.phase != "check":
            run.step(holding=set())
        seats = set(run.a.app.seat_numbers)
        marks = {n: len(bus.transfers) for n, bus in run.a.headless.buses.items()}
        while run.a.app.session.state.phase == "check":
            run.step(holding=seats)
        wires = {n: [transfer_shape(t) for t in bus.transfers[marks[n]:]]
                 for n, bus in run.a.headless.buses.items()}
    finally:
        run.close()
    assert run.told_apart, "no moment of the check had a Human and an Invader to compare"
    assert all(wire == wires[1] for wire in wires.values())
    assert sum(len(t[2]) if isinstance(t[2], bytes) else t[2] for t in wires[1]) > 1024


def _they_live_fails() -> None:
    with pytest.raises(AssertionError, match="differs between two deals"):
        play("they-live", 0, steps=2 * STEPS)


def test_private_faces_one_extra_line_for_one_role_fails(monkeypatch) -> None:
    """A game that gives an Invader's PEEK face one line more than a Human's is caught (its
    pages, and so its page count on the bar, differ)."""
    real = views._side_lines

    def leaking(state, seat, identity):
        first, second = real(state, seat, identity)
        return (first, second, "Invader extra") if identity == INVADER else (first, second)

    monkeypatch.setattr(views, "_side_lines", leaking)
    _they_live_fails()


def test_private_faces_the_old_peek_face_fails(monkeypatch) -> None:
    """The PEEK face as it was (lit words on black, as long as they are, plus one lit line
    for Invaders) is caught by its outline."""
    def unsealed(view, page=0):
        secret = view.secret or composer.NOTHING_SECRET
        extra = ("Invader extra",) if any(INVADER in line for line in secret.lines) else ()
        return Face(secret.title, inverted_title=True, lines=secret.lines + extra)

    monkeypatch.setattr(composer, "secret_face_for", unsealed)
    _they_live_fails()


def _leader_sealed(draw: ImageDraw.ImageDraw, face: Face, size: tuple[int, int]) -> None:
    """The sealed face as it was: each row's words dark on the lit card, then a dot every
    third column to the right edge. Same rows, same outline, not the same ink."""
    width, height = size
    draw.rectangle((0, 0, width - 1, height - 1), fill=1)
    rows = [face.title, *(face.lines + ("",) * 3)[:3], face.bar]
    for top, row in zip((0, *render.SEALED_TOPS, render.BAR_TOP), rows, strict=True):
        text = fit(row)
        draw.text((1, top), text, font=render.small_font(), fill=0)
        for x in range(1 + 6 * len(text) + (3 if text else 1), width - 1, 3):
            draw.point((x, top + 8), fill=0)


def test_private_faces_the_leader_dotted_face_fails_at_a_glance(monkeypatch) -> None:
    """The sealed face before its cells were evened out (Mind Invaders' Human "Out: 3x ?
    ......" against an Alien's "Out: 3x ? or 3x ?") is caught once blurred."""
    monkeypatch.setattr(render, "_draw_sealed", _leader_sealed)
    with pytest.raises(AssertionError, match="differs by .* of 255 at a glance") as caught:
        play("mind-invaders", 0)
    assert int(str(caught.value).split(" differs by ")[1].split()[0]) > GLANCE_BOUND


# --- a self-reveal: the same for both sides until the rules make it public -----------------


def _reveal_attempt(monkeypatch=None) -> Lockstep:
    """The seat on turn opens the self-reveal menu, confirms once, peeks at it, then takes its
    last step: on table A it is a Human and presses "Sure?", on table B an Invader and
    presses "Cancel". Each moment is compared as the lockstep compares every move."""
    run = Lockstep("they-live", 4, {"check": "narrated"}, 3)
    try:
        while run.a.app.session.state.phase != "turns":
            run.step(holding=set())
        seat = on_turn(run.a.app.session.state)
        for table, side in ((run.a, HUMAN), (run.b, INVADER)):
            state = table.app.session.state
            other = HUMAN if side == INVADER else INVADER
            state.identities = {s: side if s == seat else other for s in state.seats}
        run.a.seen(), run.b.seen()  # a new deal is not a move
        for action in ("reveal", "reveal2"):
            run.both(lambda t, a=action: t.choose(seat, a), f"seat {seat} {action!r}")
        run.both(lambda t: t.press(seat, ButtonName.PEEK, True), "a hold of PEEK")
        run.both(lambda t: t.wait(HOLD), "the PEEK face")
        run.both(lambda t: t.press(seat, ButtonName.PEEK, False), "PEEK let go")
        last = {id(run.a): "reveal3", id(run.b): "cancel"}
        run.both(lambda t: t.choose(seat, last[id(t)]), "a Human's Sure?, an Invader's Cancel")
        run.both(lambda t: t.wait(3.0), "3 s after")
    finally:
        run.close()
    return run


def test_private_faces_a_humans_self_reveal_looks_like_an_invaders_cancel() -> None:
    """Traffic, cues, faces and the public screen: a Human who goes through the whole
    self-reveal gives neighbours exactly what an Invader who cancels at the last step does."""
    run = _reveal_attempt()
    assert not run.parted and run.told_apart, "the PEEK faces should differ in words only"


def test_private_faces_a_humans_buzz_on_self_reveal_fails(monkeypatch) -> None:
    """The old handling (a Human's "Sure?" buzzes that seat alone) is caught."""
    rules = PHASES["turns"].menus[MenuName.REVEAL_SURE].rules

    def buzzing(state, seat, arg, now):
        if state.identities[seat] == INVADER:
            return menus.self_reveal(state, seat, arg, now)
        state.close_menu(seat)
        return [Vibrate(seat, Pattern.ERROR)]

    monkeypatch.setitem(rules, "reveal3", buzzing)
    with pytest.raises(AssertionError, match="differs between two deals"):
        _reveal_attempt()


def test_private_faces_a_public_title_one_role_draws_apart_fails_on_one_mux(monkeypatch) -> None:
    """An Invader's public title one dot longer than a Human's: on one mux the wire tells,
    before any face is compared (the dot's bytes cross it on one deal, not on the other)."""
    real = views._fitted

    def dotted(state, seat, drawn, peek):
        if seat is not None and state.identities.get(seat) == INVADER:
            drawn = replace(drawn, title=drawn.title + ".")
        return real(state, seat, drawn, peek)

    monkeypatch.setattr(views, "_fitted", dotted)
    with pytest.raises(AssertionError, match="wire differs between two deals"):
        play("they-live", 1, steps=2 * STEPS, mux=True)


def test_private_faces_an_invaders_screen_sent_first_fails_on_one_mux(monkeypatch) -> None:
    """A table that hurries an Invader's screen (marks it awaited, as a presser's is) gives
    the Invader away on a shared wire, its bytes going before the others', though no face
    and no seat's own traffic changes: the lockstep on buses of their own cannot see it."""
    real = App._write

    def hurried(self: App, frames: Iterable[Frame], now: float, *, awaited: bool = False) -> None:
        identities = getattr(self.session.state, "identities", {})
        for frame in frames:
            real(self, [frame], now, awaited=awaited or identities.get(frame.number) == INVADER)

    monkeypatch.setattr(App, "_write", hurried)
    play("they-live", 0)
    with pytest.raises(AssertionError, match="wire differs between two deals"):
        play("they-live", 0, mux=True)
