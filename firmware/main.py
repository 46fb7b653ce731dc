"""Boot entry of a seat pod (MicroPython runs main.py at power-up): wire up and run.

Ctrl-C goes off before anything else: the Pi's frames, a handshake's WHO included, may hold
the byte 0x03, and with Ctrl-C on it would stop the firmware mid-import or mid-link. To reach
the REPL (mpremote, an update), hold ACT while plugging the pod in: main.py then hands over
to the REPL with Ctrl-C back on instead of running the pod.
"""

import micropython

micropython.kbd_intr(-1)

import machine  # noqa: E402 - only once Ctrl-C is off
import settings  # noqa: E402
from buttons import SeatButtons  # noqa: E402
from oled import Oled  # noqa: E402
from pod import Pod  # noqa: E402
from pulses import Motor, Piezo  # noqa: E402
from usb_link import UsbLink  # noqa: E402

CTRL_C = 3


def pull_up(number):
    return machine.Pin(number, machine.Pin.IN, machine.Pin.PULL_UP)


def build(config: dict, act) -> Pod:
    i2c = machine.I2C(config["i2c"], sda=machine.Pin(config["sda"]),
                      scl=machine.Pin(config["scl"]), freq=400_000)
    oled = Oled(i2c, config["display"], config["address"], config["rotate"])
    peek = pull_up(config["peek"]) if config["peek"] is not None else None
    buttons = SeatButtons(act, peek)
    motor = piezo = None
    if config["motor"] is not None:
        motor = Motor(machine.Pin(config["motor"], machine.Pin.OUT, value=0))
    if config["piezo"] is not None:
        piezo = Piezo(machine.PWM(machine.Pin(config["piezo"])))
    return Pod(config, UsbLink(), oled, buttons, motor, piezo)


def main() -> None:
    config = settings.load()
    act = pull_up(config["act"])
    if act.value() == 0:  # held at power-up: stay out of the way of mpremote
        micropython.kbd_intr(CTRL_C)
        print("pod firmware not started (ACT held): REPL")
        return
    build(config, act).run()


main()
