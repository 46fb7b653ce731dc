#!/bin/sh
# Install table-companion as a service on Raspberry Pi OS, from this source tree:
#
#     sudo systemd/install.sh              install, or bring an install up to date
#     sudo systemd/install.sh --uninstall  remove it all; asks whether the saved games go too
#     sudo systemd/install.sh --uninstall --purge   ... and the saved games, without asking
#
# Every step first checks whether it is needed, so a second run changes nothing.
# COMPANION_ROOT=/some/dir puts every path under that directory (the tests use it).
set -eu

ROOT="${COMPANION_ROOT:-}"
SRC="$(cd "$(dirname "$0")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
SERVICE=companion.service
ACCOUNT=companion
DEVICE_GROUPS="gpio i2c spi dialout audio"
PREFIX="$ROOT/opt/table-companion"
VENV="$PREFIX/venv"
ETC="$ROOT/etc/table-companion"
UNIT="$ROOT/etc/systemd/system/$SERVICE"
STATE="$ROOT/var/lib/table-companion"
CHANGED=0

say() { printf 'install.sh: %s\n' "$*"; }
fail() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

need_root() {
    if [ -z "$ROOT" ] && [ "$(id -u)" -ne 0 ]; then
        fail "run it as root: sudo $0 $*"
    fi
}

ensure_groups() {
    for group in $DEVICE_GROUPS; do
        if ! getent group "$group" >/dev/null; then
            groupadd --system "$group"
            say "created group $group"
        fi
    done
}

ensure_account() {
    if ! getent passwd "$ACCOUNT" >/dev/null; then
        useradd --system --user-group --home-dir /var/lib/table-companion --no-create-home \
            --shell /usr/sbin/nologin --groups "$(echo $DEVICE_GROUPS | tr ' ' ,)" "$ACCOUNT"
        say "created user $ACCOUNT"
        return
    fi
    for group in $DEVICE_GROUPS; do
        if ! id -nG "$ACCOUNT" | tr ' ' '\n' | grep -qx "$group"; then
            usermod -a -G "$group" "$ACCOUNT"
            say "added $ACCOUNT to $group"
        fi
    done
}

source_hash() {
    (cd "$SRC" && find pyproject.toml engine hardware companion -type f \
        ! -name '*.pyc' ! -path '*/__pycache__/*' | LC_ALL=C sort | xargs sha256sum) \
        | sha256sum | cut -d' ' -f1
}

ensure_venv() {
    wanted="$(source_hash)"
    if [ -f "$VENV/.source-hash" ] && [ "$(cat "$VENV/.source-hash")" = "$wanted" ]; then
        return
    fi
    install -d -m 0755 "$PREFIX"
    if [ ! -x "$VENV/bin/python" ]; then
        "$PYTHON" -m venv "$VENV"
    fi
    "$VENV/bin/pip" install --quiet --upgrade "$SRC[pi]"
    echo "$wanted" > "$VENV/.source-hash"
    CHANGED=1
    say "installed the companion into $VENV"
}

ensure_config() {
    if [ -e "$ETC/table.toml" ]; then
        return
    fi
    install -d -m 0755 "$ETC"
    install -m 0640 "$SRC/hardware/table.example.toml" "$ETC/table.toml"
    chgrp "$ACCOUNT" "$ETC/table.toml"
    say "wrote $ETC/table.toml from the example: edit it for your wiring"
}

boot_config() {
    for candidate in "$ROOT/boot/firmware/config.txt" "$ROOT/boot/config.txt"; do
        if [ -f "$candidate" ]; then
            echo "$candidate"
            return
        fi
    done
    fail "no config.txt in $ROOT/boot/firmware or $ROOT/boot: is this Raspberry Pi OS?"
}

append_once() {  # append_once LINE FILE: add the line unless the file has it already
    if ! grep -qx "$1" "$2" 2>/dev/null; then
        printf '%s\n' "$1" >> "$2"
        say "added '$1' to $2"
        return 0
    fi
    return 1
}

ensure_i2c() {
    # What raspi-config's "enable I2C" does, done here so it can be checked and repeated.
    if append_once "dtparam=i2c_arm=on" "$(boot_config)"; then
        say "I2C is on from the next boot"
        if [ -z "$ROOT" ] && command -v dtparam >/dev/null; then
            dtparam i2c_arm=on || true
        fi
    fi
    if append_once "i2c-dev" "$ROOT/etc/modules" && [ -z "$ROOT" ]; then
        modprobe i2c-dev || true
    fi
}

