"""Phone seats: a seat whose screen and buttons are a web page on a phone.

The companion serves the page itself (``server`` on its own thread, over h11 and wsproto:
``http``), offline, from the Pi. A phone seat is one more kind of seat beside GPIO seats and
pods (``seat``): its edges go on the app's queue as :class:`~hardware.base.ButtonEdge`, its
screen takes the same 128x64 one-bit frames an OLED takes, and every message is sealed with
the seat's own key (``sealing``, ``wire``; what that protects: docs/phones.md).
"""
