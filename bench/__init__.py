"""The benchmark (issue 9): speed, bus bytes, timing and memory, measured on the real parts.

``python -m bench`` (what ``make bench`` runs) plays Staying Alive on the headless table
(gpiozero mock pins, luma's SSD1306 class over a recording I2C bus) and prints one table: each
figure, its budget and a naive baseline measured in the same run. Figures, not
assertions: ``tests/test_bench.py`` only runs it at tiny sizes so it cannot rot.
"""
