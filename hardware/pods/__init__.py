"""USB seat pods, the Pi's side: finding them (``discovery``), the handshake on a serial port
(``port``), the live link to one seat (``link``) and its screen, motor and piezo (``screen``).
The messages themselves are ``podproto.wire``, shared with the pod's firmware."""
