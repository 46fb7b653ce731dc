"""The seat-pod protocol: ONE package that the companion and the pod firmware both import.

It installs with the companion (pyproject's package list) and is copied onto the pod as the
directory ``podproto/`` beside the firmware (firmware/README.md), so the two ends cannot run
different copies of the framing. It runs under CPython and MicroPython alike, so it imports
nothing of the companion's (the layer test holds it to that).

``VERSION`` is the one version number of the companion and the firmware: pyproject reads it,
and the pod says it in its HELLO, so a pod flashed from another checkout is easy to spot.
"""

VERSION = "0.1.0"
