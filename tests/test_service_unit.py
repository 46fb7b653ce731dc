"""systemd/table-companion.service says what the issue asks for, and systemd accepts it."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from hardware.config import PHONE_PORT

REPO = Path(__file__).resolve().parent.parent
UNIT = REPO / "systemd" / "table-companion.service"
README = REPO / "systemd" / "README.md"


def entries() -> list[tuple[str, str, str]]:
    """Every (section, key, value) line of the unit, in order (comments left out)."""
    found, section = [], ""
    for line in UNIT.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            section = line.strip("[]")
        else:
            key, _, value = line.partition("=")
            found.append((section, key, value))
    return found


def settings() -> dict[str, dict[str, str]]:
    """The unit's sections and their settings; a key given twice: the last (as systemd reads
    a plain setting)."""
    sections: dict[str, dict[str, str]] = {}
    for section, key, value in entries():
        sections.setdefault(section, {})[key] = value
    return sections


def every(key: str) -> list[str]:
    """Each value of a list setting of [Service] (DeviceAllow=, SystemCallFilter=)."""
    return [value for section, name, value in entries() if (section, name) == ("Service", key)]


def runnable_copy(tmp_path: Path) -> Path:
    """The unit with the venv's program swapped for one that exists here, for systemd-analyze."""
    unit = tmp_path / "table-companion.service"
    unit.write_text(UNIT.read_text().replace("/opt/table-companion/venv/bin/companion",
                                             shutil.which("true") or "/bin/true"))
    return unit


def analyze(*args: str) -> subprocess.CompletedProcess[str]:
    """systemd-analyze, or a skip where it is not installed or cannot run."""
    tool = shutil.which("systemd-analyze")
    if tool is None:
        pytest.skip("systemd-analyze is not installed here (it comes with systemd)")
    done = subprocess.run([tool, *args], capture_output=True, text=True, timeout=60)
    if done.returncode != 0 and ("Failed to connect" in done.stderr
                                 or "unrecognized option" in done.stderr):
        pytest.skip(f"systemd-analyze cannot do this here: {done.stderr.strip()}")
    return done


def seconds(value: str) -> float:
    match = re.fullmatch(r"(\d+)(s|min)?", value)
    assert match, value
    return int(match[1]) * (60 if match[2] == "min" else 1)


def test_service_unit_is_a_watched_notify_service():
    """READY comes from the app itself, and a loop that stops pinging for 5 s is restarted."""
    service = settings()["Service"]
    assert service["Type"] == "notify"
    assert service["WatchdogSec"] == "5"
    assert service["Restart"] == "on-failure"
    assert service["ExecStart"].split()[1:] == [
        "play", "--table", "/etc/table-companion/table.toml"]


def test_service_unit_start_limit_cannot_lock_the_table_out():
    """Restarts are spaced so that crashes alone can never reach the start limit."""
    unit, service = settings()["Unit"], settings()["Service"]
    interval, burst = seconds(unit["StartLimitIntervalSec"]), int(unit["StartLimitBurst"])
    most_starts = interval / seconds(service["RestartSec"]) + 1
    assert most_starts < burst


def test_service_unit_runs_unprivileged_with_device_groups():
    """An unprivileged user with exactly the device groups the table needs."""
    service = settings()["Service"]
    assert (service["User"], service["Group"]) == ("table-companion", "table-companion")
    assert set(service["SupplementaryGroups"].split()) == {"gpio", "i2c", "dialout", "audio",
                                                            "video", "render"}
    assert service["NoNewPrivileges"] == "yes"
    assert service["CapabilityBoundingSet"] == ""
    assert service["UMask"] == "0077"


def test_service_unit_writes_only_its_state_and_runtime_directories():
    """A read-only system, no homes, a private state directory, lgpio's work directory, and
    table.toml's directory, where the table's page saves it."""
    service = settings()["Service"]
    assert service["ProtectSystem"] == "strict"
    assert service["ProtectHome"] == "yes"
    assert service["StateDirectory"] == "table-companion"
    assert service["StateDirectoryMode"] == "0700"
    assert service["RuntimeDirectory"] == "table-companion"
    assert service["Environment"] == "LG_WD=%t/table-companion"
    assert service["ReadWritePaths"] == "/etc/table-companion"


