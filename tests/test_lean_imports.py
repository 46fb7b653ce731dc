"""The service loads only the parts its table uses (issue 27: resident memory under 48 MiB).

aiohttp (the server the phones once ran on, still the tests' and the bench's client) cost
the service about 12 MiB, the cryptography package (the seals', once) several, and
pkg_resources, which pygame's import would pull in, about 10: a wired table without phones
or its page must load none of them, and a table with phone seats and its page serves both
with neither aiohttp nor cryptography (its server is h11 and wsproto, its seals OpenSSL's
libcrypto through ctypes). Checked on the real ``companion play --table`` (bench/service.py's
harness), by the shared objects mapped into the process at READY (aiohttp's and
cryptography's compiled parts; h11 and wsproto have none), so a module-level import added
anywhere on the path turns this red.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

from bench.realpath import table_toml
from bench.service import Service

HEAVY = ("/aiohttp/", "/cryptography/")  # what the service has no need of, on any table


def mapped_packages(table: str, folder: Path, pages: tuple[str, ...] = ()) -> set[str]:
    """Which of HEAVY the service started on ``table`` has loaded, once it has answered each
    of ``pages`` (addresses) with a 200."""
    service = Service(folder, None, table)
    try:
        service.start()
        for page in pages:
            with urllib.request.urlopen(page, timeout=10) as answer:
                assert answer.status == 200, page
        maps = Path(f"/proc/{service.pid()}/maps").read_text()
    finally:
        service.stop()
    return {package for package in HEAVY if package in maps}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_wired_table_loads_no_web_server(tmp_path: Path) -> None:
    assert mapped_packages(table_toml(2), tmp_path) == set()


def test_a_table_with_phone_seats_and_its_page_serves_them_without_either(
        tmp_path: Path) -> None:
    """Two wired seats, two phone seats and the table's page: the server answers both
    seats' pages and the table's."""
    port = free_port()
    table = table_toml(2).replace("[table]\n", "[table]\npage = true\n", 1)
    table += "".join(f"[[seat]]\nnumber = {number}\nphone = true\n" for number in (3, 4))
    table += f'[phones]\nport = {port}\nlisten = "127.0.0.1"\n'
    pages = tuple(f"http://127.0.0.1:{port}{path}"
                  for path in ("/seat/3", "/seat/4", "/settings"))
    assert mapped_packages(table, tmp_path, pages) == set()


def test_pygame_loads_without_pkg_resources_and_still_finds_its_font() -> None:
    """The speaker's and the window's import of pygame; the window's default font is the one
    pygame looks up through pkgdata, the module that would import pkg_resources."""
    script = ("import sys, hardware.sdl; from hardware.sdl import pygame; pygame.font.init(); "
              "pygame.font.Font(None, 12); print('pkg_resources' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "False"


def test_the_speaker_plays_without_pygame(tmp_path: Path) -> None:
    """pygame stays for the window and the public screen: a table's speaker, opened and
    played, loads none of it (it cost the service about 15 MiB)."""
    script = ("import sys; from pathlib import Path; "
              "from hardware.drivers.voice import PromptCache, open_speaker; "
              "speaker = open_speaker(PromptCache(Path(sys.argv[1])), volume=0.8); "
              "speaker.play('start'); speaker.wait_idle(10); speaker.close(); "
              "print(type(speaker).__name__, 'pygame' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True,
                          text=True, check=True)
    assert done.stdout.strip() == "MixerSpeaker False", done
