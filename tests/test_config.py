"""table.toml: each mistake is one clear error naming the line; no text escapes otherwise."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.config import (
    SECTION_KEYS,
    MuxConfig,
    TableConfig,
    load_config,
    parse_config,
)
from hardware.exc import ConfigError

HARDWARE = Path(__file__).resolve().parent.parent / "hardware"
EXAMPLE = HARDWARE / "tables" / "kitchen.toml"

SEAT_1 = """\
[[seat]]
number = 1
act = 17
peek = 27
display = "ssd1306"
bus = 11
"""
SEAT_2 = """\
[[seat]]
number = 2
act = 23
display = "sh1106"
bus = 12
"""


def error(text: str) -> str:
    with pytest.raises(ConfigError) as raised:
        parse_config(text, "table.toml")
    return str(raised.value)


def seat(number: int, **keys: object) -> str:
    lines = ["[[seat]]", f"number = {number}"]
    lines += [f"{key} = {value}" for key, value in keys.items()]
    return "\n".join(lines) + "\n"


def test_config_example_is_valid() -> None:
    """The shipped example (a direct-wired 4-seat table) passes validation."""
    config = load_config(EXAMPLE)
    assert [seat.number for seat in config.seats] == [1, 2, 3, 4]
    assert config.buzzer is not None and config.buzzer.tonal
    assert config.seats[3].display == "sh1106" and config.seats[3].rotate == 180
    assert config.name == "Kitchen table"


def test_config_readme_examples_are_valid() -> None:
    """Every complete table.toml shown in hardware/README.md passes validation too."""
    readme = (HARDWARE / "README.md").read_text()
    blocks = re.findall(r"```toml\n(.*?)```", readme, re.S)
    complete = [block for block in blocks if "[[seat]]" in block]
    assert complete
    for block in complete:
        assert isinstance(parse_config(block, "README.md"), TableConfig)


def test_config_minimal_seat_defaults() -> None:
    """A seat needs only number, act, display and bus; the rest has sensible defaults."""
    config = parse_config(SEAT_2)
    (only,) = config.seats
    assert (only.address, only.peek, only.vibrate, only.rotate) == (0x3C, None, None, 0)
    assert config.buzzer is None and config.state_dir is None


def test_config_userspace_mux_seat() -> None:
    """A seat behind the userspace mux names the mux's bus, address and channel."""
    config = parse_config(seat(1, act=17, display='"ssd1306"',
                               mux="{ bus = 1, address = 0x71, channel = 6 }"))
    assert config.seats[0].mux == MuxConfig(1, 0x71, 6)


def test_config_mux_as_subtable_reports_its_line() -> None:
    """A [seat.mux] sub-table works, and its mistakes point at its own lines."""
    text = seat(1, act=17, display='"ssd1306"') + "[seat.mux]\nbus = 1\nchannel = 9\n"
    assert error(text).startswith("table.toml line 7: the mux channel must be a number from 0 to 7")


def test_config_syntax_error_names_line_and_column() -> None:
    """A TOML typo is reported at its line and column, with a hint."""
    message = error(SEAT_1 + "peek = = 4\n")
    assert message.startswith("table.toml line 7, column 8: TOML syntax")
    assert "quotes" in message


def test_config_syntax_error_at_end_names_last_line() -> None:
    """An unfinished last line is reported with the line number, not only "end of document"."""
    assert error(SEAT_1 + "vibrate =").startswith("table.toml line 7 (the end): TOML syntax")


def test_config_unknown_section_suggests_close_match() -> None:
    """A misspelt section name gets a "did you mean" with the right one."""
    message = error(SEAT_1 + "[buzzr]\npin = 18\n")
    assert message.startswith("table.toml line 7: unknown section \"buzzr\"")
    assert 'did you mean "buzzer"?' in message


def test_config_unknown_key_suggests_close_match() -> None:
    """A misspelt key in a seat gets a "did you mean" and the seat's line."""
    message = error(SEAT_1 + "adress = 0x3D\n")
    assert message.startswith("table.toml line 7: unknown key \"adress\" in seat 1")
    assert 'did you mean "address"?' in message


