"""companion doctor: each fault planted on mock pins, recording buses and a stand-in for /.

The table is the shipped kitchen example (four wired seats behind the kernel's mux, motors,
a piezo) unless a test says otherwise; the maker is a finger on the mock pins that presses
whatever the doctor asks for, and waits cost no time (the queue is read as it stands).
"""

from __future__ import annotations

import errno
import queue
import re
import socket
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.doctor import Finding, Level, Machine, report
from companion.doctor.findings import Events
from companion.doctor.i2c import seat_face
from companion.doctor.terminal import run_doctor
from hardware.config import TableConfig, load_config, parse_config
from podproto import VERSION, wire
from tests.test_build import MUX_TABLE, Buses
from tests.test_oled import Ram
from tests.test_pod_link import listing
from tests.test_pod_link import pty_pod as pty_pod  # the fixture: a pod answering on a pty

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")

TABLES = Path(__file__).resolve().parent.parent / "hardware" / "tables"
KITCHEN = TABLES / "kitchen.toml"
CONFIG_TXT = "dtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n" \
             "dtoverlay=i2c-mux,pca9548,addr=0x70\n[pi3]\ncore_freq=250\n[all]\n"
PROMPT = re.compile(r"press (ACT|PEEK) on seat (\d)")


def plant(root: Path, name: str, content: str | bytes = "") -> None:
    path = root / name.lstrip("/")
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)


@pytest.fixture
def pi(tmp_path: Path) -> Path:
    """A healthy Pi 4 as the doctor reads it: I2C on at 400 kHz, the mux's channels, a card."""
    plant(tmp_path, "/dev/i2c-1")
    for channel in range(4):
        plant(tmp_path, f"/dev/i2c-{11 + channel}")
        plant(tmp_path, f"/sys/bus/i2c/devices/i2c-{11 + channel}/name",
              f"i2c-1-mux (chan_id {channel})\n")
    plant(tmp_path, "/boot/firmware/config.txt", CONFIG_TXT)
    plant(tmp_path, "/proc/device-tree/model", "Raspberry Pi 4 Model B Rev 1.4\0")
    plant(tmp_path, "/sys/class/i2c-adapter/i2c-1/of_node/clock-frequency",
          (400_000).to_bytes(4, "big"))
    plant(tmp_path, "/dev/snd/pcmC0D0p")
    return tmp_path


class Finger:
    """The maker at the table: presses and lets go of each button asked for, except those
    in ``untouched``; says yes to every sound."""

    def __init__(self, factory: MockFactory, config: TableConfig,
                 untouched: tuple[tuple[str, int], ...] = ()) -> None:
        self.factory = factory
        self.config = config
        self.untouched = untouched
        self.asked: list[str] = []
        self.questions: list[str] = []

    def ask(self, prompt: str) -> None:
        self.asked.append(prompt)
        found = PROMPT.fullmatch(prompt)
        assert found, prompt
        button, number = found[1], int(found[2])
        if (button, number) in self.untouched:
            return
        seat = next(seat for seat in self.config.seats if seat.number == number)
        pin = self.factory.pin(seat.act if button == "ACT" else seat.peek)
        pin.drive_low()
        pin.drive_high()

    def heard(self, question: str) -> bool | None:
        self.questions.append(question)
        return True


class GroundedPin(MockPWMPin):
    """A pin whose wire touches ground: the internal pull-up cannot raise it."""

    def _set_pull(self, value: str) -> None:
        super()._set_pull(value)
        self.drive_low()


def as_it_stands(events: Events, timeout: float) -> object | None:
    """No clock: what is queued is there at once, and a wait for more times out at once."""
    try:
        return events.get_nowait()
    except queue.Empty:
        return None


def machine(root: Path, factory: MockFactory, buses: Buses | None = None,
            pod_ports=lambda: []) -> Machine:
    return Machine(root=root, open_bus=buses if buses is not None else Buses(),
                   pin_factory=factory, pod_ports=pod_ports, wait=as_it_stands)


def problems(findings: list[Finding]) -> list[Finding]:
    return [finding for finding in findings if finding.level in (Level.FAIL, Level.WARN)]


def only(findings: list[Finding], where: str) -> Finding:
    (found,) = [finding for finding in findings if finding.where == where]
    return found


