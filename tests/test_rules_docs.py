"""The rules page in every language: each one exists, links the others, links only
its own sections, and names every option, value, tile and move the English page does."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
PAGES = {
    "en": "rules.md",
    "ru": "rules.ru.md",
    "uk": "rules.uk.md",
    "pl": "rules.pl.md",
    "ca": "rules.ca.md",
}
CODE = re.compile(r"`([^`]+)`")


def page(lang: str) -> str:
    return (DOCS / PAGES[lang]).read_text(encoding="utf-8")


def slug(heading: str) -> str:
    """A heading's anchor as GitHub writes it (letters of any script are kept)."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


@pytest.mark.parametrize("lang", PAGES)
def test_a_rules_page_links_every_other_language(lang: str) -> None:
    links = set(re.findall(r"\]\((rules[.\w]*\.md)\)", page(lang)))
    assert links == {name for other, name in PAGES.items() if other != lang}


@pytest.mark.parametrize("lang", PAGES)
def test_a_rules_page_links_only_its_own_sections(lang: str) -> None:
    text = page(lang)
    anchors = re.findall(r"\]\(#([^)]+)\)", text)
    headings = {slug(h) for h in re.findall(r"^## (.+)$", text, re.MULTILINE)}
    assert len(anchors) == 6 and set(anchors) == headings


@pytest.mark.parametrize("lang", [lang for lang in PAGES if lang != "en"])
def test_a_translation_names_everything_the_english_page_names(lang: str) -> None:
    english = set(CODE.findall(page("en")))
    assert sorted(english - set(CODE.findall(page(lang)))) == []
