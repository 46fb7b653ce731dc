#!/bin/sh
# Install table-companion as a service on Raspberry Pi OS (Bookworm with Python 3.11, Trixie
# with Python 3.13; 64- or 32-bit), from this tree:
#
#     sudo systemd/install.sh [--table NAME] [--public-screen | --no-public-screen]
#                                          install, or bring an install up to date
#     sudo systemd/install.sh --update     the same, but a stopped service stays stopped
#     sudo systemd/install.sh --uninstall  remove it all but the table's settings (kept for
#                                          a new install); asks whether the saved games go too
#     sudo systemd/install.sh --uninstall --purge   ... and the settings and saved games,
#                                          without asking
#     sudo systemd/install.sh --venv-only  only the OS packages and the venv (make pi-check
#                                          runs this in an emulated root without systemd)
#
# --table NAME picks the example table.toml to start from (hardware/tables/NAME.toml, default
# kitchen); --public-screen runs the service with the public view on the HDMI display.
# Every step first checks whether it is needed, so a second run changes nothing.
# COMPANION_ROOT=/some/dir puts every path under that directory (the tests use it).
#
# The same script is package data of the companion (companion/service_files is this folder),
# run by `companion install-service`, `update` and `uninstall` with no checkout: they set
# COMPANION_REQUIREMENT (what pip installs: a wheel, an sdist, a URL), COMPANION_TABLES (the
# installed example tables), COMPANION_COMMAND (what the user typed, to be typed again with
# sudo) and COMPANION_NAME (the command, e.g. "companion update", that begins each message).
set -eu

ROOT="${COMPANION_ROOT:-}"
HERE="$(cd "$(dirname "$0")" && pwd -P)"  # the unit, the udev rule and their README
SRC="$(cd "$HERE/.." && pwd)"  # in a checkout, the tree
REQUIREMENT="${COMPANION_REQUIREMENT:-}"
TABLES="${COMPANION_TABLES:-$SRC/hardware/tables}"
PYTHON="${PYTHON:-python3}"
# One name for the service, its user, unit, state and config directories. "companion" alone
# is another program's too (Bitfocus Companion Pi's user and unit): an earlier install of ours
# under that name is moved to this one, and a companion user or unit that is not ours is never
# touched (ours: the unit runs our venv; the user's home is our state directory).
SERVICE=table-companion.service
ACCOUNT=table-companion
ACCOUNT_COMMENT="table-companion service"
OLD_SERVICE=companion.service
OLD_ACCOUNT=companion
# Buttons, buzzer and motors; the OLEDs; pods on USB serial; the speaker; and the public
# screen on HDMI (/dev/fb* and /dev/dri/card*: video; /dev/dri/renderD*: render). The same
# groups as table-companion.service's SupplementaryGroups=.
DEVICE_GROUPS="gpio i2c dialout audio video render"
PREFIX="$ROOT/opt/table-companion"
VENV="$PREFIX/venv"
ETC="$ROOT/etc/table-companion"
CONFIG_DIR_MODE=2770  # root and the service's group (config_to_the_service)
CONFIG_MODE=0660
UNIT="$ROOT/etc/systemd/system/$SERVICE"
DROP_IN="$ROOT/etc/systemd/system/$SERVICE.d/public-screen.conf"
OLD_UNIT="$ROOT/etc/systemd/system/$OLD_SERVICE"
OLD_DROP_INS="$ROOT/etc/systemd/system/$OLD_SERVICE.d"
UDEV_RULE="$ROOT/etc/udev/rules.d/99-table-companion-pods.rules"
# companion on PATH, and where its check-config and audit find the service's table and games
# with no paths given (companion/installed.py reads it, beside the venv).
ENTRY=/opt/table-companion/venv/bin/companion
LINK="$ROOT/usr/local/bin/companion"
SERVICE_SETTINGS="$PREFIX/service.toml"
HOME_DIR=/var/lib/table-companion
STATE="$ROOT$HOME_DIR"
# In /run, which every boot empties: config.txt was changed and the Pi not rebooted since.
REBOOT_PENDING="$ROOT/run/table-companion.reboot-needed"
TABLE=kitchen
TABLE_GIVEN=0
PUBLIC_SCREEN=""
CHANGED=0
BOOT_CHANGES=""

