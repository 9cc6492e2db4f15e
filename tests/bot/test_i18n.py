"""Translations: every text goes through the catalog, and the catalog is current."""

from __future__ import annotations

from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from bot.contract import Deadline, Mention, UserRef
from bot.i18n import LOCALE_DIR, available_languages, line, pick_language, translator

BOT = Path(__file__).resolve().parents[2] / "bot"
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}


def source_messages() -> set[str]:
    found: set[str] = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(BOT), keywords=KEYWORDS, comment_tags=()
    ):
        found.add(message[0] if isinstance(message, tuple) else message)
    return found


def catalog_messages(lang: str) -> set[str]:
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "domino.po").open("rb") as po:
        catalog = read_po(po)
    return {m.id[0] if isinstance(m.id, tuple) else m.id for m in catalog if m.id}


def test_the_english_catalog_holds_every_text_of_the_source() -> None:
    missing = source_messages() - catalog_messages("en")
    assert not missing, f"run pybabel extract/update: {sorted(missing)[:5]}"


def test_the_english_catalog_holds_no_text_the_source_dropped() -> None:
    stale = catalog_messages("en") - source_messages()
    assert not stale, sorted(stale)[:5]


def test_english_is_available_and_listed_first() -> None:
    assert available_languages()[0] == "en"


def test_a_text_is_filled_in_by_name() -> None:
    _ = translator("en")
    assert (
        _("Not your turn — waiting for %(name)s", name="Anna") == "Not your turn — waiting for Anna"
    )


def test_plurals_follow_the_number() -> None:
    _ = translator("en")
    assert _.ngettext("%(n)d tile", "%(n)d tiles", 1) == "1 tile"
    assert _.ngettext("%(n)d tile", "%(n)d tiles", 5) == "5 tiles"


def test_an_unknown_language_falls_back_to_english() -> None:
    assert translator("xx").lang == "en"
    assert pick_language("pt_BR", None) == "en"


def test_a_regional_code_matches_its_language() -> None:
    assert pick_language("en-US") == "en"


def test_a_line_keeps_mentions_and_deadlines_as_segments() -> None:
    anna = UserRef("tg", "1", "Anna")
    made = line(
        "%(name)s to move, time runs out %(at)s (100%%)", name=Mention(anna), at=Deadline(5.0)
    )
    assert made == (Mention(anna), " to move, time runs out ", Deadline(5.0), " (100%)")
