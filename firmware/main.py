"""Boot entry of a seat pod (MicroPython runs main.py at power-up): wire up and run."""

import machine
import settings
from buttons import SeatButtons
from oled import Oled
from pod import Pod
from pulses import Motor, Piezo
from usb_link import UsbLink


def pull_up(number):
    return machine.Pin(number, machine.Pin.IN, machine.Pin.PULL_UP)


def build(config: dict) -> Pod:
    i2c = machine.I2C(config["i2c"], sda=machine.Pin(config["sda"]),
                      scl=machine.Pin(config["scl"]), freq=400_000)
    oled = Oled(i2c, config["display"], config["address"], config["rotate"])
    peek = pull_up(config["peek"]) if config["peek"] is not None else None
    buttons = SeatButtons(pull_up(config["act"]), peek)
    motor = piezo = None
    if config["motor"] is not None:
        motor = Motor(machine.Pin(config["motor"], machine.Pin.OUT, value=0))
    if config["piezo"] is not None:
        piezo = Piezo(machine.PWM(machine.Pin(config["piezo"])))
    return Pod(config, UsbLink(), oled, buttons, motor, piezo)


build(settings.load()).run()