def test_config_wrong_type_is_explained() -> None:
    """A pin written as text is refused, saying what a pin number is."""
    message = error(SEAT_1.replace("act = 17", 'act = "17"'))
    assert message.startswith("table.toml line 3: seat 1's act pin must be a number from 0 to 27")
    assert "GPIO" in message and '"17"' in message


def test_config_bool_is_not_a_pin() -> None:
    """true is not GPIO 1 (TOML booleans are not numbers)."""
    assert error(SEAT_1.replace("peek = 27", "peek = true")).startswith(
        "table.toml line 4: seat 1's peek pin must be a number")


def test_config_seat_number_in_range() -> None:
    """Seats are numbered 1..8."""
    message = error(SEAT_1.replace("number = 1", "number = 9"))
    assert message.startswith("table.toml line 2: the seat number must be a number from 1 to 8")


def test_config_seat_without_number() -> None:
    """A seat without a number is pointed at by its [[seat]] header."""
    message = error(SEAT_1 + "[[seat]]\nact = 5\n")
    assert message.startswith("table.toml line 7: this [[seat]] has no number")


def test_config_duplicate_seat_number() -> None:
    """Two seats with the same number: the second is named, with the first one's line."""
    message = error(SEAT_1 + SEAT_2.replace("number = 2", "number = 1"))
    assert message.startswith("table.toml line 8: seat number 1 is used twice (first at line 2)")


def test_config_pin_out_of_range() -> None:
    """GPIO numbers stop at 27 (a header pin number like 40 is a common mix-up)."""
    message = error(SEAT_1.replace("act = 17", "act = 40"))
    assert message.startswith("table.toml line 3: seat 1's act pin must be a number from 0 to 27")
    assert "not a header pin number" in message


def test_config_duplicate_pin_between_seats() -> None:
    """Two seats on one pin: the message names both seats, both lines and the fix."""
    message = error(SEAT_1 + SEAT_2.replace("act = 23", "act = 17"))
    assert message == (
        "table.toml line 9: seat 2 uses GPIO 17, already the ACT button of seat 1 (line 3); "
        "give each button, motor and buzzer its own pin"
    )


def test_config_duplicate_pin_buzzer_and_motor() -> None:
    """The buzzer and a vibration motor cannot share a pin either."""
    text = "[buzzer]\npin = 22\n" + SEAT_1 + "vibrate = 22\n"
    message = error(text)
    assert message.startswith("table.toml line 9: seat 1 uses GPIO 22, already the buzzer (line 2)")


def test_config_i2c_pins_are_reserved() -> None:
    """GPIO 2 and 3 carry the displays' I2C bus, so no button may use them."""
    message = error(SEAT_1.replace("peek = 27", "peek = 3"))
    assert message.startswith("table.toml line 4: seat 1 uses GPIO 3, the I2C SCL line")
    assert "PEEK button of seat 1" in message


def test_config_unknown_display_driver() -> None:
    """An unknown controller name is refused with the closest known one."""
    message = error(SEAT_1.replace('"ssd1306"', '"ssd1309"'))
    assert message.startswith('table.toml line 5: seat 1: unknown display "ssd1309"')
    assert 'did you mean "ssd1306"?' in message


def test_config_seat_without_display() -> None:
    """Every directly wired seat names its display controller."""
    message = error(SEAT_1.replace('display = "ssd1306"\n', ""))
    assert message.startswith("table.toml line 1: seat 1 has no display")


def test_config_display_address_must_be_3c_or_3d() -> None:
    """An OLED answers at 0x3C or 0x3D; anything else is a typo."""
    message = error(SEAT_1 + "address = 0x3E\n")
    assert message.startswith("table.toml line 7: seat 1's display address must be 0x3C or 0x3D")


def test_config_display_address_written_as_text() -> None:
    """"0x3C" in quotes is text; the message says to drop the quotes."""
    message = error(SEAT_1 + 'address = "0x3C"\n')
    assert message.startswith("table.toml line 7: seat 1's display address must be a number")
    assert "without quotes" in message


