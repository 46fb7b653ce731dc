#!/usr/bin/env bash
# Does the install work on a base of today's Raspberry Pi OS, Debian trixie on arm64 with
# Python 3.13 unless told another? (make pi-check runs it on all four.) Run as root on an x86
# (or arm64) Linux machine:
#
#     tools/pi-check.sh
#     PI_CHECK_ARCH=armhf PI_CHECK_SUITE=bookworm tools/pi-check.sh   # another base
#
# PI_CHECK_ARCH: arm64 (default) or armhf (32-bit Pi OS); PI_CHECK_SUITE: trixie (default,
# Python 3.13) or bookworm (3.11). It builds once, and caches, that root with debootstrap
# (its default mirror; 10-20 minutes under emulation; PI_CHECK_CACHE, default
# /var/cache/table-companion, says where), then in a fresh copy of it, under qemu's
# user-mode emulation:
#   1. systemd/install.sh --venv-only: the OS packages and the venv, as on a Pi (without
#      Raspberry Pi OS's archive: Debian's has no python3-lgpio, so on Python 3.13 the install
#      must say so and how to fix it; on 3.11 PyPI's lgpio wheel serves); a second run must
#      change nothing;
#   2. companion --version, and companion check-config on every example table, as printed by
#      the installed companion example-table;
#   3. a whole table script (companion script) and companion pod-firmware; tools/phone-check.py
#      (the phone server's pages on h11, its seals through the root's libcrypto);
#   4. where the first run found no lgpio, the path with python3-lgpio as far as it goes
#      here: a stand-in lgpio module in the system's dist-packages must reach the venv, and
#      install.sh must then report it;
#   5. the appliance install with no checkout: the checkout's venv removed, docs/install.md's
#      "One command, no checkout" as written there (without sudo: root already), from a wheel
#      built on this machine (PI_CHECK_WHEEL, or one built now: tools/pi-check.sh
#      --build-wheel prints it, so that make pi-check builds it once for the four); then
#      companion on PATH, its --version, check-config with no path (the service's table), and
#      a second install-service that changes no file. Raspberry Pi OS has systemd and a
#      config.txt, Debian's minimal root neither: the root gets Debian's systemd and an empty
#      config.txt. systemd is not running here, so its systemctl is told so (SYSTEMD_OFFLINE=1,
#      what it assumes in a chroot it detects): it enables units, and ignores start, stop,
#      daemon-reload and is-active (which then answers yes).
# On armhf the install takes pygame, Pillow and cbor2 from the OS's packages
# (PyPI has no 32-bit ARM wheels of them): Bookworm's are pyproject.toml's lowest versions.
# Not a Pi: no GPIO, no I2C, no systemd as PID 1, and emulated timings mean nothing.
set -euo pipefail

CACHE=${PI_CHECK_CACHE:-/var/cache/table-companion}
ARCH=${PI_CHECK_ARCH:-arm64}
SUITE=${PI_CHECK_SUITE:-trixie}
case "$ARCH" in
    arm64) QEMU=aarch64 ;;
    armhf) QEMU=arm ;;
    *) printf 'pi-check: PI_CHECK_ARCH is arm64 or armhf, not %s\n' "$ARCH" >&2; exit 2 ;;
esac
case "$SUITE" in
    trixie | bookworm) ;;
    *) printf 'pi-check: PI_CHECK_SUITE is trixie or bookworm, not %s\n' "$SUITE" >&2; exit 2 ;;
esac
BASE="$CACHE/$SUITE-$ARCH"
WORK="$CACHE/pi-check-root-$SUITE-$ARCH"
HERE="$(cd "$(dirname "$0")/.." && pwd)"
SCRIPT=tests/scripts/heroes_whole_game.table
started=$SECONDS

