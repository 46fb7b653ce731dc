"""Phones for the phone seats' browser tests: headless Chromium, one per device, driven by
Selenium as a thumb would (pointer for ACT, keys for PEEK), on the table's fake clock."""

from __future__ import annotations

import shutil
import tempfile

import pytest

CHROMIUM = shutil.which("chromium")
DRIVER = shutil.which("chromedriver")
needs_chromium = pytest.mark.skipif(
    not (CHROMIUM and DRIVER),
    reason="Chromium is not installed: the phone seats' browser tests did not run "
           "(apt-get install chromium chromium-driver)")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run")
WAIT = 10.0  # a failing test's limit: each wait ends on a page event long before


def digest(rows: bytes, lit: bool) -> str:
    """The page's FNV-1a of what it shows (hardware/web/static/seat.js)."""
    value = 0x811C9DC5
    for byte in rows if lit else bytes(len(rows)):
        value = ((value ^ byte) * 0x01000193) & 0xFFFFFFFF
    return f"{value:08x}"


class Phone:
    """One device: its own browser profile, so its own device id."""

    def __init__(self) -> None:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        options = webdriver.ChromeOptions()
        for flag in FLAGS:
            options.add_argument(flag)
        self._profile = tempfile.TemporaryDirectory(prefix="phone-")
        options.add_argument(f"--user-data-dir={self._profile.name}")
        options.binary_location = CHROMIUM or ""
        self.driver = webdriver.Chrome(service=Service(DRIVER), options=options)

    def open(self, address: str, now: float) -> None:
        """Load the page with the phone's clock standing at ``now`` (the table's fake one)."""
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {
            "source": f"window.fakeNow = {round(now * 1000)}; "
                      "window.seatClock = () => window.fakeNow;"})
        self.driver.get(address)

    def state(self, name: str) -> str | None:
        return self.driver.execute_script(f"return document.body.dataset.{name}")

    def wait_for(self, name: str, value: str) -> None:
        from selenium.webdriver.support.ui import WebDriverWait

        WebDriverWait(self.driver, WAIT, poll_frequency=0.005).until(
            lambda _: self.state(name) == value,
            f"the page's {name} never became {value!r} (it is {self.state(name)!r})")

    def drive(self, button: str, pressed: bool, now: float) -> None:
        from selenium.webdriver.common.action_chains import ActionChains

        self.driver.execute_script("window.fakeNow = arguments[0]", round(now * 1000))
        actions = ActionChains(self.driver)
        if button == "act":  # a pointer (touch and mouse alike)
            element = self.driver.find_element("id", "act")
            (actions.click_and_hold(element) if pressed else actions.release(element)).perform()
        else:  # the keyboard
            (actions.key_down("p") if pressed else actions.key_up("p")).perform()

    def text(self, element: str) -> str:
        return self.driver.find_element("id", element).text

    def close(self) -> None:
        self.driver.quit()
        self._profile.cleanup()
