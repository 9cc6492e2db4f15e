"""Pictures of the web table's page for the docs: each game's page, as a phone (390 by
844) and a laptop (1280 by 800) show it, in a headless chromium, drawn from positions of
real games (``make pictures``). Without chromium it says so and draws nothing.

    python -m tests.adapters.web.browser.pictures docs/pictures
"""

from __future__ import annotations

import sys
from pathlib import Path

from adapters.web.frames import FromPage, Hello, ToPage
from tests.adapters.web.browser.conftest import browser, browser_missing
from tests.adapters.web.browser.fixture_table import FixtureTable
from tests.adapters.web.browser.scenes import Scene, find

SIZES = ((390, 844), (1280, 800))


def pictured(game: str) -> Scene:
    """A position of ``game`` worth a picture: well into a deal, the seat to move
    holding something to play (and in Thief of Baghdad, a caravan stolen)."""

    def worth(scene: Scene) -> bool:
        if scene.state.deal_over or len(scene.state.line) < 5 or not scene.moves:
            return False
        parts = scene.table.parts
        return parts.game != "baghdad" or any(c.status == "stolen" for c in parts.caravans)

    return find(game, worth)


def draw(folder: Path) -> list[Path]:
    """Each game's page at each size, into ``folder``; the files written."""
    written = []
    for game in ("tyaga", "kozel", "three_guns", "baghdad"):
        scene = pictured(game)
        turn = scene.table.turn
        now = None if turn is None or turn.deadline is None else turn.deadline - 42

        def reply(frame: FromPage, scene: Scene = scene, now: float | None = now) -> list[ToPage]:
            if isinstance(frame, Hello):
                return [scene.welcome(), scene.frame(now=now)]
            return []

        with FixtureTable(reply) as server:
            for width, height in SIZES:
                chrome = browser(width, height)
                try:
                    chrome.get(f"{server.url}?pass=picture")
                    chrome.implicitly_wait(5)
                    chrome.find_element("css selector", f'body[data-version="{scene.doc.step}"]')
                    path = folder / f"web-{game.replace('_', '-')}-{width}.png"
                    chrome.save_screenshot(str(path))
                    written.append(path)
                finally:
                    chrome.quit()
    return written


def main(argv: list[str]) -> int:
    folder = Path(argv[0] if argv else "docs/pictures")
    missing = browser_missing()
    if missing is not None:
        print(f"no pictures of the web page: {missing}", file=sys.stderr)
        return 0
    folder.mkdir(parents=True, exist_ok=True)
    written = draw(folder)
    print(f"{len(written)} pictures of the web page in {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
