"""The table's page (/settings): a real table built from table.toml on mock pins and recording
buses, its real web server, a real browser (headless Chromium) for the page, and plain HTTP
for a stranger on the Wi-Fi. Every wait ends on an event: the page's state, or an event on
the table's queue; time is the table's fake clock."""

from __future__ import annotations

import dataclasses
import json
import queue
import re
import stat
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from companion.app import App, ReloadRequested
from companion.audit import run_audit
from companion.clock import FakeClock
from companion.config_cli import checked_text
from companion.lobby import StartGame
from companion.recent_log import RecentLog
from companion.table_desk import TableDesk
from engine import registry
from hardware.build import build_table
from hardware.config import PhonesConfig, load_config
from hardware.drivers.bus import RecordingBus
from hardware.exc import ConfigError
from hardware.public_screens import joined
from hardware.web.server import STATIC
from hardware.web.table import with_browser_public
from hardware.web.table_access import CODE_LIFE, GUESSES, Access
from hardware.window.public import NOTE_SECONDS, PublicScene, PygamePublicScreen

from .dealing import deal
from .listener import Listener
from .phones import WAIT, Phone, needs_chromium
from .test_audit import _journal_game

TABLE = """\
[table]
name = "Kitchen table"
page = true

[[seat]]
number = 1
act = 17
display = "ssd1306"
bus = 1

[[seat]]
number = 2
act = 27
display = "ssd1306"
bus = 2
"""


class PageTable:
    """A table built from TABLE, its page on 127.0.0.1, a finished game in its journal."""

    def __init__(self, tmp_path: Path, mock_factory, key: bytes = bytes(32)) -> None:
        self.path = tmp_path / "table.toml"
        self.path.write_text(TABLE)
        self.path.chmod(0o640)
        self.state = tmp_path / "state"
        self.state.mkdir()
        _journal_game(self.state, "mind-invaders")
        self.events: queue.Queue[object] = queue.Queue()
        self.clock = FakeClock()
        self.desk = TableDesk(self.path, self.state, self.events.put, RecentLog(),
                              clock=self.clock)
        config = dataclasses.replace(load_config(self.path),
                                     phones=PhonesConfig(port=0, listen="127.0.0.1"))
        self.hardware = build_table(config, self.events.put, pin_factory=mock_factory,
                                    bus_factory=lambda number: RecordingBus(), clock=self.clock,
                                    page=self.desk.page)
        self.public = PublicScene()  # the HDMI screen's scene, as the window draws it
        self.hardware.public = PygamePublicScreen(self.public, wake=lambda: None)
        self.app = App(self.hardware, clock=self.clock, page_code=self.desk.new_code,
                       key_source=lambda size: key[:size])
        self.app.start()
        self.desk.attach(config, self.app)
        assert self.hardware.server is not None
        self.address = f"http://127.0.0.1:{self.hardware.server.port}"  # type: ignore[attr-defined]

    def take(self, kind: type) -> object:
        """The next event of ``kind`` the page put on the table's queue, stepped into the app."""
        while True:
            event = self.events.get(timeout=WAIT)
            self.app.step(event)
            if isinstance(event, kind):
                return event

    def ask_code(self, seat: int) -> str:
        """A player joins at ``seat`` and asks its menu for the page's code, as it shows."""
        self.app.choose(seat, "join", self.clock())
        self.app.choose(seat, "pagecode", self.clock())
        self.app.redraw()
        code = self.code_on(seat)
        assert code is not None, "no code on the seat's screen"
        return code

    def code_on(self, seat: int | None) -> str | None:
        """A six-digit code on the seat's screen (None: on the public screen), if any."""
        if seat is None:
            text = self.public.face(self.clock())[0].text()
        else:
            text = self.app.composer.face(seat, self.clock()).text()
        found = re.search(r"\b\d{6}\b", text)
        return found[0] if found else None

    def close(self) -> None:
        self.app.close()
        self.hardware.close()


