"""Launching the bench's child processes and the companion's own command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
NULL_SPEAKER = REPO / "bench" / "null-speaker.conf"  # ALSA's default PCM plays nothing


def environment() -> dict[str, str]:
    """The repo on the path (bench is not installed), no real pins by accident, and a speaker
    that opens with no sound card."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH")) if p)
    env["GPIOZERO_PIN_FACTORY"] = "mock"
    env["ALSA_CONFIG_PATH"] = str(NULL_SPEAKER)
    return env


def child_command(role: str, *args: str) -> list[str]:
    return [PYTHON, "-m", "bench.child", role, *args]


def start_child(role: str, *args: str) -> subprocess.Popen:
    return subprocess.Popen(child_command(role, *args), cwd=REPO, env=environment(),
                            stdout=subprocess.PIPE, text=True)


def run_child(role: str, *args: str) -> dict:
    """Run a child to its end; its last stdout line is its JSON answer."""
    done = subprocess.run(child_command(role, *args), cwd=REPO, env=environment(),
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"bench child {role} failed:\n{done.stderr.strip()}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def companion_command() -> list[str]:
    """The installed ``companion`` script beside our interpreter, else ``python -m companion``."""
    script = Path(PYTHON).parent / "companion"
    return [str(script)] if script.exists() else [PYTHON, "-m", "companion"]


def run_quietly(command: list[str]) -> None:
    subprocess.run(command, cwd=REPO, env=environment(), stdout=subprocess.DEVNULL, check=True)
