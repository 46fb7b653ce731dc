"""The public screen in a real browser: headless Chromium watches a whole game on /table.

The table is the real app on the headless table (mock pins, luma over recording buses) on a
fake clock; the public page is served by the real phone server on 127.0.0.1 and pushed to a
real Chromium, whose clock is the table's fake one. Every wait ends on the page's state.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.script_cli import ScriptSession
from companion.scripts import parse
from hardware.public_screens import joined
from hardware.qr import qr_modules
from hardware.web.server import PhoneServer
from tests.shape import Lockstep

from .listener import Listener
from .phones import WAIT, Phone, needs_chromium

pytestmark = needs_chromium
STEPS = 40
WIN = (Path(__file__).parent / "scripts" / "staying_alive_win.table").read_text()


class Watched:
    """A scripted table whose public screen is the browser one, and a browser watching it."""

    def __init__(self, script: str) -> None:
        self.session = ScriptSession(script, "public")
        self.server = PhoneServer([], self.session.events.put, host="127.0.0.1", port=0,
                                  public_host="127.0.0.1", clock=self.session.clock).start()
        self.session.table.hardware.public = self.server.public
        self.viewer = Phone()
        self.viewer.open(self.server.public_link(), self.session.clock.now)
        self.viewer.wait_for("state", "showing")

    def run(self, commands) -> None:
        self.session.runner.run(commands)

    def public(self):
        return self.session.app.composer.view(None, self.session.clock.now)

    def close(self) -> None:
        self.viewer.close()
        self.server.close()
        self.session.close()


@pytest.fixture()
def watched():
    table = Watched(WIN)
    yield table
    table.close()


def _until(commands, verb: str, *args: str) -> int:
    return next(i for i, c in enumerate(commands) if (c.verb, c.args) == (verb, args))


def test_the_public_page_follows_a_whole_game_and_its_hourglass_runs_on_by_itself(watched):
    """Title and words as the table's public view has them, the hourglass counting down in
    the browser between pages (no message a second), and the result and the key at the end,
    with the key's QR code drawn module for module."""
    commands = watched.session.commands
    flipped = _until(commands, "wait", "4s")
    watched.run(commands[:flipped])
    viewer = watched.viewer
    viewer.wait_for("big", "1:30")
    assert viewer.text("title") == watched.public().title
    seen = int(viewer.state("messages"))
    viewer.driver.execute_script("window.fakeNow += 20000")  # the sand runs on, alone
    viewer.wait_for("big", "1:10")
    assert viewer.state("sand") == f"{70 / 90:.3f}"
    watched.run(parse("wait 3s")[1])  # the table ticks each second; the page needs nothing
    watched.server.public.cue("barrier", watched.session.clock.now)  # messages keep order
    viewer.wait_text("tune", "♪ barrier")
    assert int(viewer.state("messages")) == seen + 1

    watched.run(parse("wait 1s")[1] + commands[flipped + 1:])
    assert watched.session.app.session.state.is_terminal()
    view, code = watched.public(), watched.session.app.composer.public_code()
    assert code is not None and view.banner == "WIN"
    viewer.wait_text("title", view.title)
    assert viewer.text("banner") == "WIN"
    lines = [row.text for row in viewer.driver.find_elements("css selector", "#lines p")]
    assert lines == list(view.lines)
    assert viewer.text("code-label") == code.label
    assert viewer.text("code-text").replace(" ", "") == code.text
    drawn = viewer.driver.execute_script("""
        const canvas = document.getElementById("qr");
        const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
        const rows = [];
        for (let y = 0; y < canvas.height; y++) {
          let row = "";
          for (let x = 0; x < canvas.width; x++) {
            row += data.data[(y * canvas.width + x) * 4] ? "0" : "1";
          }
          rows.push(row);
        }
        return rows;""")
    assert drawn == ["".join("1" if m else "0" for m in row) for row in qr_modules(code.text)]


# --- no secret on the public page: two deals, the same bytes on its socket ------------------


class Broadcast(Lockstep):
    """Tables A and B (B dealt again from A before every move), each with the browser public
    screen on its own server and a listener on it: at every moment the two compare, the bytes
    each listener got since the moment before are the same."""

    def check(self, what: str) -> None:
        super().check(what)
        sent = []
        for table in (self.a, self.b):
            if not hasattr(table, "listener"):
                _watch(table)  # the page as of now comes first, once the viewer is in
                table.app.redraw()
                table.listener.received.get(timeout=WAIT)
            marker = f"moment {self.compared}"  # a barrier: the messages come in order
            table.browser.cue(marker, 0.0)
            sent.append(table.listener.until(_cue(marker)))
        if not self.parted:
            assert sent[0] == sent[1], f"{self.key}, {what}: the public page's traffic differs"
        self.messages = getattr(self, "messages", 0) + len(sent[0])


def _watch(table) -> None:
    server = PhoneServer([], table.events.put, host="127.0.0.1", port=0, clock=table.clock,
                         public_host="127.0.0.1").start()
    table.browser = server.public
    hardware = table.headless.hardware
    hardware.public = joined(hardware.public, server.public)
    table.server = server
    table.listener = Listener(f"ws://127.0.0.1:{server.port}/ws/table")


def _cue(tune: str) -> bytes:
    return json.dumps({"kind": "cue", "tune": tune}, separators=(",", ":")).encode()


@pytest.mark.parametrize("key", ["they-live", "heroes-love-to-lie"])
def test_the_public_page_sends_the_same_bytes_whatever_the_deal(key):
    """Two deals with the same public facts (tests/shape.py): at every press, hold, action and
    passing second the page's socket carries the same bytes on both tables."""
    run = Broadcast(key, 5, {}, 0)
    try:
        for _ in range(STEPS):
            run.step()
        assert run.compared > STEPS and run.messages >= 5, (run.compared, run.messages)
    finally:
        for table in (run.a, run.b):
            table.listener.close()
            table.server.close()
        run.close()
