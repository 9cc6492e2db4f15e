"""The page is three files served as they are: no build step, nothing fetched from
another site but Telegram's own script (inside Telegram only), and small."""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[3] / "adapters" / "web" / "static"
LIMIT = 150 * 1024


def test_the_page_weighs_less_than_150_kb() -> None:
    files = [STATIC / name for name in ("index.html", "page.js", "page.css")]
    assert sum(path.stat().st_size for path in files) < LIMIT


def test_the_page_names_no_other_site_but_telegrams_script() -> None:
    named = set()
    for path in STATIC.iterdir():
        named |= set(re.findall(r"https?://[^\s'\"<>)]+", path.read_text()))
    assert named <= {"https://telegram.org/js/telegram-web-app.js", "http://www.w3.org/2000/svg"}


def test_the_page_loads_its_script_and_style_from_beside_it() -> None:
    index = (STATIC / "index.html").read_text()
    assert re.findall(r'(?:src|href)="([^"]+)"', index) == ["static/page.css", "static/page.js"]
