"""Ratings are written as the chat's language writes numbers: a decimal comma in
Russian, Ukrainian, Polish and Catalan, a point in English, on the final table, the
leaderboard and a player's stats."""

from __future__ import annotations

import random
import re

import pytest

from bot.contract import ChatRef, Command, Response, Show, SlotKind
from bot.i18n import translator
from bot.rating_views import top_screen
from bot.ratings import PROVISIONAL, Rating
from bot.store import Store
from tests.bot.driver import make_table, user

ANNA, BORIS = user(1, "Anna"), user(2, "Boris")
COMMA = ["ru", "uk", "pl", "ca"]


@pytest.mark.parametrize(
    ("lang", "plain", "gain", "loss"),
    [
        ("en", "24.8", "+1.3", "-2.5"),
        ("ru", "24,8", "+1,3", "-2,5"),
        ("uk", "24,8", "+1,3", "-2,5"),
        ("pl", "24,8", "+1,3", "-2,5"),
        ("ca", "24,8", "+1,3", "-2,5"),
    ],
)
def test_a_decimal_is_written_as_the_language_writes_it(
    lang: str, plain: str, gain: str, loss: str
) -> None:
    _ = translator(lang)
    assert _.decimal(24.84) == plain
    assert (_.decimal(1.3, signed=True), _.decimal(-2.46, signed=True)) == (gain, loss)


@pytest.mark.parametrize("lang", COMMA)
async def test_the_leaderboard_writes_ratings_with_the_languages_decimal_comma(
    store: Store, lang: str
) -> None:
    rated = {"tg:1": Rating("Anna", 30.0, 2.0, PROVISIONAL)}  # ordinal 24
    await store.record_global_ratings("m1", "tyaga", rated)
    text = await top_screen(store, ChatRef("tg", "-9"), ("global", "tyaga"), translator(lang))
    assert "1. Anna 24,0" in text.plain_text()
    assert "24.0" not in text.plain_text()


async def test_a_finished_match_in_a_russian_chat_writes_ratings_with_commas(
    store: Store,
) -> None:
    table = make_table(store)
    await table.command(ANNA, "lang", "chat", "ru", admin=True)
    await table.start_match("tyaga", [ANNA, BORIS], "target=15", computers=1)
    await table.play_out([ANNA, BORIS], random.Random(3))
    finals = [
        o.screen.plain_text()
        for out in table.log
        for o in out
        if isinstance(o, Show) and o.slot.kind is SlotKind.TABLE and "Рейтинг:" in str(o.screen)
    ]
    assert finals, "no final table with the ratings"
    changes = finals[-1].split("Рейтинг:")[1]
    assert re.search(r"Anna \d+,\d → -?\d+,\d", changes), changes
    assert not re.search(r"\d\.\d", changes)

    await table.command(ANNA, "lang", "ru")  # her stats speak her own language
    stats = await table.send(Command(table.chat, ANNA, "stats"))
    said = "\n".join(o.screen.plain_text() for o in stats if isinstance(o, Response))
    assert re.search(r"\d,\d", said) and not re.search(r"\d\.\d", said), said