@pytest.fixture
def table(tmp_path, mock_factory):
    table = PageTable(tmp_path, mock_factory)
    yield table
    table.close()


@pytest.fixture
def browser():
    phone = Phone()
    yield phone
    phone.close()


def _fetch(driver, method: str, path: str, body: str = "", token: str | None = None) -> dict:
    """A request made by the page itself (its cookie, its origin), and its answer."""
    return driver.execute_async_script("""
        const [method, path, body, token, done] = arguments;
        const headers = token === null ? {} : {"X-Table-Token": token};
        const init = method === "GET" ? {headers} : {method, headers, body};
        fetch(path, init).then(async (r) => done({status: r.status, text: await r.text()}));
    """, method, path, body, token)


def _unlock(table: PageTable, browser: Phone) -> None:
    driver = browser.driver
    driver.find_element("id", "code").send_keys(table.ask_code(2))
    driver.find_element("id", "enter").click()
    browser.wait_for("loaded", "yes")


def _save(browser: Phone, text: str) -> str:
    driver = browser.driver
    driver.execute_script("document.getElementById('settings').value = arguments[0];"
                          "document.getElementById('save-said').textContent = '';", text)
    driver.find_element("id", "save").click()
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, WAIT, poll_frequency=0.005).until(
        lambda _: browser.text("save-said"))
    return browser.text("save-said")


@needs_chromium
def test_the_page_shows_the_seats_and_changes_the_table_only_with_the_code(table, browser):
    driver = browser.driver
    browser.open(f"{table.address}/settings", table.clock.now)
    browser.wait_for("ready", "yes")
    assert browser.text("seats").splitlines() == ["Seat 1: wired, display answers",
                                                  "Seat 2: wired, display answers"]
    assert browser.state("access") == "locked"

    refused = _fetch(driver, "POST", "/settings/api/settings", TABLE.replace("Kitchen", "X"))
    assert refused["status"] == 403
    assert table.path.read_text() == TABLE

    _unlock(table, browser)
    assert driver.find_element("id", "settings").get_attribute("value") == TABLE
    doctor = browser.text("doctor")
    assert "speaker" in doctor and "sudo systemctl stop table-companion" in doctor

    porch = TABLE.replace('"Kitchen table"', '"Porch table"')
    assert _save(browser, porch) == "Saved: the table restarts with it."
    assert table.path.read_text() == porch
    assert stat.S_IMODE(table.path.stat().st_mode) == 0o640
    assert sorted(p.name for p in table.path.parent.iterdir()) == ["state", "table.toml"]
    table.take(ReloadRequested)
    assert table.app.reload_requested and not table.app.running

    bad = porch.replace("act = 27", "act = 99")
    with pytest.raises(ConfigError) as expected:
        checked_text(bad, str(table.path))
    assert _save(browser, bad) == str(expected.value)
    assert table.path.read_text() == porch

    game = driver.find_element("css selector", "#games a")
    audit = _fetch(driver, "GET", game.get_attribute("href"))
    lines: list[str] = []
    run_audit(str(table.state), int(game.get_attribute("data-game")), None, lines.append)
    assert audit["status"] == 200 and audit["text"] == "\n".join(lines) + "\n"
    assert "Fair:" in audit["text"]


def _stranger(table: PageTable, method: str, path: str, body: bytes = b"",
              headers: dict[str, str] | None = None) -> int:
    request = urllib.request.Request(table.address + path, data=body if method == "POST" else None,
                                     method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=WAIT) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_a_stranger_reads_only_the_seats_and_changes_nothing(table):
    seats = urllib.request.urlopen(table.address + "/settings/api/seats", timeout=WAIT)
    assert [seat["link"] for seat in json.load(seats)] == ["display answers"] * 2
    for private in ("settings", "doctor", "games", "log", "games/1/audit", "session"):
        assert _stranger(table, "GET", f"/settings/api/{private}") == 403
    assert _stranger(table, "POST", "/settings/api/settings", b"[table]\n") == 403
    assert _stranger(table, "POST", "/settings/api/unlock", b"123456") == 403
    assert _stranger(table, "POST", "/settings/api/code") == 404  # a code is asked at a seat
    assert _stranger(table, "POST", "/settings/api/unlock", b"1" * 100_000) == 413
    table.app.redraw()
    assert table.path.read_text() == TABLE and table.events.empty()
    assert [table.code_on(seat) for seat in (1, 2, None)] == [None] * 3