def test_doctor_healthy_table_is_all_well_and_each_screen_shows_its_seat(
        pi: Path, mock_factory: MockFactory) -> None:
    """Every check passes, every button was asked for once, and seat 2's screen shows 2."""
    config = load_config(KITCHEN)
    buses = Buses()
    finger = Finger(mock_factory, config)
    findings = report(config, machine(pi, mock_factory, buses), finger)
    assert problems(findings) == []
    assert all(finding.level is Level.OK for finding in findings)
    assert len(finger.asked) == 8 and "press PEEK on seat 3" in finger.asked
    assert finger.questions[-1] == "did the buzzer play a tune?"
    assert Ram("ssd1306").feed(buses[12].transfers).image() == seat_face(2)
    assert seat_face(2) != seat_face(1)
    assert only(findings, "seat 2 display").says == (
        "SSD1306 at 0x3c on mux channel 1 (/dev/i2c-12) answers; it shows 2")


@pytest.mark.parametrize(("config_txt", "fix"), [
    ("", "sudo raspi-config nonint do_i2c 0, or dtparam=i2c_arm=on in config.txt"),
    ("dtparam=i2c_arm=on\n", "config.txt turns I2C on: sudo reboot"),
])
def test_doctor_no_i2c_bus_says_how_to_turn_it_on(
        pi: Path, mock_factory: MockFactory, config_txt: str, fix: str) -> None:
    (pi / "dev/i2c-1").unlink()
    plant(pi, "/boot/firmware/config.txt", config_txt)
    findings = report(load_config(KITCHEN), machine(pi, mock_factory), None)
    bus = only(findings, "I2C bus 1")
    assert (bus.level, bus.says) == (Level.FAIL, "I2C is off: there is no /dev/i2c-1")
    assert bus.fix.startswith(fix)
    assert only(findings, "seat 2 display").level is Level.NOTE  # not blamed on the display


def test_doctor_userspace_mux_not_answering_names_its_wires(
        pi: Path, mock_factory: MockFactory) -> None:
    buses = Buses()
    buses(1).fail_with(OSError(errno.EREMOTEIO, "Remote I/O error"))
    findings = report(parse_config(MUX_TABLE), machine(pi, mock_factory, buses), None)
    mux = only(findings, "mux")
    assert mux.level is Level.FAIL
    assert mux.says == "no TCA9548A answers at 0x70 on /dev/i2c-1 (Remote I/O error)"
    assert ("SDA to GPIO 2 (header pin 3), SCL to GPIO 3 (header pin 5), "
            "VCC to 3V3 (header pin 1 or 17)") in mux.fix


def test_doctor_kernel_mux_that_did_not_answer_at_boot(
        pi: Path, mock_factory: MockFactory) -> None:
    """The overlay is loaded but the channel buses are missing: the mux was not there."""
    for channel in range(4):
        (pi / f"dev/i2c-{11 + channel}").unlink()
    findings = report(load_config(KITCHEN), machine(pi, mock_factory), None)
    mux = only(findings, "mux")
    assert mux.level is Level.FAIL
    assert mux.says.startswith("the TCA9548A did not answer when the Pi started: no "
                               "/dev/i2c-11 (seat 1), /dev/i2c-12 (seat 2)")


def test_doctor_missing_display_names_seat_channel_address_and_wires(
        pi: Path, mock_factory: MockFactory) -> None:
    buses = Buses()
    buses(12).fail_with(OSError(errno.EREMOTEIO, "Remote I/O error"))
    findings = report(load_config(KITCHEN), machine(pi, mock_factory, buses), None)
    (display,) = problems(findings)
    assert display.where == "seat 2 display"
    assert display.says == "no display answers at 0x3c on mux channel 1 (/dev/i2c-12)"
    assert display.fix == ("check its four wires: SDA to the mux's SD1, SCL to its SC1, VCC to "
                           "3V3 (header pin 1 or 17), GND to GND (header pin 6, or any GND); "
                           "and the jumper on its back: table.toml says 0x3c")


def test_doctor_button_never_pressed_names_its_gpio_and_header_pins(
        pi: Path, mock_factory: MockFactory) -> None:
    config = load_config(KITCHEN)
    finger = Finger(mock_factory, config, untouched=(("ACT", 3),))
    findings = report(config, machine(pi, mock_factory), finger)
    (button,) = problems(findings)
    assert button.where == "seat 3 ACT button"
    assert button.says == "not seen in 30 s"
    assert button.fix == ("check its wire from GPIO 5 (header pin 29) to the button, and the "
                          "button's other leg to GND (header pin 30)")


def test_doctor_stuck_button_is_told_and_not_asked_for(
        pi: Path, mock_factory: MockFactory) -> None:
    config = load_config(KITCHEN)
    mock_factory.pin(24, pin_class=GroundedPin)  # seat 2's PEEK, shorted to ground
    finger = Finger(mock_factory, config)
    findings = report(config, machine(pi, mock_factory), finger)
    (stuck,) = problems(findings)
    assert stuck.where == "seat 2 PEEK button"
    assert stuck.says == ("reads pressed with nobody on it: GPIO 24 (header pin 18) is held to "
                          "ground (stuck, or shorted)")
    assert "press PEEK on seat 2" not in finger.asked


