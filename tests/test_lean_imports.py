"""The service loads only the parts its table uses (issue 27: resident memory under 48 MiB).

The web server (aiohttp with asyncio) is about 25 MiB of the service's memory, and
pkg_resources, which pygame's import would pull in, about 10: a wired table without phones
or its page must load neither, and a table that serves its page still gets its server; the
phones' seals load no package of their own. Checked on the real ``companion play --table``
(bench/service.py's harness), by the shared objects mapped into the process at READY, so a
module-level import added anywhere on the path turns this red.
"""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

from bench.realpath import table_toml
from bench.service import Service

WEB_SERVER = ("/aiohttp/",)
NOT_AT_ALL = ("/cryptography/",)  # the phones' seals are libcrypto's, through ctypes (issue 23)


def mapped_packages(table: str, folder: Path) -> set[str]:
    """Which of the web server's packages (or of those it must not load) the service started
    on ``table`` has loaded."""
    service = Service(folder, None, table)
    try:
        service.start()
        maps = Path(f"/proc/{service.pid()}/maps").read_text()
    finally:
        service.stop()
    return {package for package in (*WEB_SERVER, *NOT_AT_ALL) if package in maps}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_wired_table_loads_no_web_server(tmp_path: Path) -> None:
    assert mapped_packages(table_toml(2), tmp_path) == set()


def test_a_table_serving_its_page_loads_the_web_server(tmp_path: Path) -> None:
    page = table_toml(2).replace("[table]\n", "[table]\npage = true\n", 1)
    page += f'[phones]\nport = {free_port()}\nlisten = "127.0.0.1"\n'
    assert mapped_packages(page, tmp_path) == set(WEB_SERVER)


def test_a_table_with_phone_seats_seals_without_the_cryptography_package(tmp_path: Path) -> None:
    """Two wired seats and two phone seats: the server runs, its seals are OpenSSL's."""
    phones = table_toml(2) + "".join(f"[[seat]]\nnumber = {number}\nphone = true\n"
                                     for number in (3, 4))
    phones += f'[phones]\nport = {free_port()}\nlisten = "127.0.0.1"\n'
    assert mapped_packages(phones, tmp_path) == set(WEB_SERVER)


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
