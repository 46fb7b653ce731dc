"""The Pi's own devices: seat buttons, motors and the buzzer on GPIO (``gpio``), the seat
OLEDs (``oled``) over the I2C buses and the mux (``bus``), and the speaker (``voice``)."""