NAME="${COMPANION_NAME:-install.sh}"  # what the user ran, to begin each message
say() { printf '%s: %s\n' "$NAME" "$*"; }
fail() { printf '%s: %s\n' "$NAME" "$*" >&2; exit 1; }

need_root() {
    if [ -z "$ROOT" ] && [ "$(id -u)" -ne 0 ]; then
        fail "run it as root: sudo $COMMAND"
    fi
}

# --- OS packages -----------------------------------------------------------------------------

apt_installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'
}

apt_offers() {  # the archive this system uses has the package (Raspberry Pi OS's, or Debian's)
    apt-cache policy "$1" 2>/dev/null | grep -q '^ *Candidate: [^(]'
}

apt_ensure() {  # apt_ensure PACKAGE: installed already, or installed now; false if not to be had
    if apt_installed "$1"; then
        return 0
    fi
    if ! command -v apt-get >/dev/null 2>&1 || ! apt_offers "$1"; then
        return 1
    fi
    apt-get install -y -q --no-install-recommends "$1" >/dev/null
    say "installed the OS package $1"
}

# 32-bit Raspberry Pi OS (armhf): PyPI has no wheels of pygame or Pillow for it, and the
# newest cbor2 (luma.core's) builds with Rust. The OS's own packages serve (pyproject.toml's
# lowest versions are Bookworm's), seen by the venv through --system-site-packages; pip then
# keeps them (only-if-needed).
ARMHF_PACKAGES="python3-pygame python3-pil python3-cbor2"

is_armhf() {  # the userland, not the kernel: 32-bit Pi OS runs a 64-bit kernel on a Pi 4 or 5
    [ "$(dpkg --print-architecture 2>/dev/null)" = armhf ]
}

ensure_os_packages() {
    if ! "$PYTHON" -c 'import ensurepip, venv' 2>/dev/null; then
        apt_ensure python3-venv || fail "no python3-venv: sudo apt install python3-venv"
    fi
    # The pin library: PyPI's lgpio has no wheel for Python 3.13 and its source build needs
    # liblgpio, which only Raspberry Pi OS's archive has. Its python3-lgpio reaches the venv
    # through --system-site-packages (what gpiozero's maintainers recommend).
    apt_ensure python3-lgpio || true
    if is_armhf; then
        for package in $ARMHF_PACKAGES; do
            apt_ensure "$package" || true
        done
    fi
}

explain_pip_failure() {
    if is_armhf; then
        say "On 32-bit ARM PyPI has no ready-built pygame or Pillow: the OS's"
        say "  packages serve. Fix: sudo apt update && sudo apt install $ARMHF_PACKAGES"
        say "  && sudo $0"
    fi
    fail "pip could not install the companion (its messages are above)"
}

# --- the venv --------------------------------------------------------------------------------

source_hash() {
    (cd "$SRC" && find pyproject.toml engine hardware companion/ systemd/install.sh -type f \
        ! -name '*.pyc' ! -path '*/__pycache__/*' | LC_ALL=C sort | xargs sha256sum) \
        | sha256sum | cut -d' ' -f1
}

make_venv() {
    install -d -m 0755 "$PREFIX"
    if ! grep -qx 'include-system-site-packages = true' "$VENV/pyvenv.cfg" 2>/dev/null; then
        # --clear: a venv from an older install.sh, without the system's packages, is remade.
        "$PYTHON" -m venv --clear --system-site-packages "$VENV"
    fi
}

pip_install() {  # --prefer-binary: an older release with a wheel for this machine, not a build
    "$VENV/bin/pip" install --quiet --upgrade --prefer-binary "$1" || explain_pip_failure
}

ensure_venv() {
    if [ -n "$REQUIREMENT" ]; then
        ensure_venv_from_requirement
        return
    fi
    # From a checkout: pip rebuilds a source tree at every install, so it runs only when the
    # tree changed.
    wanted="$(source_hash)"
    if [ -f "$VENV/.source-hash" ] && [ "$(cat "$VENV/.source-hash")" = "$wanted" ]; then
        return
    fi
    make_venv
    pip_install "$SRC[pi]"
    echo "$wanted" > "$VENV/.source-hash"
    CHANGED=1
    say "installed the companion into $VENV"
}

