"""``companion check-config FILE``: validate a table.toml without touching any hardware."""

from __future__ import annotations

from hardware.config import TableConfig, load_config, parse_config
from hardware.exc import ConfigError

from .service_dirs import Show, service_writable_dirs, state_dir_refusal, systemctl_show


def check_config(path: str, show: Show = systemctl_show) -> int:
    """Print what the table will be, or raise ConfigError (one line: where, what, how to fix).

    A ``state_dir`` is also checked against the installed service (``show``: what systemd
    says of it): a directory the service cannot write would stop it at every start.
    """
    config = load_config(path)
    _check_service(config, path, show)
    print(f"{path}: ok — {config.name}, {len(config.seats)} seats")
    if config.state_dir is not None:
        print(f"  games kept in {config.state_dir}")
    for seat in config.seats:
        print(f"  seat {seat.number}: {describe(seat)}")
    if config.phones is not None:
        print(f"  phone seats' server: port {config.phones.port}, listening on "
              f"{config.phones.listen}")
    if config.page:
        print("  the table's page at /settings on that server (docs/table-page.md)")
    if config.buzzer is not None:
        kind = "passive piezo" if config.buzzer.tonal else "active buzzer"
        print(f"  buzzer: GPIO {config.buzzer.pin} ({kind})")
    return 0


def checked_text(text: str, path: str, show: Show = systemctl_show) -> TableConfig:
    """The table ``text`` would be at ``path``, checked as check-config checks it (the table's
    page saves nothing else), or ConfigError with check-config's message."""
    config = parse_config(text, path)
    _check_service(config, path, show)
    return config


def _check_service(config: TableConfig, path: str, show: Show) -> None:
    writable = service_writable_dirs(show)
    if config.state_dir is not None and writable is not None:
        refusal = state_dir_refusal(config.state_dir, writable)
        if refusal is not None:
            raise ConfigError(f"{path}: [table] {refusal}")


def describe(seat) -> str:
    if seat.phone:
        return "phone (its link is new at every start and reload)"
    if seat.pod is not None:
        return f"pod on {seat.pod}"
    buttons = f"ACT GPIO {seat.act}" + (f", PEEK GPIO {seat.peek}" if seat.peek is not None
                                        else " (one button)")
    if seat.mux is not None:
        where = f"mux {seat.mux.address:#04x} channel {seat.mux.channel} on /dev/i2c-{seat.mux.bus}"
    else:
        where = f"/dev/i2c-{seat.bus}"
    extra = f", vibration GPIO {seat.vibrate}" if seat.vibrate is not None else ""
    return f"{buttons}; {seat.display} at {seat.address:#04x} on {where}{extra}"
