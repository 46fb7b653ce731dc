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
#   3. a whole table script (companion script) and companion pod-firmware;
#   4. where the first run found no lgpio, the path with python3-lgpio as far as it goes
#      here: a stand-in lgpio module in the system's dist-packages must reach the venv, and
#      install.sh must then report it.
# On armhf the install takes pygame, Pillow, cbor2 and cryptography from the OS's packages
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
    # The tree as it is (committed or not), without .venv and other ignored files.
    (cd "$HERE" && git ls-files -z --cached --others --exclude-standard |
        xargs -0 tar --no-recursion -cf - 2>/dev/null) | tar -xf - -C "$WORK/opt/project"
}

inside() {  # inside COMMAND: run a shell command in the root, in /opt/project
    chroot "$WORK" /usr/bin/env -i HOME=/root LANG=C.UTF-8 PATH=/usr/local/bin:/usr/bin:/bin \
        SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt \
        PIP_CERT=/etc/ssl/certs/ca-certificates.crt PIP_DEFAULT_TIMEOUT=180 SDL_VIDEODRIVER=dummy \
        SDL_AUDIODRIVER=dummy /bin/sh -c "cd /opt/project && $1"
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

tools
base
fresh_root
trap unmount EXIT
checks
printf '\npi-check: passed in %d s (the cached root built before, if it was)\n' \
    $((SECONDS - started))