@pytest.mark.parametrize(("text", "start"), [
    # A seat's display is either on a bus or behind the userspace mux, not both.
    pytest.param(SEAT_1 + "mux = { channel = 0 }\n",
                 "table.toml line 7: seat 1 has both bus and mux", id="bus-and-mux"),
    # A directly wired seat must say where its display is.
    pytest.param(SEAT_1.replace("bus = 11\n", ""),
                 "table.toml line 1: seat 1 has no display bus", id="neither-bus-nor-mux"),
    # A TCA9548A answers at 0x70..0x77 only.
    pytest.param(SEAT_2.replace("bus = 12", "mux = { address = 0x78, channel = 1 }"),
                 "table.toml line 5: the mux's address must be a number from 0x70",
                 id="mux-address-range"),
    # A TCA9548A has channels 0..7.
    pytest.param(SEAT_2.replace("bus = 12", "mux = { channel = 8 }"),
                 "table.toml line 5: the mux channel must be a number from 0 to 7",
                 id="mux-channel-range"),
    # The channel is the one thing a mux entry cannot default.
    pytest.param(SEAT_2.replace("bus = 12", "mux = { bus = 1 }"),
                 "table.toml line 5: seat 2's mux has no channel", id="mux-without-channel"),
])
def test_config_display_bus_mistakes(text: str, start: str) -> None:
    """Where a seat's display hangs (its bus, or the userspace mux): each mistake named."""
    assert error(text).startswith(start)


def test_config_two_displays_same_bus_same_address() -> None:
    """Two displays at 0x3C on one bus would answer together."""
    message = error(SEAT_1 + SEAT_2.replace("bus = 12", "bus = 11"))
    assert message.startswith("table.toml line 11: seat 2's display answers at 0x3C on "
                              "/dev/i2c-11, and so does seat 1's (line 6)")
    assert "0x3D" in message


def test_config_two_displays_same_bus_different_addresses() -> None:
    """Two displays can share a bus when their address jumpers differ."""
    text = SEAT_1 + SEAT_2.replace("bus = 12", "bus = 11\naddress = 0x3D")
    assert len(parse_config(text).seats) == 2


def test_config_mux_channel_collides_with_display_on_its_bus() -> None:
    """A display straight on the mux's bus answers alongside every channel's display."""
    text = SEAT_1.replace("bus = 11", "bus = 1") + SEAT_2.replace(
        "bus = 12", "mux = { bus = 1, channel = 4 }")
    assert error(text).startswith("table.toml line 11: seat 2's display answers at 0x3C on mux "
                                  "channel 4 (bus 1), and so does seat 1's (line 6)")


def test_config_two_userspace_muxes_on_one_bus() -> None:
    """Only one userspace mux per bus (two would both pass their channels through)."""
    text = SEAT_1.replace("bus = 11", "mux = { channel = 0 }") + SEAT_2.replace(
        "bus = 12", "mux = { address = 0x71, channel = 1 }")
    assert error(text).startswith("table.toml line 11: seat 2 uses a mux at 0x71 on bus 1, seat 1 "
                                  "(line 6) one at 0x70")


def test_config_no_seats() -> None:
    """A table needs at least one seat."""
    assert error('[table]\nname = "Empty"\n').startswith("table.toml line 1: no seats")


def test_config_at_most_eight_seats() -> None:
    """A ninth seat is refused at its own header."""
    text = "".join(seat(n, act=3 + n, display='"ssd1306"', bus=10 + n) for n in range(1, 10))
    assert error(text).startswith("table.toml line 41: a table has at most 8 seats")


def test_config_seat_without_act() -> None:
    """Every seat needs its ACT button."""
    message = error(SEAT_1.replace("act = 17\n", ""))
    assert message.startswith("table.toml line 1: seat 1 has no ACT button; add act =")


def test_config_single_bracket_seat() -> None:
    """[seat] instead of [[seat]] is the classic TOML slip; the fix is named."""
    assert error(SEAT_1[1:].replace("]]", "]", 1)).startswith(
        "table.toml line 1: write [[seat]] (two brackets)")


def test_config_pod_seat_is_accepted() -> None:
    """A USB pod seat only names its serial port."""
    config = parse_config(SEAT_1 + seat(2, pod='"/dev/serial/by-id/usb-pod-2"'))
    assert config.seats[1].pod == "/dev/serial/by-id/usb-pod-2"


def test_config_pod_seat_with_gpio_keys() -> None:
    """A pod seat's buttons live on the pod, so GPIO keys on it are a mistake."""
    message = error(seat(2, pod='"/dev/ttyACM0"', act=5))
    assert message.startswith("table.toml line 4: seat 2 is a pod seat")
    assert "remove act" in message