step() { printf '\npi-check [%4d s]: %s\n' $((SECONDS - started)) "$*"; }
fail() { printf 'pi-check: FAILED: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || fail "run it as root (it builds a root file system and chroots into it)"

tools() {
    if ! command -v debootstrap >/dev/null || [ ! -e "/usr/lib/binfmt.d/qemu-$QEMU.conf" ]; then
        step "installing qemu-user-static and debootstrap"
        apt-get update -q >/dev/null
        apt-get install -y -q qemu-user-static debootstrap >/dev/null
    fi
    # Teach the kernel to run ARM programs through qemu (once per boot).
    [ -e /proc/sys/fs/binfmt_misc/register ] ||
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    [ -e "/proc/sys/fs/binfmt_misc/qemu-$QEMU" ] ||
        cat "/usr/lib/binfmt.d/qemu-$QEMU.conf" > /proc/sys/fs/binfmt_misc/register
}

base() {
    if [ -e "$BASE/.complete" ]; then
        return
    fi
    step "building the $ARCH $SUITE root in $BASE (once; 10-20 minutes)"
    rm -rf "$BASE.partial"
    mkdir -p "$CACHE"
    debootstrap --arch="$ARCH" --variant=minbase \
        --include=python3,python3-venv,python3-pip,ca-certificates \
        "$SUITE" "$BASE.partial"  # from debootstrap's default mirror
    touch "$BASE.partial/.complete"
    mv "$BASE.partial" "$BASE"
}

unmount() {
    for point in "$WORK/proc" "$WORK/dev"; do
        if mountpoint -q "$point"; then
            umount -l "$point"
        fi
    done
}

export_tree() {  # export_tree DIR: the tree as it is (committed or not), without .venv and
    # other ignored files
    (cd "$HERE" && git ls-files -z --cached --others --exclude-standard |
        xargs -0 tar --no-recursion -cf - 2>/dev/null) | tar -xf - -C "$1"
}

build_wheel() {  # the companion's wheel, built on this machine; prints its path
    out="$(mktemp -d /tmp/pi-check-wheel.XXXXXX)"
    mkdir "$out/tree"
    export_tree "$out/tree"
    python3 -m pip wheel --quiet --no-deps --wheel-dir "$out" "$out/tree" >&2
    rm -rf "$out/tree"
    ls "$out"/table_companion-*.whl
}

fresh_root() {
    step "a fresh copy of the root, with this tree in /opt/project"
    unmount
    rm -rf "$WORK"
    cp -a "$BASE" "$WORK"
    # This machine's name resolution and certificate bundle, so apt and pip inside reach
    # what they reach outside (through a proxy that signs with its own certificate, too).
    cp /etc/resolv.conf "$WORK/etc/resolv.conf"
    cp /etc/ssl/certs/ca-certificates.crt "$WORK/etc/ssl/certs/ca-certificates.crt"
    mount -t proc proc "$WORK/proc"
    mount --bind /dev "$WORK/dev"
    mkdir -p "$WORK/opt/project"
    export_tree "$WORK/opt/project"
}

inside() {  # inside COMMAND: run a shell command in the root, in /opt/project, as root
    # with root's PATH on Debian (and what sudo gives)
    chroot "$WORK" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt \
        PIP_CERT=/etc/ssl/certs/ca-certificates.crt PIP_DEFAULT_TIMEOUT=180 SDL_VIDEODRIVER=dummy \
        SDL_AUDIODRIVER=dummy SYSTEMD_OFFLINE=1 /bin/sh -c "cd /opt/project && $1"
}

checks() {
    inside 'printf "inside: %s, %s\n" "$(. /etc/os-release && echo "$PRETTY_NAME")" \
        "$(python3 -c "import platform as p; print(p.machine(), \"Python\", p.python_version())")"'

    step "1. install.sh --venv-only (no python3-lgpio in Debian's archive)"
    inside 'apt-get update -q >/dev/null'
    inside 'sh systemd/install.sh --venv-only' | tee "$WORK/first.log"
    if ! grep -q "pins: lgpio" "$WORK/first.log"; then
        grep -q "WARNING: no lgpio for Python" "$WORK/first.log" ||
            fail "install.sh did not report the missing lgpio"
        grep -q "Fix: sudo apt install python3-lgpio" "$WORK/first.log" ||
            fail "install.sh did not give the command that fixes it"
    fi
    step "1b. install.sh --venv-only again: nothing to do"
    inside 'sh systemd/install.sh --venv-only' | tee "$WORK/second.log"
    if grep -q "installed" "$WORK/second.log"; then
        fail "the second run installed something again"
    fi

    step "2. the installed companion: --version and check-config on every example table"
    companion=/opt/table-companion/venv/bin/companion
    inside "$companion --version"
    inside "$companion example-table"
    for name in $(inside "$companion example-table" | cut -d' ' -f1); do
        inside "cd /tmp && $companion example-table $name > $name.toml &&
            $companion check-config $name.toml"
    done

    step "3. a whole table script, and a pod's firmware"
    inside "$companion script $SCRIPT"
    inside "$companion pod-firmware /tmp/pod && test -s /tmp/pod/main.py &&
        test -s /tmp/pod/podproto/wire.py"
    step "3b. a phone seat: the server's pages and its seals (libcrypto through ctypes)"
    inside "/opt/table-companion/venv/bin/python tools/phone-check.py"

    if grep -q "pins: lgpio" "$WORK/first.log"; then
        return  # lgpio came from PyPI: step 4 has nothing to show
    fi
    step "4. with python3-lgpio (a stand-in module where the OS package puts it)"
    dist=/usr/lib/python3/dist-packages  # where Debian's python3-* packages go
    inside "mkdir -p $dist && printf 'STANDIN = True\n' > $dist/lgpio.py"
    inside '/opt/table-companion/venv/bin/python -c "import lgpio; assert lgpio.STANDIN"' ||
        fail "the venv does not see the system's lgpio"
    inside 'sh systemd/install.sh --venv-only' | tee "$WORK/third.log"
    grep -q "pins: lgpio" "$WORK/third.log" || fail "install.sh did not find the system's lgpio"
    inside "rm $dist/lgpio.py"
}

documented_install() {  # docs/install.md's one command, as root, for the wheel in /tmp
    awk '/^## One command, no checkout/ { part = 1 }
         part && /^```sh$/ { block = 1; next }
         block && /^```$/ { exit }
         block' "$HERE/docs/install.md" | sed -e 's/sudo //g' -e '/^SOURCE=/d'
}

installed_files() {  # every file the install writes, with its mode, owner, size and time
    inside 'find /etc /opt/table-companion /usr/local /boot /var/lib/table-companion -xdev \
        -printf "%y %p %m %U:%G %s %T@ %l\n" | sort'
}

appliance() {
    step "5. the appliance install from the wheel alone (docs/install.md: one command)"
    command="$(documented_install)"
    case "$command" in
        *"companion install-service"*) ;;
        *) fail "docs/install.md's 'One command, no checkout' has no install-service command" ;;
    esac
    inside 'rm -rf /opt/table-companion'  # a Pi without a checkout, or its install
    inside 'apt-get install -y -q --no-install-recommends systemd >/dev/null'
    inside 'mkdir -p /boot/firmware && touch /boot/firmware/config.txt'
    cp "$WHEEL" "$WORK/tmp/"
    inside "cd /tmp && SOURCE=/tmp/$(basename "$WHEEL") && $command" | tee "$WORK/appliance.log"
    grep -q "^companion install-service: companion is on PATH: /usr/local/bin/companion$" \
        "$WORK/appliance.log" ||
        fail "install-service did not put companion on PATH"
    step "5b. companion on PATH: --version, and check-config with no path"
    inside 'cd /tmp && command -v companion && companion --version'
    inside 'cd /tmp && companion check-config' | tee "$WORK/check-config.log"
    grep -q "/etc/table-companion/table.toml" "$WORK/check-config.log" ||
        fail "check-config did not check the service's table.toml"
    step "5c. companion install-service again: no file changes"
    installed_files > "$WORK/before.files"
    inside 'cd /tmp && companion install-service' | tee "$WORK/again.log"
    installed_files > "$WORK/after.files"
    diff "$WORK/before.files" "$WORK/after.files" ||
        fail "the second install-service changed the files above"
    grep -q "is up to date" "$WORK/again.log" || fail "the second install-service said otherwise"
}

if [ "${1:-}" = --build-wheel ]; then
    build_wheel
    exit
fi
tools
base
WHEEL=${PI_CHECK_WHEEL:-}
if [ -z "$WHEEL" ]; then
    WHEEL="$(build_wheel)"
    trap 'rm -rf "$(dirname "$WHEEL")"' EXIT
fi
fresh_root
trap 'unmount; [ -n "${PI_CHECK_WHEEL:-}" ] || rm -rf "$(dirname "$WHEEL")"' EXIT
checks
appliance
printf '\npi-check: passed in %d s (the cached root built before, if it was)\n' \
    $((SECONDS - started))