install_file() {  # install_file SOURCE TARGET: copy when different; CHANGED=1 if it was
    if ! cmp -s "$1" "$2"; then
        install -D -m 0644 "$1" "$2"
        CHANGED=1
        say "installed $2"
    fi
}

ensure_unit() {
    before="$CHANGED"
    CHANGED=0
    install_file "$SRC/systemd/companion.service" "$UNIT"
    install_file "$SRC/systemd/README.md" "$PREFIX/README.systemd.md"
    if [ "$CHANGED" -eq 1 ]; then
        systemctl daemon-reload
    fi
    CHANGED=$((before | CHANGED))
}

ensure_running() {
    if ! systemctl is-enabled --quiet "$SERVICE"; then
        systemctl enable "$SERVICE"
    fi
    if ! systemctl is-active --quiet "$SERVICE"; then
        systemctl start "$SERVICE"
        say "started $SERVICE"
    elif [ "$CHANGED" -eq 1 ]; then
        systemctl restart "$SERVICE"
        say "restarted $SERVICE with the new version"
    fi
}

ensure_voices() {  # the spoken prompts are made once, at install time (companion voices)
    if ! command -v espeak-ng >/dev/null 2>&1; then
        if [ -z "$ROOT" ] && command -v apt-get >/dev/null 2>&1; then
            apt-get install -y --no-install-recommends espeak-ng >/dev/null
        else
            say "no espeak-ng: narration is text on the screens (install it, then: companion voices)"
            return
        fi
    fi
    install -d -m 0700 "$STATE"
    if STATE_DIRECTORY="$STATE" "$VENV/bin/companion" voices >/dev/null 2>&1; then
        chown -R "$ACCOUNT:$ACCOUNT" "$STATE"
        say "made the spoken prompts in $STATE/voice"
    else
        say "could not make the spoken prompts: narration is text on the screens"
    fi
}

install_all() {
    ensure_groups
    ensure_account
    ensure_venv
    ensure_voices
    ensure_config
    ensure_i2c
    ensure_unit
    ensure_running
    say "done: systemctl status $SERVICE; saved games in /var/lib/table-companion"
}

saved_games() {  # saved_games [--purge]: what the uninstall leaves behind, or not
    if [ ! -d "$STATE" ]; then
        return
    fi
    if [ "${1:-}" != --purge ] && [ -t 0 ]; then
        printf 'install.sh: %s holds the saved games (%s, every seed included). Remove them too? [y/N] ' \
            "$STATE" "$(du -sh "$STATE" | cut -f1)"
        read -r answer || answer=""
        case "$answer" in [yY]*) set -- --purge ;; esac
    fi
    if [ "${1:-}" = --purge ]; then
        rm -rf "$STATE"
        say "removed the saved games in $STATE"
        return
    fi
    # The companion user is gone: its id must not own the seeds (a new user could get it).
    chown -R root:root "$STATE"
    say "kept the saved games in $STATE, now owned by root (a new install takes them" \
        "over); remove them with: sudo rm -rf $STATE"
}

uninstall_all() {
    if systemctl is-active --quiet "$SERVICE"; then
        systemctl stop "$SERVICE"
    fi
    if systemctl is-enabled --quiet "$SERVICE"; then
        systemctl disable "$SERVICE"
    fi
    if [ -e "$UNIT" ]; then
        rm -f "$UNIT"
        systemctl daemon-reload
    fi
    rm -rf "$PREFIX" "$ETC"
    if getent passwd "$ACCOUNT" >/dev/null; then
        userdel "$ACCOUNT"
    fi
    say "removed the service, $PREFIX, $ETC and the user $ACCOUNT"
    saved_games "$@"
    say "left on: I2C (dtparam=i2c_arm=on in config.txt, i2c-dev in /etc/modules)"
}

case "$*" in
    "") need_root; install_all ;;
    --uninstall) need_root "$@"; uninstall_all ;;
    "--uninstall --purge") need_root "$@"; uninstall_all --purge ;;
    *) fail "usage: $0 [--uninstall [--purge]]" ;;
esac
