"""check-config refuses a state_dir the installed service could not write, and says why.

What systemd says of the service (``systemctl show``) is given to check_config as text, as a
Pi with the service installed (or a laptop without it) would answer.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.config_cli import check_config
from hardware.exc import ConfigError

INSTALLED = "LoadState=loaded\nStateDirectory=table-companion\nReadWritePaths=\n"
NOT_INSTALLED = "LoadState=not-found\nStateDirectory=\nReadWritePaths=\n"
SEAT = '[[seat]]\nnumber = 1\nact = 17\ndisplay = "ssd1306"\nbus = 1\n'


def table(tmp_path: Path, state_dir: str | None) -> str:
    path = tmp_path / "table.toml"
    line = f'state_dir = "{state_dir}"\n' if state_dir else ""
    path.write_text(f'[table]\nname = "Kitchen"\n{line}{SEAT}')
    return str(path)


def refusal(path: str, systemd: str) -> str:
    with pytest.raises(ConfigError) as raised:
        check_config(path, show=lambda: systemd)
    return str(raised.value)


def test_service_dirs_state_dir_outside_is_refused_with_the_way_out(tmp_path):
    """A state_dir the service could not write is refused before it stops the service."""
    message = refusal(table(tmp_path, "/srv/games"), INSTALLED)
    assert "state_dir /srv/games is read-only for the companion service" in message
    assert "it may write /var/lib/table-companion" in message
    assert "remove state_dir" in message
    assert "ReadWritePaths=/srv/games" in message


def test_service_dirs_state_dir_allowed_explicitly_is_accepted(tmp_path, capsys):
    """A directory the administrator allowed with ReadWritePaths= (a drop-in) is fine."""
    systemd = INSTALLED.replace("ReadWritePaths=", "ReadWritePaths=-/srv/games /mnt/usb")
    assert check_config(table(tmp_path, "/srv/games/kitchen"), show=lambda: systemd) == 0
    assert "games kept in /srv/games/kitchen" in capsys.readouterr().out


def test_service_dirs_state_dir_inside_the_state_directory_is_accepted(tmp_path):
    path = table(tmp_path, "/var/lib/table-companion/kitchen")
    assert check_config(path, show=lambda: INSTALLED) == 0


def test_service_dirs_state_dir_sneaking_out_is_refused(tmp_path):
    """``..`` does not make a directory the service's own."""
    message = refusal(table(tmp_path, "/var/lib/table-companion/../other"), INSTALLED)
    assert "read-only for the companion service" in message


def test_service_dirs_home_is_refused_even_when_allowed(tmp_path):
    """The service has no /home at all (ProtectHome=yes): ReadWritePaths= cannot help."""
    systemd = INSTALLED.replace("ReadWritePaths=", "ReadWritePaths=/home/pi/games")
    message = refusal(table(tmp_path, "/home/pi/games"), systemd)
    assert "under /home, which the companion service cannot see" in message


@pytest.mark.parametrize("systemd", [NOT_INSTALLED, None])
def test_service_dirs_any_state_dir_without_the_service(tmp_path, systemd):
    """On a laptop (no service, or no systemd) a state_dir is the user's own business."""
    assert check_config(table(tmp_path, "/home/me/games"), show=lambda: systemd) == 0


def test_service_dirs_no_state_dir_is_always_fine(tmp_path):
    assert check_config(table(tmp_path, None), show=lambda: INSTALLED) == 0
