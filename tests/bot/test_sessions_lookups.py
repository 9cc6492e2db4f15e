"""Lookups: help, rules, scores, stats, languages and export."""

from __future__ import annotations

import json
import random

import pytest

from bot.model import codec
from bot.model.contract import Answer, ChatRef, Command, CommandRef, Document, UserRef
from bot.storage.store import MatchRow, Store
from bot.table.lookups import rules_screen
from bot.views.catalog import COMMAND_NAMES
from bot.views.i18n import available_languages, translator
from engine import DOUBLE_SIX, parse_move
from tests.bot.driver import (
    Table,
    button,
    deal,
    info_text,
    make_table,
    responses,
    scripted,
    user,
)
from tests.bot.stored import count_match

ANNA, BORIS = user(1, "Anna"), user(2, "Boris")


async def test_help_lists_every_command_as_a_command_the_adapter_writes(
    fake_store: Store,
) -> None:
    table = make_table(fake_store)
    [help_shown] = responses(await table.command(ANNA, "help"))
    named = [s.name for line in help_shown.screen.lines for s in line if isinstance(s, CommandRef)]
    # Then the privacy note names the commands that show and delete a player's data.
    assert named == [*COMMAND_NAMES, "mydata", "forget"]


async def test_rules_summarise_the_named_game(fake_store: Store) -> None:
    table = make_table(fake_store)
    text = info_text(await table.command(ANNA, "rules", "goat"))
    assert text.startswith("Kozel (the goat)")
    assert "101 is the goat" in text and "double_move" in text


@pytest.mark.parametrize("lang", available_languages())
def test_rules_say_the_options_choices_in_words_not_by_their_codes(lang: str) -> None:
    text = rules_screen(translator(lang), ("tyaga",), None).plain_text()
    assert "no_double" in text  # the names to type are given
    assert "highest_double" not in text and "double_six" not in text


async def test_rules_without_a_name_describe_the_chats_game(fake_store: Store) -> None:
    table = make_table(fake_store)
    await table.command(ANNA, "new", "three_guns")
    assert info_text(await table.command(ANNA, "rules")).startswith("Three Guns")


async def test_rules_of_an_unknown_game_name_the_known_ones(fake_store: Store) -> None:
    table = make_table(fake_store)
    assert "There is no game called go" in info_text(await table.command(ANNA, "rules", "go"))


async def test_every_game_has_a_summary(fake_store: Store) -> None:
    table = make_table(fake_store)
    for name in ("tyaga", "kozel", "baghdad", "three_guns"):
        text = info_text(await table.command(ANNA, "rules", name))
        assert len(text.splitlines()) > 4


async def test_scores_show_the_top_and_the_askers_own_row(fake_store: Store) -> None:
    table = make_table(fake_store)
    players = [user(10 + n, f"P{n}") for n in range(12)]
    for n, person in enumerate(players):
        rows = [MatchRow(person, True, 10)] * (12 - n)
        for m, row in enumerate(rows):
            await count_match(fake_store, table.chat, f"m{n}-{m}", "tyaga", [row])
    text = info_text(await table.command(players[-1], "scores", "tyaga"))
    lines = text.splitlines()
    assert lines[0] == "Scoreboard: Tyaga (Draw)"
    assert lines[1] == "1. \u2068P0\u2069: won 12 of 12 (100%), 120 points"
    assert lines[-1] == "12. \u2068P11\u2069: won 1 of 1 (100%), 10 points"
    assert len(lines) == 1 + 10 + 2


async def test_stats_of_another_player_by_mention_or_name(fake_store: Store) -> None:
    table = make_table(fake_store)
    await count_match(fake_store, table.chat, "a", "three_guns", [MatchRow(BORIS, True, 4)])
    for asked in ("@Boris", "boris"):
        text = info_text(await table.command(ANNA, "stats", asked))
        assert "Results of \u2068Boris\u2069 in every chat:" in text
        assert "Three Guns: won 1 of 1 (100%), 4 tokens" in text
    unknown = info_text(await table.command(ANNA, "stats", "@Clara"))
    assert unknown == "Nobody called \u2068Clara\u2069 has finished a match here."
    elsewhere = make_table(fake_store, ChatRef("tg", "-9"))
    said = info_text(await elsewhere.command(ANNA, "stats", "@Boris"))
    # This chat's players only.
    assert said == "Nobody called \u2068Boris\u2069 has finished a match here."
    await count_match(fake_store, table.chat, "b", "tyaga", [MatchRow(user(3, "Boris"), True, 9)])
    twice = info_text(await table.command(ANNA, "stats", "@Boris"))
    assert twice == "Several players here are called \u2068Boris\u2069."


async def test_stats_show_the_asker_across_chats(fake_store: Store) -> None:
    table = make_table(fake_store)
    await count_match(fake_store, table.chat, "a", "kozel", [MatchRow(ANNA, False, 1)])
    other = make_table(fake_store, ChatRef("tg", "-9"))
    await count_match(fake_store, other.chat, "b", "kozel", [MatchRow(ANNA, True, 0)])
    text = info_text(await table.command(ANNA, "stats"))
    assert "Kozel (the goat): won 1 of 2 (50%), the goat 1 time" in text


async def test_lang_lists_the_catalogs_and_refuses_an_unknown_one(fake_store: Store) -> None:
    table = make_table(fake_store)
    assert "Available: en" in info_text(await table.command(ANNA, "lang"))
    assert "There is no xx translation" in info_text(await table.command(ANNA, "lang", "xx"))
    assert "Your language is now en." in info_text(await table.command(ANNA, "lang", "en"))
    assert await fake_store.user_lang(ANNA) == "en"


