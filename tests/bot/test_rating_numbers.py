"""Ratings are written as the chat's language writes numbers: a decimal comma in
Russian, Ukrainian, Polish and Catalan, a point in English, on the final table, the
leaderboard and a player's stats."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest

from bot.model.contract import ChatRef, Command, Response, Show, SlotKind
from bot.model.ratings import PROVISIONAL, Rating
from bot.storage.store import Store
from bot.table.rating_lookups import top_screen
from bot.table.rating_step import RatedMatch, change_lines
from bot.views.i18n import translator
from tests.bot.driver import make_table, user

ANNA, BORIS = user(1, "Anna"), user(2, "Boris")
COMMA = ["ru", "uk", "pl", "ca"]
SAID = ("\u2068Anna\u2069", "\u2068Boris\u2069", "\u2068Chen\u2069")  # as a text names them


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
    assert "1. \u2068Anna\u2069 24,0" in text.plain_text()
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
    assert re.search(r"\u2068Anna\u2069 [+-]\d+,\d \(теперь -?\d+,\d\)", changes), changes
    assert not re.search(r"\d\.\d", changes)

    await table.command(ANNA, "lang", "ru")  # her stats speak her own language
    stats = await table.send(Command(table.chat, ANNA, "stats"))
    said = "\n".join(o.screen.plain_text() for o in stats if isinstance(o, Response))
    assert re.search(r"\d,\d", said) and not re.search(r"\d\.\d", said), said


NEWCOMER = Rating("Boris")  # shown as 0.0: no match yet


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "en",
            f"Ratings: {SAID[0]} +1.3 (now 25.3), "
            f"{SAID[1]} -1.1 (now -1.1), {SAID[2]} +0.0 (now 20.0)",
        ),
        (
            "ru",
            f"Рейтинг: {SAID[0]} +1,3 (теперь 25,3), "
            f"{SAID[1]} -1,1 (теперь -1,1), {SAID[2]} +0,0 (теперь 20,0)",
        ),
        (
            "uk",
            f"Рейтинг: {SAID[0]} +1,3 (тепер 25,3), "
            f"{SAID[1]} -1,1 (тепер -1,1), {SAID[2]} +0,0 (тепер 20,0)",
        ),
        (
            "pl",
            f"Ranking: {SAID[0]} +1,3 (teraz 25,3), "
            f"{SAID[1]} -1,1 (teraz -1,1), {SAID[2]} +0,0 (teraz 20,0)",
        ),
        (
            "ca",
            f"Puntuacions: {SAID[0]} +1,3 (ara 25,3), "
            f"{SAID[1]} -1,1 (ara -1,1), {SAID[2]} +0,0 (ara 20,0)",
        ),
    ],
)
def test_a_matchs_rating_changes_lead_with_the_change_and_say_where_it_leaves_each(
    lang: str, said: str
) -> None:
    """A newcomer's first loss reads as a loss (-1.1), not as a fall from 0.0 to below it;
    a change too small to show reads +0.0; computers are not listed."""
    anna, chen = Rating("Anna", 30.0, 2.0), Rating("Chen", 26.0, 2.0)  # 24.0 and 20.0
    rated = RatedMatch(
        "m1",
        "tyaga",
        {},
        (),
        before={"tg:1": anna, "tg:2": NEWCOMER, "tg:3": chen, "cpu:greedy": NEWCOMER},
        after={
            "tg:1": replace(anna, mu=31.3),
            "tg:2": replace(NEWCOMER, mu=NEWCOMER.mu - 1.1),
            "tg:3": replace(chen, mu=26.0 - 0.04),
            "cpu:greedy": replace(NEWCOMER, mu=30.0),
        },
    )
    assert change_lines(translator(lang), rated) == [said]