ensure_venv_from_requirement() {
    # A wheel, an sdist or a URL: only pip knows whether it is newer than what the venv has,
    # so pip always runs and what the venv holds (pip freeze: every package's version, a URL's
    # commit) says whether anything changed.
    make_venv
    before="$("$VENV/bin/pip" freeze --all 2>/dev/null || true)"
    pip_install "$REQUIREMENT"
    if [ "$("$VENV/bin/pip" freeze --all)" = "$before" ]; then
        say "the companion in $VENV is up to date ($REQUIREMENT)"
        return
    fi
    CHANGED=1
    say "installed $REQUIREMENT into $VENV"
}

report_pins() {
    if "$VENV/bin/python" -c 'import lgpio' 2>/dev/null; then
        say "pins: lgpio (buttons, buzzer and motors on every Pi, the Pi 5 included)"
        return
    fi
    python="$("$VENV/bin/python" -c 'import platform as p; print("Python", p.python_version()[:4], "on", p.machine())')"
    say "WARNING: no lgpio for $python: PyPI's wheels stop at Python 3.12"
    say "  and this system's archive has no python3-lgpio (Raspberry Pi OS's has)."
    say "  What works: seat pods, the displays, the public screen and the speaker; a table"
    say "  of pods only runs. What does not: GPIO buttons, buzzer and motors (gpiozero's own"
    say "  fallback driver has no PWM and does not cope with today's kernels), so the service"
    say "  fails at start (and retries) with a table.toml that has wired seats or a buzzer."
    say "  Fix: sudo apt install python3-lgpio && sudo $COMMAND"
}

# --- the account, the table, the Pi's set-up -------------------------------------------------

ensure_groups() {
    for group in $DEVICE_GROUPS; do
        if ! getent group "$group" >/dev/null; then
            groupadd --system "$group"
            say "created group $group"
        fi
    done
}

ours_unit() {  # ours_unit FILE: a unit install.sh wrote (it runs our venv's companion)
    grep -q '^ExecStart=/opt/table-companion/venv/bin/companion ' "$1" 2>/dev/null
}

ours_user() {  # ours_user NAME: the user exists and its home is our state directory
    [ "$(getent passwd "$1" | cut -d: -f6)" = "$HOME_DIR" ]
}

stop_unit() {  # stop_unit NAME: stopped and disabled, if it was running or enabled
    if systemctl is-active --quiet "$1"; then
        systemctl stop "$1"
    fi
    if systemctl is-enabled --quiet "$1"; then
        systemctl disable "$1"
    fi
}

migrate_old_name() {
    # An install of ours under the old name: its unit goes (its public screen carries over),
    # its user is renamed, keeping its id, so the games, the table's memory and table.toml
    # stay where they are and stay its own.
    if [ -e "$OLD_UNIT" ] && ! ours_unit "$OLD_UNIT"; then
        say "left alone: $OLD_UNIT, another program's (not ours)"
    elif [ -e "$OLD_UNIT" ]; then
        if [ -e "$OLD_DROP_INS/public-screen.conf" ] && [ -z "$PUBLIC_SCREEN" ]; then
            PUBLIC_SCREEN=on
        fi
        stop_unit "$OLD_SERVICE"
        rm -rf "$OLD_UNIT" "$OLD_DROP_INS"
        systemctl daemon-reload
        say "moved $OLD_SERVICE to $SERVICE; the games, the table's memory and table.toml stay"
    fi
    if ! ours_user "$OLD_ACCOUNT"; then
        return
    fi
    if getent passwd "$ACCOUNT" >/dev/null; then
        userdel "$OLD_ACCOUNT"
        # Its files go to the user that stays: its group wrote table.toml, it owned the games.
        if [ -e "$ETC/table.toml" ]; then
            chgrp "$ACCOUNT" "$ETC" "$ETC/table.toml"
        fi
        if [ -d "$STATE" ]; then
            chown -R "$ACCOUNT:$ACCOUNT" "$STATE"
        fi
        say "removed our old user $OLD_ACCOUNT; its files are $ACCOUNT's"
    else
        usermod -l "$ACCOUNT" -c "$ACCOUNT_COMMENT" "$OLD_ACCOUNT"
        groupmod -n "$ACCOUNT" "$OLD_ACCOUNT"
        say "renamed our user $OLD_ACCOUNT to $ACCOUNT (the same id: its files stay its own)"
    fi
}

