"""A headless chromium for the page's tests, driven by selenium through Debian's
chromedriver: nothing downloads a browser. Without one the tests skip, except under CI
(``CI=true``), where a missing browser is a failure."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")


def browser(width: int = 390, height: int = 844) -> webdriver.Chrome:
    """A new headless chromium whose page is ``width`` by ``height`` CSS pixels."""
    options = Options()
    options.binary_location = found(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(argument)
    options.add_argument(f"--window-size={width},{height}")
    driver = webdriver.Chrome(service=Service(found(CHROMEDRIVER)), options=options)
    # The window's size counts its frame; the page's own size is set exactly.
    metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    return driver


def found(program: Path) -> str:
    """Where ``program`` is: Debian's place, or else wherever the PATH has it."""
    return str(program) if program.exists() else shutil.which(program.name) or str(program)


def browser_missing() -> str | None:
    """Why no browser can run here, or None."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not Path(found(path)).exists():
            return f"{path} is not installed (apt-get install chromium chromium-driver)"
    return None


@pytest.fixture
def needs_browser() -> None:
    missing = browser_missing()
    if missing is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(missing)
        pytest.skip(missing)


@pytest.fixture
def driver(needs_browser: None) -> Iterator[webdriver.Chrome]:
    """A headless chromium at a phone's size (390 by 844)."""
    chrome = browser()
    try:
        yield chrome
    finally:
        chrome.quit()