TABLE_DEVICES = {  # device class (as /proc/devices names it): the module that registers it
    "char-gpiochip": None,  # buttons, buzzer, motors: /dev/gpiochip* (gpiolib is built in)
    "char-i2c": "i2c_dev",  # the seat OLEDs: /dev/i2c-*
    "char-ttyACM": "cdc_acm",  # seat pods on USB: /dev/ttyACM*
    "char-alsa": "snd",  # the speaker: /dev/snd/*
    "char-fb": "fb",  # the public screen: /dev/fb*
    "char-drm": "drm",  # the public screen: /dev/dri/*
}


def test_service_unit_allows_exactly_the_tables_devices():
    """A real /dev (the table's devices come and go), closed to all but the table's classes;
    each class's module is loaded before the service starts, when the classes are looked up."""
    unit, service = settings()["Unit"], settings()["Service"]
    assert service["PrivateDevices"] == "no"
    assert service["DevicePolicy"] == "closed"
    assert sorted(every("DeviceAllow")) == sorted(f"{kind} rw" for kind in TABLE_DEVICES)
    modules = {f"modprobe@{module}.service" for module in TABLE_DEVICES.values() if module}
    assert modules <= set(unit["Wants"].split()) and modules <= set(unit["After"].split())


def test_service_unit_network_is_the_phone_seats_port_on_local_networks_only():
    """The phone seats' server, on its default port, reachable from local networks only; no
    other port can be listened on, no other kind of socket made."""
    service = settings()["Service"]
    assert "PrivateNetwork" not in service  # a private network has no Wi-Fi for the phones
    assert service["IPAddressDeny"] == "any"
    assert service["IPAddressAllow"].split() == [
        "localhost", "link-local", "multicast", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"]
    assert set(service["RestrictAddressFamilies"].split()) == {"AF_UNIX", "AF_INET", "AF_INET6"}
    assert service["SocketBindDeny"] == "any"
    assert every("SocketBindAllow") == [f"tcp:{PHONE_PORT}"]


def test_service_unit_security_exposure_is_at_most_2(tmp_path):
    """systemd's own review of the sandbox: an exposure of 2.0 or less ("OK" or better)."""
    done = analyze("security", "--offline=yes", str(runnable_copy(tmp_path)))
    match = re.search(r"Overall exposure level for table-companion\.service: (\d+\.\d)",
                      done.stdout)
    assert match, done.stdout + done.stderr
    assert float(match[1]) <= 2.0, done.stdout


def test_service_unit_every_setting_is_explained():
    """systemd/README.md explains every setting the unit uses."""
    explained = README.read_text()
    missing = [key for section in settings().values() for key in section
               if f"`{key}=" not in explained and key not in ("Description", "Documentation",
                                                                "After")]
    assert not missing


def test_service_unit_passes_systemd_analyze_verify(tmp_path):
    """systemd itself accepts the unit (the venv path is swapped for a program that exists)."""
    done = analyze("verify", str(runnable_copy(tmp_path)))
    assert done.returncode == 0, done.stderr
    assert "table-companion.service" not in done.stderr, done.stderr


def test_the_table_runs_before_other_work_but_never_realtime() -> None:
    """A press waits for the loop to wake and for the journal's commit: on a Pi that also runs
    an update or a desktop, both go first; realtime stays refused (a runaway would freeze
    the Pi) and the service cannot change a priority itself."""
    service = settings()["Service"]
    assert int(service["Nice"]) < 0
    assert (service["IOSchedulingClass"], service["IOSchedulingPriority"]) == ("best-effort", "0")
    assert service["RestrictRealtime"] == "yes"
    assert "~@privileged @resources" in every("SystemCallFilter")
