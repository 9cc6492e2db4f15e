"""A person at the page, played by the test: each step presses what a player would (a
choice, a lit end, a tile that can go, a move's button, the next deal), waits for the
table to answer, and goes on until the match is over. It runs in a thread of its own,
as the browser's driver blocks while the server runs in the test's event loop.

A press that the server refuses (it is told "too fast" when it outpaces a person) is
tried again a moment later, as a person would after reading the notice."""

from __future__ import annotations

import time

from selenium import webdriver

# The first thing on the page a player may press, in the order he would look for it; a
# tile is pressed only when it can go (one that goes to two ends lights them, and the
# next step presses an end; an end where the tile goes two ways offers the choice).
# Whether the press sent a frame shows at once: the page is busy until its answer.
STEP = """
const first = (css) => document.querySelector(css);
if (first('#result .winners')) return ['over', '', false];
for (const css of ['#choices button', '#line .end.lit', '#hand .tile.playable',
                   '#moves button.move', '#moves button.next_deal']) {
  const button = first(css);
  if (button) {
    const before = document.body.dataset.version || '';
    button.click();
    return [css, before, document.getElementById('mine').classList.contains('busy')];
  }
}
return ['', '', false];
"""

# Until the answer or a newer state comes, the page is busy and shows its version.
WAITING = """
return [document.body.dataset.version || '',
        document.getElementById('mine').classList.contains('busy')];
"""

PAUSE = 0.4  # seconds a person takes to read a refusal and press again


def play_through(driver: webdriver.Chrome, seconds: float = 120.0) -> int:
    """Plays at the page until its match is over; how many presses sent something."""
    deadline = time.monotonic() + seconds
    sent = 0
    while time.monotonic() < deadline:
        pressed, before, busy = driver.execute_script(STEP)
        if pressed == "over":
            return sent
        if not busy:
            time.sleep(0.03)
            continue
        sent += 1
        wait_until = time.monotonic() + 5
        while time.monotonic() < wait_until:
            shown, busy = driver.execute_script(WAITING)
            if shown != before:
                break
            if not busy:  # answered without a new state: refused
                time.sleep(PAUSE)
                break
            time.sleep(0.02)
    shown = driver.execute_script(
        "return [document.body.dataset.version, document.getElementById('turn').textContent,"
        " document.getElementById('moves').textContent, document.getElementById('notice')"
        ".textContent, document.getElementById('banner').textContent]"
    )
    raise TimeoutError(f"the match was not over after {seconds} s ({sent} presses): {shown}")


def version(driver: webdriver.Chrome) -> str:
    return str(driver.execute_script("return document.body.dataset.version || ''"))


def shown_version(driver: webdriver.Chrome) -> int:
    text = version(driver)
    return int(text) if text else -1
