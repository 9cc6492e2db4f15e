"""The page is a few files served as they are: an HTML page, its style and its script in
ES modules that import one another by relative paths; no build step, nothing fetched from
another site but Telegram's own script (inside Telegram only), and small."""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[3] / "adapters" / "web" / "static"
LIMIT = 150 * 1024


def test_the_page_weighs_less_than_150_kb() -> None:
    files = [STATIC / "index.html", STATIC / "page.css", *STATIC.glob("*.js")]
    assert sum(path.stat().st_size for path in files) < LIMIT


def test_the_page_names_no_other_site_but_telegrams_script() -> None:
    named = set()
    for path in STATIC.iterdir():
        named |= set(re.findall(r"https?://[^\s'\"<>)]+", path.read_text()))
    assert named <= {"https://telegram.org/js/telegram-web-app.js", "http://www.w3.org/2000/svg"}


def test_the_page_loads_its_script_and_style_from_beside_it() -> None:
    index = (STATIC / "index.html").read_text()
    assert re.findall(r'(?:src|href)="([^"]+)"', index) == ["static/page.css", "static/page.js"]


def test_the_page_loads_its_script_as_a_module() -> None:
    index = (STATIC / "index.html").read_text()
    assert '<script type="module" src="static/page.js"></script>' in index


def test_every_module_imports_only_modules_beside_it() -> None:
    scripts = {path.name for path in STATIC.glob("*.js")}
    imported = set()
    for path in STATIC.glob("*.js"):
        found = re.findall(r"^import .* from '([^']+)';$", path.read_text(), re.MULTILINE)
        assert all(name.startswith("./") for name in found), path.name
        imported |= {name.removeprefix("./") for name in found}
    assert imported == scripts - {"page.js"}


def test_every_module_says_first_what_it_owns_and_stays_short() -> None:
    for path in STATIC.glob("*.js"):
        text = path.read_text()
        assert text.startswith("// "), path.name
        assert len(text.splitlines()) < 250, path.name