def test_doctor_pod_not_answering(pi: Path, mock_factory: MockFactory) -> None:
    config = parse_config('[[seat]]\nnumber = 5\npod = "auto"\n')
    findings = report(config, machine(pi, mock_factory), None)
    (pod,) = problems(findings)
    assert pod.where == "seat 5 pod"
    assert pod.says == "no pod on USB (no device with a pod's ID 2e8a:0005)"
    assert pod.fix.startswith("plug seat 5's pod in with a data cable")


def test_doctor_pod_answering_is_told_with_its_firmware(
        pi: Path, mock_factory: MockFactory, pty_pod) -> None:
    link, start = pty_pod
    start(wire.hello(5, "ssd1306", 0, VERSION))
    config = parse_config('[[seat]]\nnumber = 5\npod = "auto"\n')
    findings = report(config, machine(pi, mock_factory, pod_ports=listing(link)), None)
    assert problems(findings) == []
    assert only(findings, "seat 5 pod").says == f"answers on {link}, firmware {VERSION}"


def test_doctor_missing_speaker_is_a_warning(pi: Path, mock_factory: MockFactory) -> None:
    (pi / "dev/snd/pcmC0D0p").unlink()
    findings = report(load_config(KITCHEN), machine(pi, mock_factory), None)
    (speaker,) = problems(findings)
    assert (speaker.level, speaker.where) == (Level.WARN, "speaker")
    assert speaker.says == "no sound card: narration shows as text on the screens"


def test_doctor_slow_i2c_clock_and_a_pi_3_without_core_freq(
        pi: Path, mock_factory: MockFactory) -> None:
    plant(pi, "/sys/class/i2c-adapter/i2c-1/of_node/clock-frequency",
          (100_000).to_bytes(4, "big"))
    plant(pi, "/proc/device-tree/model", "Raspberry Pi 3 Model B Plus Rev 1.3\0")
    plant(pi, "/boot/firmware/config.txt", CONFIG_TXT.replace("core_freq=250\n", ""))
    findings = report(load_config(KITCHEN), machine(pi, mock_factory), None)
    slow, core = problems(findings)
    assert slow.says == "the bus runs at 100 kHz; the displays are drawn for 400 kHz"
    assert slow.fix.startswith("dtparam=i2c_arm_baudrate=400000 in config.txt")
    assert "raspberrypi/firmware issue 1281" in core.says
    assert core.fix.startswith("core_freq=250 under [pi3] and [pi02]")


def test_doctor_command_prints_each_finding_and_fails_on_a_problem(
        pi: Path, mock_factory: MockFactory, capsys: pytest.CaptureFixture[str]) -> None:
    """--no-wait asks nobody; exit 1 with a fault, 0 once it is fixed."""
    buses = Buses()
    buses(12).fail_with(OSError(errno.EREMOTEIO, "Remote I/O error"))
    assert run_doctor(str(KITCHEN), True, machine(pi, mock_factory, buses)) == 1
    out = capsys.readouterr().out
    assert "FAIL  seat 2 display: no display answers at 0x3c" in out
    assert "      fix: check its four wires: SDA to the mux's SD1" in out
    assert out.rstrip().endswith("1 problem")
    assert run_doctor(str(KITCHEN), True, machine(pi, mock_factory)) == 0
    out = capsys.readouterr().out
    assert "ok    seat 3 ACT button: GPIO 5 (header pin 29) reads released" in out
    assert out.rstrip().endswith("all well")


def test_doctor_phone_port_in_use_says_how_to_move_it_and_allow_it_in_the_unit(
        pi: Path, mock_factory: MockFactory) -> None:
    """Another program listens on the phone seats' port: the fix says to stop it, or to move
    the table to another port and allow that one in the unit (which binds only 8023)."""
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        config = parse_config('[[seat]]\nnumber = 3\nphone = true\n'
                              f'[phones]\nport = {port}\nlisten = "127.0.0.1"\n')
        findings = report(config, machine(pi, mock_factory), None)
    (taken,) = problems(findings)
    assert (taken.level, taken.where) == (Level.FAIL, "phones")
    assert taken.says == f"port {port} on 127.0.0.1: another program has it"
    assert "sudo systemctl stop table-companion" in taken.fix
    assert "sudo systemctl edit table-companion" in taken.fix
    assert "SocketBindAllow=tcp:NEWPORT" in taken.fix