def test_a_seat_asks_for_the_code_and_only_it_and_the_public_screen_show_it(table):
    entries = [action.label for action in table.app.actions(2)]
    assert "Table page code" not in entries  # a seat that has not joined: Join only
    code = table.ask_code(2)
    assert table.code_on(1) is None
    assert table.code_on(None) == code
    assert "Page code " + code in table.app.composer.face(2, table.clock()).text()
    table.clock.now += NOTE_SECONDS
    assert table.code_on(None) is None
    newer = table.ask_code(1)
    if newer != code:  # one draw in a million is the same code again
        assert _stranger(table, "POST", "/settings/api/unlock", code.encode()) == 403  # void
    assert _stranger(table, "POST", "/settings/api/unlock", newer.encode()) == 200
    assert not any(found in line for line in table.desk.log() for found in (code, newer))


def test_a_table_without_phone_seats_serves_its_public_page_too(table):
    """A wired table that serves its page serves the public screen in a browser beside it
    (a TV's browser): the lobby reaches /table's socket as it reaches the HDMI screen."""
    server = with_browser_public(table.hardware)
    assert server is table.hardware.server
    listener = Listener(f"ws://127.0.0.1:{server.port}/ws/table")
    try:
        table.app.redraw()
        page = json.loads(listener.received.get(timeout=WAIT))
        assert page["kind"] == "page" and page["title"] == table.public.face(
            table.clock())[0].title
    finally:
        listener.close()


def test_the_code_never_reaches_the_browser_public_page(table):
    """The browser's public page (/table) can be read by any device on the Wi-Fi: the code
    shows on the HDMI screen beside it, never in the browser page's traffic."""
    server = table.hardware.server
    window = table.hardware.public
    table.hardware.public = joined(window, server.public)  # type: ignore[attr-defined]
    listener = Listener(f"ws://127.0.0.1:{server.port}/ws/table")  # type: ignore[attr-defined]
    try:
        table.app.redraw()
        listener.received.get(timeout=WAIT)  # the page as of now: the viewer is in
        code = table.ask_code(2)
        assert table.code_on(None) == code  # the HDMI screen has it
        marker = "after the code"
        server.public.cue(marker, table.clock())  # type: ignore[attr-defined]
        sent = b"".join(listener.until(json.dumps(
            {"kind": "cue", "tune": marker}, separators=(",", ":")).encode()))
        assert sent and code.encode() not in sent and b"page code" not in sent.lower()
    finally:
        listener.close()