def test_config_buzzer_type() -> None:
    """The buzzer is a passive piezo ("tonal") or an active buzzer."""
    message = error('[buzzer]\npin = 18\ntype = "passive"\n' + SEAT_1)
    assert message.startswith('table.toml line 3: buzzer type must be "tonal"')


def test_config_buzzer_without_pin() -> None:
    """A [buzzer] section must say where the buzzer is."""
    assert error("[buzzer]\n" + SEAT_1).startswith("table.toml line 1: [buzzer] has no pin")


def test_config_rotate_values() -> None:
    """Displays are mounted upright or upside down: rotate is 0 or 180."""
    assert error(SEAT_1 + "rotate = 90\n").startswith(
        "table.toml line 7: seat 1's rotate must be 0 or 180")


def test_config_state_dir_must_be_absolute() -> None:
    """The journal directory is an absolute path (the service has no useful working dir)."""
    text = '[table]\nstate_dir = "var/lib/x"\n' + SEAT_1
    assert error(text).startswith("table.toml line 2: state_dir must be an absolute path")


def test_config_load_missing_file(tmp_path: Path) -> None:
    """A missing file is a ConfigError naming the path, not a traceback."""
    with pytest.raises(ConfigError, match="cannot read it"):
        load_config(tmp_path / "table.toml")


def test_config_load_not_utf8(tmp_path: Path) -> None:
    """A file saved in another encoding is refused with the fix."""
    path = tmp_path / "table.toml"
    path.write_bytes(SEAT_1.encode() + b'# caf\xe9\n')
    with pytest.raises(ConfigError, match="save it as UTF-8"):
        load_config(path)


# --- fuzzing: any text ends in a TableConfig or a ConfigError ---------------------------------

KEYS = sorted({key for keys in SECTION_KEYS.values() for key in keys} | {"x", "seat.mux"})
scalars = st.one_of(
    st.integers(-5, 300), st.sampled_from([0x3C, 0x3D, 0x70, 0x77, 2, 3, 17, 10**30]),
    st.booleans(), st.floats(allow_nan=True), st.text(max_size=8),
    st.sampled_from(["ssd1306", "sh1106", "tonal", "active", "/dev/ttyACM0", "/var/lib/t"]),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(KEYS), inner,
                                                                max_size=3),
    max_leaves=6,
)
tables = st.dictionaries(st.sampled_from(KEYS), values, max_size=6)


def toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return {"nan": "nan", "inf": "inf", "-inf": "-inf"}.get(str(value), repr(value))
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(map(toml_value, value)) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    return str(value)


def toml_document(top: dict[str, object], sections: dict[str, dict[str, object]],
                  seats: list[dict[str, object]]) -> str:
    lines = [f"{json.dumps(key)} = {toml_value(value)}" for key, value in top.items()]
    for name, body in sections.items():
        lines += [f"[{name}]"] + [f"{json.dumps(k)} = {toml_value(v)}" for k, v in body.items()]
    for body in seats:
        lines += ["[[seat]]"] + [f"{json.dumps(k)} = {toml_value(v)}" for k, v in body.items()]
    return "\n".join(lines) + "\n"


def parses_or_explains(text: str) -> None:
    try:
        result = parse_config(text, "fuzz.toml")
    except ConfigError as problem:
        assert str(problem).startswith("fuzz.toml")
    else:
        assert isinstance(result, TableConfig)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=list("[]{}=\"'.,#\n 0123456789xatbsenumr_-"), max_size=200) | st.text())
def test_config_fuzz_any_text(text: str) -> None:
    """Random TOML-ish text never escapes as anything but a ConfigError."""
    parses_or_explains(text)


@settings(max_examples=30, deadline=None)
@given(top=st.dictionaries(st.sampled_from(["x", "seat", "table"]), values, max_size=1),
       sections=st.dictionaries(st.sampled_from(["table", "buzzer", "seats"]), tables,
                                max_size=2),
       seats=st.lists(tables, max_size=9))
def test_config_fuzz_random_documents(top, sections, seats) -> None:
    """Well-formed TOML with random keys and values ends in a config or a ConfigError."""
    parses_or_explains(toml_document(top, sections, seats))


