"""systemd/companion.service says what the issue asks for, and systemd accepts it."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
UNIT = REPO / "systemd" / "companion.service"
README = REPO / "systemd" / "README.md"


def settings() -> dict[str, dict[str, str]]:
    """The unit's sections and their key = value settings (comments left out)."""
    sections: dict[str, dict[str, str]] = {}
    current: dict[str, str] = {}
    for line in UNIT.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
        else:
            key, _, value = line.partition("=")
            current[key] = value
    return sections


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
    assert service["User"] == "companion"
    assert set(service["SupplementaryGroups"].split()) == {"gpio", "i2c", "spi", "dialout",
                                                            "audio", "video", "render"}
    assert service["NoNewPrivileges"] == "yes"
    assert service["UMask"] == "0077"


def test_service_unit_writes_only_its_state_and_runtime_directories():
    """A read-only system, a private state directory, lgpio's work directory, devices visible."""
    service = settings()["Service"]
    assert service["ProtectSystem"] == "strict"
    assert service["StateDirectory"] == "table-companion"
    assert service["StateDirectoryMode"] == "0700"
    assert service["RuntimeDirectory"] == "table-companion"
    assert service["Environment"] == "LG_WD=%t/table-companion"
    assert service["PrivateDevices"] == "no"
    assert "ReadWritePaths" not in service


def test_service_unit_every_setting_is_explained():
    """systemd/README.md explains every setting the unit uses."""
    explained = README.read_text()
    missing = [key for section in settings().values() for key in section
               if f"`{key}=" not in explained and key not in ("Description", "Documentation",
                                                                "After")]
    assert not missing


def test_service_unit_passes_systemd_analyze_verify(tmp_path):
    """systemd itself accepts the unit (the venv path is swapped for a program that exists)."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed here (it comes with systemd)")
    unit = tmp_path / "companion.service"
    unit.write_text(UNIT.read_text().replace("/opt/table-companion/venv/bin/companion",
                                             shutil.which("true") or "/bin/true"))
    done = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True,
                          timeout=60)
    if done.returncode != 0 and "Failed to connect" in done.stderr:
        pytest.skip(f"systemd-analyze cannot run here: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    assert "companion.service" not in done.stderr, done.stderr