def test_a_session_needs_its_csrf_token_too(table):
    request = urllib.request.Request(table.address + "/settings/api/unlock",
                                     data=table.ask_code(1).encode(), method="POST")
    with urllib.request.urlopen(request, timeout=WAIT) as response:
        cookie = response.headers["Set-Cookie"]
        csrf = json.load(response)["csrf"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    session = {"Cookie": cookie.split(";")[0]}
    porch = TABLE.replace("Kitchen", "Porch").encode()
    assert _stranger(table, "POST", "/settings/api/settings", porch, session) == 403
    assert table.path.read_text() == TABLE
    assert _stranger(table, "POST", "/settings/api/settings", porch,
                     {**session, "X-Table-Token": csrf}) == 200
    assert table.path.read_text() == porch.decode()


def test_in_a_game_a_seat_asks_for_the_code_after_the_games_choices(table):
    deal(table.app, StartGame(registry.get("heroes-love-to-lie"), (1, 2), {}), table.clock())
    assert [action.label for action in table.app.actions(1)][-1] == "Table page code"
    table.app.choose(1, "sys:pagecode", table.clock())
    table.app.redraw()
    code = table.code_on(1)
    assert code is not None and table.code_on(None) == code and table.code_on(2) is None
    assert _stranger(table, "POST", "/settings/api/unlock", code.encode()) == 200


def _answers_without_a_session(table: PageTable) -> list[tuple[str, int, bytes, list]]:
    """Everything the page serves to a browser without a session: the page, every static
    file, the seat list, each private read's and each change's refusal; its status, body and
    headers (but the wall clock's Date)."""
    reads = ["/settings", "/settings/api/seats", "/favicon.ico",
             *(f"/static/{path.relative_to(STATIC).as_posix()}" for path in
               sorted(STATIC.rglob("*")) if path.is_file()),
             *(f"/settings/api/{name}" for name in ("session", "settings", "doctor", "games",
                                                     "log", "games/1/audit"))]
    requests = [urllib.request.Request(table.address + path) for path in reads]
    requests += [urllib.request.Request(table.address + path, data=b"000000", method="POST")
                 for path in ("/settings/api/unlock", "/settings/api/settings")]
    answers = []
    for request in requests:
        try:
            response = urllib.request.urlopen(request, timeout=WAIT)
        except urllib.error.HTTPError as error:
            response = error
        with response:
            headers = sorted((k, v) for k, v in response.headers.items() if k != "Date")
            answers.append((request.full_url.removeprefix(table.address), response.status,
                            response.read(), headers))
    return answers


def test_without_a_session_the_page_serves_the_same_bytes_whatever_the_deal(tmp_path,
                                                                           mock_factory):
    """Two tables deal the same game, differing only in the companion's key (so in every
    secret), at the same moment: all a stranger can fetch from the page is byte for byte
    the same."""
    answers, secrets = [], []
    for name, key in (("one", bytes(32)), ("other", bytes(range(32)))):
        (tmp_path / name).mkdir()
        table = PageTable(tmp_path / name, mock_factory, key)  # one at a time: the same pins
        try:
            deal(table.app, StartGame(registry.get("heroes-love-to-lie"), (1, 2), {}),
                 table.clock())
            secrets.append([table.app.view(seat).secret for seat in (1, 2)])
            answers.append(_answers_without_a_session(table))
        finally:
            table.close()
    assert secrets[0] != secrets[1]  # the deals differ in their secrets
    assert [status for _, status, _, _ in answers[0]][:2] == [200, 200]
    assert answers[0] == answers[1]


def test_a_code_opens_one_session_within_its_minutes_and_bears_few_guesses():
    clock = FakeClock()
    access = Access(clock)
    code = access.new_code()
    clock.now += CODE_LIFE
    assert access.unlock(code) is None  # ran out
    code = access.new_code()
    assert access.unlock(code) is not None
    assert access.unlock(code) is None  # used up
    code = access.new_code()
    wrong = f"{(int(code) + 1) % 10 ** 6:06d}"
    for _ in range(GUESSES):
        assert access.unlock(wrong) is None
    assert access.unlock(code) is None  # voided by the guesses


def test_table_toml_turns_the_page_on_and_check_config_says_a_wrong_value():
    from hardware.config import parse_config

    only_page = TABLE + "\n[phones]\nport = 8080\n"
    config = parse_config(only_page)
    assert config.page and config.phones == PhonesConfig(port=8080)
    with pytest.raises(ConfigError, match='line 3: page must be true .* not "yes"'):
        parse_config(TABLE.replace("page = true", 'page = "yes"'))
    with pytest.raises(ConfigError, match="no seat is a phone and the page is off"):
        parse_config(only_page.replace("page = true", "page = false"))
