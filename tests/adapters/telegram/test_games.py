"""Whole matches of every game, played by fake people through the real bot and the real
core, against the fake Bot API and a real Redis."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakewire import EDIT_NOT_FOUND
from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.grouplife import migrate, remove_bot
from tests.adapters.telegram.groupscan import visible_text
from tests.adapters.telegram.players import data_with, labelled, tile_of, tiles_in
from tests.adapters.telegram.tables import (
    ADD_COMPUTER,
    FORUM_ID,
    GROUP_ID,
    MY_TILES,
    assert_match_over,
    assert_platform_rules_kept,
    assert_scoreboard_counts_the_match,
    open_table,
    start,
    started_table,
    writes,
)

pytestmark = pytest.mark.slow
SECOND_ID = -100700
TABLE_ID = re.compile(r"table ([0-9a-z]{8})")
PRIVATE_HEADING = re.compile(r" in (.+) · table ([0-9a-z]{8})")
FLOOD = "Too Many Requests: retry after 5"


async def test_a_whole_kozel_match_with_a_player_who_never_opened_the_bot(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob, cy = people["ann"], people["bob"], people["cy"]
    d = make_driver()
    game_id = await started_table(d, ann, "/newgame kozel target=11", bob, cy)
    assert await d.hand(cy, game_id) is None
    offer = d.link_offered_to(cy)
    assert offer is not None, "the group was not offered a link for Cy"
    await d.open_from_deep_link(cy, offer)
    assert await d.hand(cy, game_id) is not None, "the deep link did not bring Cy his hand"
    assert not [m for m in fake.bot_messages(cy.id) if "Commands:" in m["text"]], "help sent"
    played = await d.play_match(random.Random(1))
    assert_match_over(fake, played)
    assert_platform_rules_kept(fake, people)
    assert d.checks >= played.moves
    await assert_scoreboard_counts_the_match(d, ann, [ann, bob, cy])


async def test_a_whole_tyaga_match_in_a_forum_topic(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob = people["ann"], people["bob"]
    d = make_driver(FORUM_ID, thread=9)
    await started_table(d, ann, "/newgame tyaga target=10", bob)
    played = await d.play_match(random.Random(2))
    assert_match_over(fake, played, FORUM_ID)
    assert_platform_rules_kept(fake, people)
    await assert_scoreboard_counts_the_match(d, bob, [ann, bob])
    in_topic = fake.bot_messages(FORUM_ID, thread=9)
    assert len(in_topic) == len(fake.bot_messages(FORUM_ID)), "a message left the topic"


async def test_a_whole_thief_of_baghdad_match(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob = people["ann"], people["bob"]
    d = make_driver()
    await started_table(d, ann, "/newgame baghdad match=deals:2", bob)
    played = await d.play_match(random.Random(3))
    assert_match_over(fake, played)
    assert_platform_rules_kept(fake, people)
    assert played.deals == 1  # two deals: one "Next deal" between them
    await assert_scoreboard_counts_the_match(d, ann, [ann, bob])


async def test_a_whole_three_guns_match_with_a_computer(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob = people["ann"], people["bob"]
    d = make_driver()
    d.seat(ann, bob)
    game_id = await open_table(d, ann, "/newgame three_guns", bob)
    lobby = await d.table(game_id)
    await d.press(ann, lobby, data_with(lobby, ADD_COMPUTER)[0])
    await start(d, ann, game_id)
    played = await d.play_match(random.Random(4))
    assert_match_over(fake, played)
    assert_platform_rules_kept(fake, people)
    assert d.checks > 0
    await assert_scoreboard_counts_the_match(d, bob, [ann, bob])


async def test_my_tiles_shows_the_pressers_own_hand_only_to_him(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob = people["ann"], people["bob"]
    d = make_driver()
    game_id = await started_table(d, ann, "/newgame tyaga", bob)
    table = await d.table(game_id)
    answer = await d.press(bob, table, data_with(table, MY_TILES)[0])
    game = await d.game()
    assert game is not None and game.state is not None
    (bob_seat,) = [n for n, s in enumerate(game.doc.seats) if s.user and s.user.user_id == "102"]
    held = {tile_of(str(tile)) for tile in game.state.hands[bob_seat]}
    assert answer["show_alert"] is True
    assert tiles_in(answer["text"]) == held


async def test_a_group_that_becomes_a_supergroup_keeps_its_table(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob = people["ann"], people["bob"]
    fake.add_group(-500, "Basic", kind="group")
    old = make_driver(-500)
    game_id = await open_table(old, ann, "/newgame tyaga")
    migrate(fake, ann, -500, -100501)
    await old.bot.drain()
    new = make_driver(-100501)
    await new.say(bob, "/join")
    game = await new.game()
    assert game is not None and game.doc.id == game_id
    assert game.doc.chat.key == "tg:-100501"
    assert [s.user.name if s.user else None for s in game.doc.seats] == ["Ann", "Bob"]
    (table,) = [m for m in fake.bot_messages(-100501) if game_id in m.get("text", "")]
    assert "2. \u2068Bob\u2069" in table["text"]
    assert [c for c in fake.calls if c.status >= 400 and c.chat_id == -100501] == []


async def test_a_match_survives_flood_waits_a_deleted_table_and_a_blocked_player(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob = people["ann"], people["bob"]
    d = make_driver()
    game_id = await started_table(d, ann, "/newgame tyaga target=10", bob)
    table = await d.table(game_id)
    fake.remove_message(GROUP_ID, table["message_id"])  # an admin deleted the table
    fake.inject("editMessageText", 429, FLOOD, retry_after=5)
    fake.blocked.add(bob.id)
    await d.play_match(random.Random(5), until=lambda: d.link_offered_to(bob) is not None)
    assert (await d.table(game_id))["message_id"] != table["message_id"], "table not sent again"
    offer = d.link_offered_to(bob)
    assert offer is not None
    await d.open_from_deep_link(bob, offer)
    played = await d.play_match(random.Random(6))
    assert_match_over(fake, played)
    assert_platform_rules_kept(fake, people, caused=(FLOOD, EDIT_NOT_FOUND))
    assert [c.error for c in fake.calls if c.status == 429] == [FLOOD]


async def test_newgame_without_a_game_offers_a_button_for_each(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob = people["ann"], people["bob"]
    d = make_driver()
    await d.say(ann, "/newgame")
    (reply,) = fake.bot_messages(GROUP_ID)
    await d.press(bob, reply, labelled(reply, "Thief of Baghdad")["callback_data"])
    game = await d.game()
    assert game is not None and game.doc.variant == "baghdad"
    assert game.doc.seats[0].user is not None and game.doc.seats[0].user.name == "Bob"


async def test_removing_the_bot_from_a_group_stops_its_game(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob = people["ann"], people["bob"]
    d = make_driver()
    game_id = await open_table(d, ann, "/newgame tyaga", bob)
    await start(d, ann, game_id)
    remove_bot(fake, ann, GROUP_ID)
    await d.bot.drain()
    game = await d.game()
    assert game is None or game.doc.id != game_id or not game.doc.active


async def test_two_groups_playing_at_once_each_see_only_their_own_game(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob = people["ann"], people["bob"]
    dee = fake.add_user(104, "Dee")
    fake.started.add(dee.id)
    fake.add_group(SECOND_ID, "Backroom")
    here, there = make_driver(), make_driver(SECOND_ID)
    here.seat(ann, bob)
    there.seat(ann, dee)  # Ann plays at both tables
    games = {
        GROUP_ID: await open_table(here, ann, "/newgame tyaga target=10", bob),
        SECOND_ID: await open_table(there, dee, "/newgame kozel target=11", ann),
    }
    await start(here, ann, games[GROUP_ID])
    await start(there, dee, games[SECOND_ID])
    played = {GROUP_ID: await here.begin(), SECOND_ID: await there.begin()}
    rngs = {GROUP_ID: random.Random(8), SECOND_ID: random.Random(9)}
    playing = [here, there]
    for d in playing:
        d.hurry = True  # neither group waits for the other's screens
    steps = 0
    while playing:  # one step at each table in turn
        steps += 1
        assert steps < 5000, "the matches did not end"
        for d in list(playing):
            if await d.step(played[d.chat_id], rngs[d.chat_id]):
                playing.remove(d)
    for d in (here, there):
        await d.finish()
        assert_match_over(fake, played[d.chat_id], d.chat_id)
        assert tables_named(fake, d.chat_id) == {games[d.chat_id]}, "another game's table"
    assert "Dee" not in names_written(fake, GROUP_ID)
    assert "Bob" not in names_written(fake, SECOND_ID)
    assert hands_named(fake, ann.id) == {
        (games[GROUP_ID], "Dominoes"),
        (games[SECOND_ID], "Backroom"),
    }, "a hand named the wrong group"
    assert_platform_rules_kept(fake, {**people, "dee": dee})
    await assert_scoreboard_counts_the_match(here, ann, [ann, bob])
    await assert_scoreboard_counts_the_match(there, dee, [ann, dee])


def texts_written(fake: FakeBotApi, chat_id: int) -> list[str]:
    """The visible text of every message and edit the bot wrote to a chat."""
    return [visible_text(c) for c in writes(fake, chat_id)]


def tables_named(fake: FakeBotApi, chat_id: int) -> set[str]:
    return {m.group(1) for t in texts_written(fake, chat_id) for m in TABLE_ID.finditer(t)}


def names_written(fake: FakeBotApi, chat_id: int) -> str:
    return "\n".join(texts_written(fake, chat_id))


def hands_named(fake: FakeBotApi, user_id: int) -> set[tuple[str, str]]:
    """(table, group) as the headings of a user's private screens name them."""
    return {
        (m.group(2), m.group(1))
        for t in texts_written(fake, user_id)
        for m in PRIVATE_HEADING.finditer(t)
    }