@settings(max_examples=300, deadline=None)
@given(line=st.integers(0, 60), value=scalars.map(toml_value))
def test_config_fuzz_example_with_one_value_changed(line: int, value: str) -> None:
    """The example with any one value replaced is still a config or one clear ConfigError."""
    lines = EXAMPLE.read_text().splitlines()
    index = line % len(lines)
    lines[index] = re.sub(r"=\s*[^#]*", lambda _: f"= {value} ", lines[index], count=1)
    parses_or_explains("\n".join(lines))


PHONE_SEAT = seat(3, phone="true")


def test_config_phone_seats_beside_wired_ones() -> None:
    """Phone seats take no pins; their server has a default port and listens everywhere,
    or where [phones] says."""
    config = parse_config(SEAT_1 + PHONE_SEAT + seat(4, phone="true"), "table.toml")
    assert [(s.number, s.phone, s.wired) for s in config.seats] == [
        (1, False, True), (3, True, False), (4, True, False)]
    assert config.phones is not None
    assert (config.phones.port, config.phones.listen) == (8023, "0.0.0.0")
    chosen = parse_config(PHONE_SEAT + '[phones]\nport = 8080\nlisten = "192.168.4.1"\n',
                          "table.toml")
    assert chosen.phones is not None
    assert (chosen.phones.port, chosen.phones.listen) == (8080, "192.168.4.1")
    assert parse_config(SEAT_1, "table.toml").phones is None  # no phone seat, no server


@pytest.mark.parametrize(("text", "start"), [
    pytest.param(PHONE_SEAT + "[phones]\nport = 80\n",
                 "table.toml line 5: the phone seats' port must be a number from 1024 to 65535 "
                 "(one below 1024 needs a privilege", id="privileged-port"),
    pytest.param(PHONE_SEAT + "[phones]\nport = 70000\n",
                 "table.toml line 5: the phone seats' port must be a number from 1024",
                 id="port-past-65535"),
    pytest.param(PHONE_SEAT + '[phones]\nport = "8023"\n',
                 "table.toml line 5: the phone seats' port must be a number", id="port-as-text"),
    pytest.param(PHONE_SEAT + '[phones]\nlisten = "the kitchen"\n',
                 "table.toml line 5: listen must be an IP address of this machine",
                 id="listen-not-an-address"),
    pytest.param(PHONE_SEAT + "[phones]\nports = 8023\n",
                 'table.toml line 5: unknown key "ports" in [phones]; did you mean "port"?',
                 id="unknown-key"),
    pytest.param(SEAT_1 + "[phones]\nport = 8023\n",
                 "table.toml line 7: [phones] sets up the web server, but no seat is a phone "
                 "and the page is off",
                 id="phones-without-a-phone-seat"),
    pytest.param(seat(3, phone="false"),
                 "table.toml line 3: seat 3's phone must be true", id="phone-false"),
    pytest.param(seat(3, phone="true", act=17),
                 "table.toml line 4: seat 3 is a phone seat", id="phone-with-a-pin"),
    pytest.param(seat(3, phone="true", pod='"auto"'),
                 "table.toml line 4: seat 3 is a phone seat", id="phone-and-pod"),
    pytest.param("".join(seat(n, phone="true") for n in range(1, 10)),
                 "table.toml line 25: a table has at most 8 seats", id="nine-phone-seats"),
])
def test_config_phone_seat_mistakes(text: str, start: str) -> None:
    """Each mistake in the phone seats or their server is one line naming where."""
    assert error(text).startswith(start), error(text)


def test_check_config_names_phone_seats_and_their_server(tmp_path, capsys) -> None:
    """check-config says which seats are phones and where their server listens."""
    from companion.config_cli import check_config

    path = tmp_path / "table.toml"
    path.write_text(SEAT_1 + PHONE_SEAT + "[phones]\nport = 8080\n")
    assert check_config(str(path), show=lambda: None) == 0
    out = capsys.readouterr().out
    assert "  seat 3: phone (its link is new at every start and reload)\n" in out
    assert "  phone seats' server: port 8080, listening on 0.0.0.0\n" in out
    assert "GPIO None" not in out
