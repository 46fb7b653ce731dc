"""The pod's settings: pod.json on its flash, merged over the defaults below.

Only ``seat`` differs from pod to pod; set it with
``mpremote exec "import settings; settings.save_seat(3)"`` (see README.md).
"""

import json

FILE = "pod.json"
DEFAULTS = {
    "seat": 0,  # 0: not set; the pod says so on its screen and the Pi refuses it
    "display": "ssd1306",  # or "sh1106"
    "address": 0x3C,
    "rotate": 0,  # 180 for a display mounted upside down
    "i2c": 0,  # the RP2040's I2C block, and its pins (GPIO numbers)
    "sda": 4,
    "scl": 5,
    "act": 14,
    "peek": 15,  # None for a one-button pod (hold ACT to peek)
    "motor": 16,  # None without a vibration motor
    "piezo": None,  # a GPIO with a passive piezo, if any
}


def load(path: str = FILE) -> dict:
    settings = dict(DEFAULTS)
    try:
        with open(path) as file:
            settings.update(json.load(file))
    except (OSError, ValueError):
        pass  # no file yet, or a broken one: the defaults still run the pod
    return settings


def save_seat(seat: int, path: str = FILE) -> None:
    if not 1 <= seat <= 8:
        raise ValueError("a seat number is 1 to 8")
    settings = load(path)
    settings["seat"] = seat
    with open(path, "w") as file:
        json.dump(settings, file)