ensure_account() {
    if getent passwd "$ACCOUNT" >/dev/null && ! ours_user "$ACCOUNT"; then
        fail "a user $ACCOUNT exists whose home is not $HOME_DIR: not ours; remove it first"
    fi
    if ! getent passwd "$ACCOUNT" >/dev/null; then
        useradd --system --user-group --home-dir "$HOME_DIR" --no-create-home \
            --comment "$ACCOUNT_COMMENT" --shell /usr/sbin/nologin \
            --groups "$(echo $DEVICE_GROUPS | tr ' ' ,)" "$ACCOUNT"
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

ensure_config() {
    example="$TABLES/$TABLE.toml"
    if [ -e "$ETC/table.toml" ]; then
        if [ "$TABLE_GIVEN" -eq 1 ] && ! cmp -s "$example" "$ETC/table.toml"; then
            say "kept your $ETC/table.toml; to start again from the $TABLE example, remove it"
            say "  and run this again"
        fi
        if [ "$(stat -c %a "$ETC")" != "$CONFIG_DIR_MODE" ]; then
            # an install from before the table's page could save it, or kept by an uninstall
            config_to_the_service
        fi
        return
    fi
    install -d -m "$CONFIG_DIR_MODE" "$ETC"
    install -m "$CONFIG_MODE" "$example" "$ETC/table.toml"
    chgrp "$ACCOUNT" "$ETC" "$ETC/table.toml"
    say "wrote $ETC/table.toml from the $TABLE example: edit it for your wiring, then run"
    say "  this again (it sets the Pi up for the table.toml it finds)"
}

# The table's page saves table.toml as the service (docs/table-page.md): a temporary file
# beside it, renamed over it. So the directory and the file are root's and the service's
# group's, no one else's; the directory's setgid bit gives a file made in it that group too.
# The unit's ReadWritePaths= opens this one directory to the service.
config_to_the_service() {
    chgrp "$ACCOUNT" "$ETC" "$ETC/table.toml"
    chmod "$CONFIG_DIR_MODE" "$ETC"
    chmod "$CONFIG_MODE" "$ETC/table.toml"
    say "$ETC is now writable by the service: the table's page can save table.toml"
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

boot_line() {  # boot_line LINE FILE: append it, in an [all] section, and note the change
    last="$(grep -E '^[[:space:]]*\[' "$2" | tail -n 1 | tr -d '[:space:]')"
    if [ -n "$last" ] && [ "$last" != "[all]" ]; then
        printf '[all]\n' >> "$2"  # the file ends in a section for some models only
    fi
    printf '%s\n' "$1" >> "$2"
    BOOT_CHANGES="$BOOT_CHANGES $1"
}

uses_kernel_mux() {  # a seat with bus = N, N >= 2: a channel of the kernel's i2c-mux overlay
    grep -Eq '^[[:space:]]*bus[[:space:]]*=[[:space:]]*([2-9]|[1-9][0-9]+)([^0-9]|$)' \
        "$ETC/table.toml"
}

uses_userspace_mux() {
    grep -Eq '^[[:space:]]*mux[[:space:]]*=' "$ETC/table.toml"
}

ensure_i2c() {
    # What raspi-config's "enable I2C" does, at the 400 kHz the mux and the SH1106 are made
    # for, plus the mux overlay when table.toml's seats are on its channels.
    config="$(boot_config)"
    if ! grep -Eq '^[[:space:]]*dtparam=([^#]*,)?i2c_arm=on' "$config"; then
        boot_line "dtparam=i2c_arm=on" "$config"
    fi
    speed='^[[:space:]]*dtparam=([^#]*,)?i2c_arm_baudrate='
    if ! grep -Eq "${speed}[0-9]" "$config"; then
        boot_line "dtparam=i2c_arm_baudrate=400000" "$config"
    elif ! grep -Eq "${speed}400000([^0-9]|\$)" "$config"; then
        sed -E -i '/^[[:space:]]*dtparam=/s/(i2c_arm_baudrate=)[0-9]+/\1400000/' "$config"
        BOOT_CHANGES="$BOOT_CHANGES i2c_arm_baudrate=400000"
    fi
    overlay='^[[:space:]]*dtoverlay=i2c-mux([,:]|$)'
    if uses_kernel_mux && ! grep -Eq "$overlay" "$config"; then
        boot_line "dtoverlay=i2c-mux,pca9548,addr=0x70" "$config"
    elif uses_userspace_mux && grep -Eq "$overlay" "$config"; then
        say "WARNING: $config loads the i2c-mux overlay, which owns the mux that table.toml"
        say "  drives itself (mux = {...}); remove its dtoverlay=i2c-mux line and reboot"
    fi
    # On a Pi 3 and a Zero 2 W the I2C controller is clocked by the VPU's core clock, which
    # idles at 250 MHz and rises to 400 MHz under load; the kernel divides for the higher one,
    # so 400 kHz asked is 250 kHz while the Pi idles (raspberrypi/firmware issue 1281, "I2C1
    # clock frequency is wrong"). core_freq=250 holds the core clock at its idle speed, so the
    # bus runs at what was asked; the ARM cores still speed up. A core_freq of one's own stays.
    if ! grep -Eq '^[[:space:]]*core_freq=' "$config"; then
        printf '[pi3]\ncore_freq=250\n[pi02]\ncore_freq=250\n[all]\n' >> "$config"
        BOOT_CHANGES="$BOOT_CHANGES core_freq=250 (Pi 3, Zero 2 W: a steady I2C clock)"
    fi
    if [ -n "$BOOT_CHANGES" ]; then
        say "changed $config:$BOOT_CHANGES"
        install -d "$(dirname "$REBOOT_PENDING")"
        printf '%s\n' "$BOOT_CHANGES" >> "$REBOOT_PENDING"
    fi
    if [ -e "$REBOOT_PENDING" ]; then
        say "REBOOT for the I2C settings to take effect: sudo reboot"
    fi
    if ! grep -qx "i2c-dev" "$ROOT/etc/modules" 2>/dev/null; then
        printf 'i2c-dev\n' >> "$ROOT/etc/modules"
        say "added i2c-dev to $ROOT/etc/modules"
        if [ -z "$ROOT" ]; then
            modprobe i2c-dev || true
        fi
    fi
}

# --- files, the unit, the service ------------------------------------------------------------

install_file() {  # install_file SOURCE TARGET: copy when different; CHANGED=1 if it was
    if ! cmp -s "$1" "$2"; then
        install -D -m 0644 "$1" "$2"
        CHANGED=1
        say "installed $2"
    fi
}

ensure_udev_rule() {
    before="$CHANGED"
    CHANGED=0
    install_file "$HERE/99-table-companion-pods.rules" "$UDEV_RULE"
    if [ "$CHANGED" -eq 1 ] && [ -z "$ROOT" ] && command -v udevadm >/dev/null; then
        udevadm control --reload && udevadm trigger --subsystem-match=tty || true
    fi
    CHANGED=$((before | CHANGED))
}

public_screen_unit() {
    printf '# Written by systemd/install.sh --public-screen: the public view on the HDMI display.\n'
    printf '[Service]\nExecStart=\n'
    printf 'ExecStart=/opt/table-companion/venv/bin/companion play --table '
    printf '/etc/table-companion/table.toml --public-screen\n'
}

ensure_unit() {
    before="$CHANGED"
    CHANGED=0
    install_file "$HERE/$SERVICE" "$UNIT"
    install_file "$HERE/README.md" "$PREFIX/README.systemd.md"
    if [ "$PUBLIC_SCREEN" = on ]; then
        public_screen_unit > "$PREFIX/public-screen.conf"
        install_file "$PREFIX/public-screen.conf" "$DROP_IN"
    elif [ "$PUBLIC_SCREEN" = off ] && [ -e "$DROP_IN" ]; then
        rm -f "$DROP_IN"
        CHANGED=1
        say "removed $DROP_IN: no public screen"
    fi
    if [ "$CHANGED" -eq 1 ]; then
        systemctl daemon-reload
    fi
    CHANGED=$((before | CHANGED))
}

ensure_running() {
    if [ "$MODE" = update ] && ! systemctl is-active --quiet "$SERVICE"; then
        say "$SERVICE was not running and stays stopped (to start it: sudo systemctl start" \
            "$SERVICE)"
        return
    fi
    if ! systemctl is-enabled --quiet "$SERVICE"; then
        systemctl enable "$SERVICE"
    fi
    if [ -e "$REBOOT_PENDING" ]; then
        say "$SERVICE starts at the next boot (not before: its I2C buses appear then)"
    elif ! systemctl is-active --quiet "$SERVICE"; then
        systemctl start "$SERVICE"
        say "started $SERVICE"
    elif [ "$CHANGED" -eq 1 ]; then
        systemctl restart "$SERVICE"
        say "restarted $SERVICE with the new version"
    fi
}

ensure_voices() {  # the spoken prompts are made at install time (companion voices)
    if ! apt_ensure espeak-ng; then
        say "no espeak-ng: narration is text on the screens (install it, then: companion voices)"
        return
    fi
    # The state directory is the service's (the companion refuses one that is not its user's:
    # the journal's seeds are there), so the prompts are made as the service; games kept by an
    # uninstall, root's since, are taken over.
    if [ ! -d "$STATE" ]; then
        install -d -m 0700 "$STATE"
        chown "$ACCOUNT:$ACCOUNT" "$STATE"
    elif [ "$(stat -c %U "$STATE")" != "$ACCOUNT" ]; then
        chown -R "$ACCOUNT:$ACCOUNT" "$STATE"
    fi
    if ! made="$(runuser -u "$ACCOUNT" -- env STATE_DIRECTORY="$STATE" "$VENV/bin/companion" \
            voices 2>/dev/null)"; then
        say "could not make the spoken prompts: narration is text on the screens"
    elif [ "${made#*(0 made now}" = "$made" ]; then  # an update's new prompts, or the first
        say "made the spoken prompts in $STATE/voice"
    fi
}

toml_string() {  # toml_string TEXT: TEXT as a TOML basic string
    printf '"%s"' "$(printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g')"
}

service_settings() {
    printf '# Written by install.sh: the service'"'"'s table.toml and games, for companion\n'
    printf '# check-config and companion audit with no paths given; what pip installed it\n'
    printf '# from, for companion update with no source given.\n'
    printf 'config = "/etc/table-companion/table.toml"\nstate_dir = "%s"\n' "$HOME_DIR"
    printf 'requirement = %s\n' "$(toml_string "${REQUIREMENT:-$SRC[pi]}")"
}

ensure_command() {
    if ! service_settings | cmp -s - "$SERVICE_SETTINGS"; then
        service_settings > "$SERVICE_SETTINGS"
        chmod 0644 "$SERVICE_SETTINGS"
    fi
    if [ -L "$LINK" ] && [ "$(readlink "$LINK")" = "$ENTRY" ]; then
        return
    fi
    if [ -e "$LINK" ] || [ -L "$LINK" ]; then
        say "left alone: $LINK, another program's; this companion is $ENTRY"
        return
    fi
    install -d "$(dirname "$LINK")"
    ln -s "$ENTRY" "$LINK"
    say "companion is on PATH: $LINK"
}

venv_only() {
    ensure_os_packages
    ensure_venv
    report_pins
}

install_all() {
    migrate_old_name
    ensure_groups
    ensure_account
    ensure_os_packages
    ensure_venv
    ensure_command
    ensure_voices
    ensure_config
    ensure_i2c
    ensure_udev_rule
    ensure_unit
    ensure_running
    report_pins
    if [ "$MODE" = update ]; then
        say "done: updated; $ETC/table.toml, the saved games and the table's memory in" \
            "$HOME_DIR are as they were"
        return
    fi
    say "done: systemctl status $SERVICE; saved games in $HOME_DIR; check your table.toml"
    say "  with: sudo companion check-config"
}

table_settings() {  # table_settings [--purge]: the table's settings stay, unless purged
    if [ ! -e "$ETC" ]; then
        return
    fi
    if [ "${1:-}" = --purge ]; then
        rm -rf "$ETC"
        say "removed the table's settings, $ETC/table.toml"
        return
    fi
    # The user's group is gone: a group given its id must not read or change the settings.
    # A new install hands them back (config_to_the_service).
    chgrp root "$ETC"
    chmod u=rwx,g-rwxs,o= "$ETC"
    if [ -e "$ETC/table.toml" ]; then
        chgrp root "$ETC/table.toml"
        chmod 0600 "$ETC/table.toml"
    fi
    say "kept the table's settings in $ETC/table.toml, now root's alone (a new install" \
        "uses them); remove them with: sudo rm -rf $ETC"
}

saved_games() {  # saved_games [--purge]: what the uninstall leaves behind, or not
    if [ ! -d "$STATE" ]; then
        return
    fi
    if [ "${1:-}" != --purge ] && [ -t 0 ]; then
        printf '%s: %s holds the saved games (%s, every seed included). Remove them too? [y/N] ' \
            "$NAME" "$STATE" "$(du -sh "$STATE" | cut -f1)"
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
    stop_unit "$SERVICE"
    if [ -e "$UNIT" ] || [ -e "$DROP_IN" ]; then
        rm -rf "$UNIT" "$(dirname "$DROP_IN")"
        systemctl daemon-reload
    fi
    if ours_unit "$OLD_UNIT"; then  # an install under the old name, never moved
        stop_unit "$OLD_SERVICE"
        rm -rf "$OLD_UNIT" "$OLD_DROP_INS"
        systemctl daemon-reload
    fi
    rm -rf "$PREFIX" "$UDEV_RULE"
    if [ "$(readlink "$LINK" 2>/dev/null)" = "$ENTRY" ]; then
        rm -f "$LINK"
        say "removed the command $LINK"
    fi
    for account in "$ACCOUNT" "$OLD_ACCOUNT"; do
        if ours_user "$account"; then
            userdel "$account"
        fi
    done
    say "removed the service, $PREFIX, the pods' udev rule and the user $ACCOUNT"
    table_settings "$@"
    saved_games "$@"
    left_behind
}

# What the install set up that other programs may use too: the uninstall names it, and leaves it.
OUR_BOOT_LINES='^(dtparam=i2c_arm=on|dtparam=i2c_arm_baudrate=400000|dtoverlay=i2c-mux,pca9548,addr=0x70|core_freq=250)$'
OS_PACKAGES="python3-venv python3-lgpio espeak-ng $ARMHF_PACKAGES"

left_behind() {
    for config in "$ROOT/boot/firmware/config.txt" "$ROOT/boot/config.txt"; do
        lines="$(grep -E "$OUR_BOOT_LINES" "$config" 2>/dev/null | tr '\n' ' ')" || true
        if [ -n "$lines" ]; then
            say "left on: I2C, in $config: ${lines% }"
        fi
    done
    if grep -qx "i2c-dev" "$ROOT/etc/modules" 2>/dev/null; then
        say "left on: i2c-dev in $ROOT/etc/modules"
    fi
    packages=""
    for package in $OS_PACKAGES; do
        if apt_installed "$package"; then
            packages="$packages $package"
        fi
    done
    if [ -n "$packages" ]; then
        say "left installed: the OS packages$packages (other programs may need them)"
    fi
    say "left as they are: the device groups ($DEVICE_GROUPS)"
}

usage() {
    fail "usage: $0 [--table NAME] [--public-screen | --no-public-screen] | --update |" \
        "--venv-only | --uninstall [--purge]"
}

examples() {
    for file in "$TABLES"/*.toml; do
        printf '%s ' "$(basename "$file" .toml)"
    done
}

ARGS="$*"
COMMAND="${COMPANION_COMMAND:-$0${ARGS:+ $ARGS}}"  # to run this again, as it was run
MODE=install
PURGE=""
while [ $# -gt 0 ]; do
    case "$1" in
        --table)
            [ $# -ge 2 ] || usage
            TABLE="$2"
            TABLE_GIVEN=1
            shift
            [ -f "$TABLES/$TABLE.toml" ] || fail "no example table '$TABLE';" \
                "the examples: $(examples)"
            ;;
        --public-screen) PUBLIC_SCREEN=on ;;
        --no-public-screen) PUBLIC_SCREEN=off ;;
        --venv-only) MODE=venv ;;
        --update) MODE=update ;;
        --uninstall) MODE=uninstall ;;
        --purge) PURGE=--purge ;;
        *) usage ;;
    esac
    shift
done
if [ -n "$PURGE" ] && [ "$MODE" != uninstall ]; then
    usage
fi
if [ "$MODE" = update ] && { [ "$TABLE_GIVEN" -eq 1 ] || [ -n "$PUBLIC_SCREEN" ]; }; then
    usage  # an update keeps the table's settings; a new table or screen is an install's
fi

need_root
case "$MODE" in
    install | update) install_all ;;
    venv) venv_only ;;
    uninstall) uninstall_all $PURGE ;;
esac
