"""What an installed companion carries besides itself: the example tables and the pod firmware.

Both are package data, so a Pi that installed the companion from PyPI or an sdist has them
without a checkout: ``companion example-table NAME > table.toml`` starts a table's config,
``companion pod-firmware DIR`` lays out the files that go on a seat pod's Pico.
"""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

POD_PROTOCOL = "podproto"  # the package the Pi imports too; on the pod, a folder of that name


def example_tables_folder() -> Path:
    """The folder of the shipped example tables (install.sh starts table.toml from one)."""
    return Path(str(files("hardware") / "tables"))


def example_tables() -> dict[str, Traversable]:
    """Every shipped example table.toml by its name (the file name without ``.toml``)."""
    return {entry.name.removesuffix(".toml"): entry for entry in example_tables_folder().iterdir()
            if entry.name.endswith(".toml")}


def example_table(name: str | None) -> int:
    """Print the example ``name``; without a name, list them with what each one shows."""
    tables = example_tables()
    if name is None:
        for key in sorted(tables):
            first = tables[key].read_text(encoding="utf-8").splitlines()[0]
            print(f"{key:12} {first.lstrip('# ')}")
        return 0
    if name not in tables:
        raise ValueError(f"no example table '{name}'; the examples: {', '.join(sorted(tables))}")
    print(tables[name].read_text(encoding="utf-8"), end="")
    return 0


def python_files(folder: Traversable) -> dict[str, bytes]:
    return {entry.name: entry.read_bytes() for entry in folder.iterdir()
            if entry.name.endswith(".py")}


def pod_files() -> dict[str, bytes]:
    """The files of a pod's flash, by path: the firmware, and the protocol package it shares
    with the Pi (the installed one, so the pod speaks exactly this companion's protocol)."""
    shipped = python_files(files("companion") / "pod_firmware")
    for name, content in python_files(files(POD_PROTOCOL)).items():
        shipped[f"{POD_PROTOCOL}/{name}"] = content
    return shipped


def pod_firmware(folder: str) -> int:
    """Write the pod's files into ``folder`` and say how they get onto the Pico."""
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    names = sorted(pod_files().items())
    for name, content in names:
        (target / name).parent.mkdir(exist_ok=True)
        (target / name).write_bytes(content)
    print(f"wrote {len(names)} files to {target}. With MicroPython on the Pico, the companion "
          "stopped and the pod plugged in (firmware/README.md):")
    print(f"  mpremote mkdir :{POD_PROTOCOL}   # the first time only")
    print(f"  mpremote cp {target}/*.py : + cp {target}/{POD_PROTOCOL}/*.py :{POD_PROTOCOL}/")
    print('  mpremote exec "import settings; settings.save_seat(N)" + reset   # its seat, 1-8')
    return 0
