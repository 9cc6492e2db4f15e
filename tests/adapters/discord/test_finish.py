"""A finished match on Discord ends with choices: the final table names the winner
and carries Rematch, which seats the same players again with the same options for
the host to start, and Scores, which shows the channel's scoreboard to the presser."""

from __future__ import annotations

import pytest
import redis.asyncio as aredis

from bot.model import codec
from bot.model.game_state import build_state
from bot.model.gamedoc import from_json
from bot.storage.store import Store
from tests.adapters.discord.conftest import ALICE, BOB
from tests.adapters.discord.fake_api import EPHEMERAL, FakeDiscord, Json
from tests.adapters.discord.harness import CHANNEL_ID, Bot, buttons_of
from tests.adapters.discord.matches import (
    CHAT,
    Referee,
    a_match_played,
    custom_id_for,
    open_table,
    plain_text,
    play_to_the_end,
    table_message,
)


def final_table(fake: FakeDiscord) -> Json:
    found = [
        m
        for m in fake.live_channel_messages(CHANNEL_ID)
        if custom_id_for(m, codec.RematchPress) is not None
    ]
    assert len(found) == 1, "no single finished table with a Rematch button"
    return found[0]


@pytest.mark.slow
async def test_rematch_seats_the_same_players_with_the_same_options_for_the_host(
    bot: Bot, fake: FakeDiscord, redis_client: aredis.Redis
) -> None:
    store = Store(redis_client)
    await open_table(bot, "kozel", 0, target=11)
    await play_to_the_end(bot, Referee(bot, store))
    finished = await store.last_game(CHAT)
    assert finished is not None
    table = final_table(fake)
    old = from_json(finished)
    winners = [old.seats[seat].user for seat in build_state(old).winners]
    said = plain_text(table).split("The match is over", 1)
    assert len(said) == 2 and winners
    assert all(user is not None and user.name in said[1] for user in winners)
    assert {b.get("label") for b in buttons_of(table)} >= {"Rematch", "Scores"}

    rematch = custom_id_for(table, codec.RematchPress)
    assert rematch is not None
    await bot.press(BOB, table, rematch)
    stored = await store.load(CHAT)
    assert stored is not None
    lobby = from_json(stored.doc)
    assert lobby.status == "lobby" and lobby.id != finished["id"]
    assert [s.user.user_id for s in lobby.seats if s.user] == [
        s.user.user_id for s in old.seats if s.user
    ]
    assert lobby.options == old.options and lobby.host == old.host == f"dc:{ALICE.id}"
    shown = table_message(bot)
    assert "Alice" in plain_text(shown) and "Bob" in plain_text(shown)

    start = custom_id_for(shown, codec.LobbyPress, action="start")
    assert start is not None
    await bot.press(ALICE, shown, start)
    running = await store.load(CHAT)
    assert running is not None and from_json(running.doc).status == "running"


@pytest.mark.slow
async def test_scores_on_the_finished_table_show_the_scoreboard_to_the_whole_channel(
    bot: Bot, fake: FakeDiscord, redis_client: aredis.Redis
) -> None:
    await a_match_played(bot, redis_client, "tyaga", target=10)
    table = final_table(fake)
    scores = custom_id_for(table, codec.ScoresPick)
    assert scores is not None
    record = await bot.press(BOB, table, scores)
    reply = bot.reply_to(record)
    assert not reply["flags"] & EPHEMERAL
    assert reply in fake.live_channel_messages(CHANNEL_ID)
    text = plain_text(reply)
    assert "Alice" in text and "Bob" in text


@pytest.mark.slow
async def test_scores_answer_the_whole_channel_and_a_refusal_only_the_asker(
    bot: Bot, fake: FakeDiscord, redis_client: aredis.Redis
) -> None:
    await a_match_played(bot, redis_client, "tyaga", target=10)
    board = bot.reply_to(await bot.command(BOB, "scores", variant="tyaga"))
    assert not board["flags"] & EPHEMERAL
    assert board in fake.live_channel_messages(CHANNEL_ID)
    assert "Alice" in plain_text(board) and "Bob" in plain_text(board)
    refusal = bot.reply_to(await bot.command(BOB, "scores", variant="chess"))
    assert refusal["flags"] & EPHEMERAL
    assert "chess" in plain_text(refusal)
