"""Translations: every text goes through the catalog, and the catalog is current."""

from __future__ import annotations

import ast
import gettext
import json
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from bot.model.contract import ChatRef, Deadline, Mention, UserRef
from bot.model.gamedoc import GameDoc, Seat, TableSettings
from bot.table.typed_moves import NotAMove, typed_press
from bot.views.catalog import commands
from bot.views.hand import hand_buttons
from bot.views.i18n import (
    LOCALE_DIR,
    Translator,
    available_languages,
    line,
    pick_language,
    translator,
)
from bot.views.lobby import settings_buttons
from bot.views.replay_story import story
from engine import DOUBLE_SIX, apply, new_match, parse_move, view
from engine.replay import parse_replay
from tests.bot.driver import deal
from tests.bot.hand_models import hand_model

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("bot", "adapters")  # where user-visible texts are written
KEYWORDS = {"_": None, "N_": None, "NC_": ((1, "c"), 2), "ngettext": (1, 2)}


def source_messages() -> set[str]:
    found: set[str] = set()
    for source in SOURCES:
        for _file, _line, message, _comments, _context in extract_from_dir(
            str(ROOT / source), keywords=KEYWORDS, comment_tags=()
        ):
            found.add(message[0] if isinstance(message, tuple) else message)
    return found


def read_catalog(lang: str) -> Catalog:
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "domino.po").open("rb") as po:
        return read_po(po)


def catalog_messages(lang: str) -> set[str]:
    return {m.id if isinstance(m.id, str) else m.id[0] for m in read_catalog(lang) if m.id}


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


# -- no English glued on: every word a user reads comes from a whole template -------

OPEN, CLOSE = "⟦", "⟧"
WRAPPED = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")


class Marking(gettext.NullTranslations):
    """A pseudo-translation: every text comes back wrapped in ⟦ ⟧, placeholders intact."""

    def gettext(self, message: str) -> str:
        return OPEN + message + CLOSE

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return OPEN + (msgid1 if n == 1 else msgid2) + CLOSE


MARKED = Translator("xx", Marking())


def untranslated(text: str) -> str:
    """The words of ``text`` that did not come from a template."""
    while WRAPPED.search(text):
        text = WRAPPED.sub("", text)
    return "".join(re.findall(r"[A-Za-z]+", text))


def test_the_replay_story_is_told_in_whole_translated_sentences() -> None:
    golden = Path(__file__).resolve().parents[1] / "engine" / "golden" / "tyaga_block_win.json"
    told = list(story(MARKED, parse_replay(json.loads(golden.read_text()))))
    assert len(told) > 20
    assert [line for line in told if untranslated(line)] == []


def test_an_ambiguous_typed_move_is_explained_in_one_sentence() -> None:
    dealt = deal(DOUBLE_SIX, "6-6 5-5 2-2", "6-4 1-1 3-3", leader=0)
    state = new_match("tyaga", 2, options={"hand_size": 3}, fixture=dealt)
    state, _events = apply(state, parse_move("6-6"))  # [6|4] fits both ends now
    hand = hand_model(view(state, 1))
    buttons = [b for row in hand_buttons(MARKED, "abcdefgh", hand) for b in row]
    with pytest.raises(NotAMove) as refused:
        typed_press(MARKED, "6-4", buttons)
    assert untranslated(str(refused.value)) == ""


def test_the_settings_buttons_are_labelled_by_templates() -> None:
    doc = GameDoc(
        id="abcdefgh",
        chat=ChatRef("tg", "-1"),
        status="lobby",
        variant="tyaga",
        options={},
        seed=0,
        seats=(Seat(user=UserRef("tg", "1", "Anna")),),
        host="tg:1",
        settings=TableSettings(60, False, True, "en"),
        created=0.0,
        panel="settings",
    )
    labels = [b.label for row in settings_buttons(MARKED, doc) for b in row]
    assert len(labels) > 4
    assert [label for label in labels if untranslated(label)] == []


def test_the_usage_of_every_command_is_in_the_catalog() -> None:
    usages = {info.usage for info in commands()} - {""}
    assert usages and usages <= catalog_messages("en")


def test_every_plural_in_the_source_is_a_plural_in_the_catalog() -> None:
    """A call such as ``_.ngettext("…", "…", n, game=title(_, x))`` is extracted as a
    plain text: the extractor takes the inner ``_`` for the call."""
    plurals = {m.id[0] for m in read_catalog("en") if isinstance(m.id, tuple)}
    called: set[str] = set()
    for source in SOURCES:
        for path in (ROOT / source).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "ngettext"
                    and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)
                ):
                    called.add(node.args[0].value)
    assert called and sorted(called - plurals) == []
