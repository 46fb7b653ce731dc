#!/usr/bin/env bash
# make sdist-check: the sdist is a package a user can trust. Build it, unpack it, install it
# (with its test tools) in a fresh venv, and run a test subset in the unpacked tree: the
# examples, the CLI, the install script (and the wheel built from the sdist, which carries it)
# and the pod firmware must all be in it.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 -m venv "$work/tools"
"$work/tools/bin/pip" install --quiet build
"$work/tools/bin/python" -m build --sdist --outdir "$work/dist" "$here" >/dev/null
sdist=("$work"/dist/table_companion-*.tar.gz)
echo "sdist-check: built $(basename "${sdist[0]}") ($(tar -tzf "${sdist[0]}" | wc -l) files)"
tar -xzf "${sdist[0]}" -C "$work"
unpacked=("$work"/table_companion-*/)
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet "${unpacked[0]}[dev]"
cd "${unpacked[0]}"
SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy "$work/venv/bin/pytest" -p no:cacheprovider \
    tests/test_config.py tests/test_cli.py tests/test_install.py tests/test_install_service.py \
    tests/test_example_tables.py \
    tests/test_pod_firmware.py tests/test_table_scripts.py