async def test_the_chat_language_is_set_by_an_admin(fake_store: Store) -> None:
    table = make_table(fake_store)
    out = await table.command(ANNA, "lang", "chat", "en")
    assert "Only a chat admin" in info_text(out)
    out = await table.command(ANNA, "lang", "chat", "en", admin=True)
    assert (await fake_store.chat_settings(table.chat))["lang"] == "en"


async def test_each_lookup_is_answered_by_its_own_reply_to_the_command(
    fake_store: Store,
) -> None:
    table = make_table(fake_store)
    first = await table.send(Command(table.chat, ANNA, "help", message_id="41"))
    second = await table.send(Command(table.chat, BORIS, "rules", ("tyaga",), message_id="42"))
    assert [(r.reply_to, r.topic) for r in responses(first)] == [("41", "help")]
    assert [(r.reply_to, r.topic) for r in responses(second)] == [("42", "rules")]
    assert "Tyaga" in responses(second)[0].screen.plain_text()


async def test_export_without_a_game_says_there_is_none(fake_store: Store) -> None:
    table = make_table(fake_store)
    assert "There is no game to export yet." in info_text(await table.command(ANNA, "export"))


async def test_export_of_a_running_game_stops_before_the_deal_in_play(fake_store: Store) -> None:
    table = make_table(fake_store)
    short = deal(DOUBLE_SIX, "6-6 6-5 5-5", "6-4 4-4 4-3", leader=0)
    await scripted(table, "tyaga", [ANNA, BORIS], short, options={"hand_size": 3})
    table.game_id = "scripted"
    out = await table.command(ANNA, "export")
    assert "Nothing to export until the first deal is over." in info_text(out)
    for who, tile in [(ANNA, "6-6"), (BORIS, "6-4@L"), (ANNA, "6-5@R"), (BORIS, "4-4@L")]:
        doc = await table.doc()
        assert doc is not None
        await _press_move(table, who, tile)
    await _press_move(table, ANNA, "5-5@R")
    await table.press(ANNA, button(table.table(), "Next deal").payload)
    out = await table.command(ANNA, "export")
    document = next(o for o in out if isinstance(o, Document))
    replay = json.loads(document.data)
    assert len(replay["deals"]) == 1
    assert [m[1] for m in replay["moves"]] == ["6-6", "6-4@L", "6-5@R", "4-4@L", "5-5@R"]
    assert replay["options"]["hand_size"] == 3 and replay["players"] == 2


async def test_someone_alone_against_computers_does_not_export_the_deal_in_play(
    fake_store: Store,
) -> None:
    """The computers' hands and the boneyard are hidden from their one human opponent
    too: he could otherwise read them in the file and play against open cards."""
    table = make_table(fake_store)
    await table.start_match("tyaga", [ANNA], computers=1)
    doc = await table.doc()
    assert doc is not None and len(doc.deals) == 1
    for who in (ANNA, BORIS):
        out = await table.command(who, "export")
        assert "Nothing to export until the first deal is over." in info_text(out)
        assert not [o for o in out if isinstance(o, Document)]


async def test_export_after_a_match_writes_every_deal(fake_store: Store) -> None:
    table = make_table(fake_store)
    await table.start_match("baghdad", [ANNA, BORIS], "match=deals:2")
    await table.play_out([ANNA, BORIS], random.Random(2))
    document = next(o for o in await table.command(ANNA, "export") if isinstance(o, Document))
    assert len(json.loads(document.data)["deals"]) == 2
    assert document.filename.endswith(".json")


async def _press_move(table: Table, who: UserRef, text: str) -> None:
    state = await table.state()
    assert state is not None
    payload = codec.move_payload("scripted", state.counter, parse_move(text))
    out = await table.press(who, payload)
    assert out[0] == Answer(""), out[0]


async def test_scores_of_different_games_are_never_added_together(fake_store: Store) -> None:
    table = make_table(fake_store)
    await count_match(fake_store, table.chat, "a", "kozel", [MatchRow(ANNA, False, 2)])
    await count_match(fake_store, table.chat, "b", "baghdad", [MatchRow(ANNA, True, 31)])
    await count_match(fake_store, table.chat, "c", "three_guns", [MatchRow(ANNA, True, 4)])
    lines = info_text(await table.command(ANNA, "scores")).splitlines()
    assert lines == [
        "Scoreboard: Thief of Baghdad",
        "1. \u2068Anna\u2069: won 1 of 1 (100%), 31 points",
        "Scoreboard: Kozel (the goat)",
        "1. \u2068Anna\u2069: won 0 of 1 (0%), the goat 2 times",
        "Scoreboard: Three Guns",
        "1. \u2068Anna\u2069: won 1 of 1 (100%), 4 tokens",
    ]


async def test_each_game_s_figures_are_said_in_every_language(fake_store: Store) -> None:
    table = make_table(fake_store)
    await count_match(fake_store, table.chat, "a", "kozel", [MatchRow(ANNA, False, 2)])
    await count_match(fake_store, table.chat, "b", "three_guns", [MatchRow(ANNA, True, 5)])
    seen = {}
    for lang in ("ru", "uk", "pl", "ca"):
        await table.command(ANNA, "lang", lang)
        seen[lang] = info_text(await table.command(ANNA, "scores")).splitlines()
    assert seen["ru"][1].endswith("козёл 2 раза") and seen["ru"][3].endswith("5 жетонов")
    assert seen["uk"][1].endswith("козел 2 рази")
    assert seen["pl"][1].endswith("kozioł 2 razy")
    assert seen["ca"][1].endswith("la cabra 2 vegades")
