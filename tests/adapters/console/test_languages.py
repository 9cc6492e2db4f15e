"""A table in Russian or Polish says every line in that language: no word of the
catalog's English side on any line of the screen, the names of players and computers
included. The words the player types (help, quit, hint …) stay as he types them."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

import pytest
from babel.messages.pofile import read_po

from adapters.console import TableRequest
from adapters.console.words import saved_farewell
from bot.views.i18n import DOMAIN, LOCALE_DIR, translator
from engine import all_variants
from tests.adapters.console.terminal import Terminal

#: What the player types, which the table names as he must type it.
TYPED: Final = frozenset(
    {
        "help",
        "quit",
        "hint",
        "table",
        "rules",
        "scores",
        "stats",
        "top",
        "mydata",
        "export",
        "history",
        "review",
        "discard",
        "forget",
        "draw",
        "pass",
        "done",
        "steal",
        "recover",
        "png",
        "global",
        "play",
        "resume",
        "domino",
        "bot",
        "exports",  # the folder replay files go to, as the player finds it
        "utc",  # the time zone of a kept match's date
    }
)
#: Words the language itself has, spelt as in English.
OWN: Final = {"ru": frozenset[str](), "pl": frozenset({"folder"})}
WORD: Final = re.compile(r"[A-Za-z]{3,}")


def english_words() -> frozenset[str]:
    """Every word of three letters or more in the catalog's English texts."""
    with (Path(LOCALE_DIR) / f"{DOMAIN}.pot").open("rb") as pot:
        catalog = read_po(pot)
    words: set[str] = set()
    for message in catalog:
        texts = [message.id] if isinstance(message.id, str) else list(message.id)
        for text in texts:
            bare = re.sub(r"%\(\w+\)[sd]|\{\w+\}", " ", text)
            words.update(w.lower() for w in WORD.findall(bare))
    # A game's options are typed as their names (target=50): they are the player's words.
    options = {
        part
        for variant in all_variants()
        for spec in variant.option_specs
        for part in spec.name.split("_")
    }
    return frozenset(words - TYPED - options)


def english_on(transcript: str, typed: list[str], lang: str) -> list[tuple[str, list[str]]]:
    vocabulary = english_words() - OWN[lang]
    found = []
    for line in transcript.splitlines():
        if any(line.endswith(f"> {word}") or line.endswith(f" {word}") for word in typed):
            continue  # the player's own line, echoed
        english = [w for w in WORD.findall(line) if w.lower() in vocabulary]
        if english:
            found.append((line, english))
    return found


@pytest.mark.parametrize("lang", ["ru", "pl"])
async def test_every_line_of_a_match_and_its_lookups_is_in_the_tables_language(
    terminal: Terminal, lang: str
) -> None:
    request = TableRequest("tyaga", level="greedy", lang=lang, options=("target=20",))
    asked = ["help", "hint", "9", "7-7@L", "rules", "scores", "stats", "top", "mydata"]
    _, first = await terminal.play(["1"] * 2000, request)  # a first match, finished
    words = iter([*asked, "history", "review", "table", "discard", "quit"])
    _, second = await terminal.play(lambda _seen: next(words, "quit"), request)
    _, third = await terminal.play(["", "quit"], request)  # the saved match, continued
    typed = [*asked, "history", "review", "table", "discard", "quit", "1", ""]
    _ = translator(lang)
    assert _("Bye!") in first and _("Your results in every chat:") in second
    assert _("Continue it? [Y/n] ") in third
    found = english_on(first + second + third, typed, lang)
    assert found == [], "\n".join(f"{words}: {line}" for line, words in found)


async def test_a_match_continued_in_another_language_goes_on_in_its_own(
    terminal: Terminal,
) -> None:
    polish = TableRequest("tyaga", level="greedy", lang="pl", options=("target=20",))
    await terminal.play(["quit"], polish)
    _, transcript = await terminal.play(["hint", "quit"], TableRequest(resume=True, lang="en"))
    _ = translator("pl")
    answer = transcript.split("> hint")[1].splitlines()[1]
    assert answer.startswith(f"» {_('Your moves: %(moves)s', moves='')}"), answer
    assert transcript.rstrip().endswith(saved_farewell(_))
