"""The doctor's checks of what is not on the header: the speaker, the pods, the phones' port."""

from __future__ import annotations

import errno
import socket
from collections.abc import Iterator

from hardware.config import TableConfig
from hardware.pods.discovery import AUTO, POD_USB_ID, PodFinder
from podproto import VERSION

from .findings import Finding, Level, Machine

POD_ID = f"{POD_USB_ID[0]:04x}:{POD_USB_ID[1]:04x}"


def speaker(machine: Machine) -> Finding:
    """An ALSA playback device (``/dev/snd/pcmC<card>D<device>p``); without one narration is
    text on the screens, so a table without a speaker works: a warning, not a failure."""
    found = sorted(path.name for path in machine.path("/dev/snd").glob("pcmC*D*p"))
    if found:
        return Finding(Level.OK, "speaker", f"a sound card plays ({', '.join(found)})")
    return Finding(Level.WARN, "speaker", "no sound card: narration shows as text on the "
                   "screens", "plug in a USB speaker or an HDMI screen with sound (a Zero 2 W "
                   "has no audio jack), or dtparam=audio=on in config.txt for the Pi's jack")


def pods(config: TableConfig, machine: Machine) -> Iterator[Finding]:
    """Each pod seat's pod, found as the table finds it and greeted (its HELLO)."""
    ports = {seat.number: seat.pod for seat in config.seats if seat.pod is not None}
    finder = PodFinder(ports, list_ports=machine.pod_ports, opener=machine.pod_opener)
    try:
        for seat, port in ports.items():
            found = finder.find(seat)
            if found is None:
                yield _missing_pod(seat, port, machine)
                continue
            pod, hello = found
            finder.release(pod)
            if hello.firmware != VERSION:
                yield Finding(Level.WARN, "pod", f"answers on {pod.path} with firmware "
                              f"{hello.firmware}; this companion is {VERSION}", "flash it: "
                              "companion pod-firmware DIR, then mpremote (firmware/README.md)",
                              seat)
            else:
                yield Finding(Level.OK, "pod", f"answers on {pod.path}, firmware "
                              f"{hello.firmware}", seat=seat)
    finally:
        finder.close()


def _missing_pod(seat: int, port: str, machine: Machine) -> Finding:
    flash = "flash it and set its seat number (firmware/README.md)"
    if port != AUTO:
        says = f"no pod answers on {port}"
        fix = (f"plug seat {seat}'s pod in with a data cable (not a charge-only one); {flash}; "
               "or pod = \"auto\"")
    elif not any((info.vid, info.pid) == POD_USB_ID for info in machine.pod_ports()):
        says = f"no pod on USB (no device with a pod's ID {POD_ID})"
        fix = f"plug seat {seat}'s pod in with a data cable (not a charge-only one); {flash}"
    else:
        says = f"no pod on USB says it is seat {seat}"
        fix = f"set the pod's seat number to {seat}, and flash this companion's firmware " \
              "(firmware/README.md)"
    return Finding(Level.FAIL, "pod", says, fix, seat)


def phones(config: TableConfig) -> Finding | None:
    """The phone seats' port is free, as the table's web server will need it."""
    if config.phones is None:
        return None
    where = f"port {config.phones.port} on {config.phones.listen}"
    family = socket.AF_INET6 if ":" in config.phones.listen else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as asyncio's server binds
        try:
            probe.bind((config.phones.listen, config.phones.port))
        except OSError as error:
            taken = error.errno == errno.EADDRINUSE
            return Finding(Level.FAIL, "phones", f"{where}: " + (
                "another program has it" if taken else error.strerror or str(error)),
                "stop that program (the table itself, if it is running: sudo systemctl stop "
                "table-companion), or set another port in [phones] and allow that one in the "
                "unit: sudo systemctl edit table-companion, and under [Service] put "
                "SocketBindAllow= then SocketBindAllow=tcp:NEWPORT (systemd/README.md, Phone "
                "seats)" if taken else
                "set listen in [phones] to an address of this machine (or 0.0.0.0)")
    return Finding(Level.OK, "phones", f"{where} is free for the phone seats")
