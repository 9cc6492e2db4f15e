"""A game that has lost one of its keys, as an evicting Redis (``allkeys-lru`` and the
like, under ``maxmemory``) leaves it: its head without its moves or its deals, or those
without their head. It is moved aside with what is left of it, and the chat is free at
once: a press is answered, ``/new`` opens a table, nothing says "something went wrong"."""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Callable

import pytest
import redis.asyncio as aredis

from bot.model.contract import Answer, ChatRef, Command
from bot.storage import keys
from bot.storage.store import Store
from bot.storage.values import PartsMissing
from bot.table.sessions import Sessions
from tests.bot.driver import SETTINGS, Table, info_text, make_table
from tests.bot.test_store_press import ANNA, BORIS, a_move, in_play

CHAT = ChatRef("tg", "-100555")
PARTS: dict[str, Callable[[ChatRef], str]] = {
    "moves": keys.moves,
    "deals": keys.deals,
    "head": keys.game,
}


async def _broken(table: Table, redis_client: aredis.Redis, part: str) -> tuple[str, int, int]:
    """A match some moves in, with one of its keys deleted: its id, moves and deals."""
    doc = await in_play(table, 4, random.Random(3))
    assert await redis_client.delete(PARTS[part](CHAT)) == 1
    return doc.id, len(doc.moves), len(doc.deals)


async def _set_aside_with_what_is_left(
    redis_client: aredis.Redis, part: str, game_id: str, moves: int, deals: int
) -> None:
    aside = keys.set_aside(CHAT, "" if part == "head" else game_id)
    kept = json.loads(await redis_client.get(aside) or "{}")
    assert len(kept["moves"]) == (0 if part == "moves" else moves)
    assert len(kept["deals"]) == (0 if part == "deals" else deals)
    assert ("head" in kept) == (part != "head")
    assert await redis_client.ttl(aside) > 0


@pytest.mark.parametrize("part", PARTS)
@pytest.mark.parametrize("process", ["the one that holds the game", "another"])
async def test_a_press_on_a_game_that_lost_a_part_is_answered_and_frees_the_chat(
    store: Store,
    redis_client: aredis.Redis,
    caplog: pytest.LogCaptureFixture,
    part: str,
    process: str,
) -> None:
    table = make_table(store, CHAT)
    game_id, moves, deals = await _broken(table, redis_client, part)
    sessions = table.sessions if process.startswith("the one") else Sessions(store, SETTINGS)
    person, payload = await a_move(table)
    with caplog.at_level(logging.ERROR, logger="bot.table.runner"):
        out = await table.press(person, payload, sessions=sessions)
    assert [o for o in out if isinstance(o, Answer)] == [
        Answer("That button is from a finished game.")
    ]
    await _set_aside_with_what_is_left(redis_client, part, game_id, moves, deals)
    assert not await redis_client.exists(keys.game(CHAT), keys.moves(CHAT), keys.deals(CHAT))
    [logged] = [r.getMessage() for r in caplog.records]
    assert "gone" in logged and CHAT.key in logged
    opened = await table.send(Command(CHAT, ANNA, "new", ("kozel",)), sessions)
    assert "went wrong" not in info_text(opened)
    fresh = await table.doc()
    assert fresh is not None and fresh.variant == "kozel" and fresh.id != game_id


@pytest.mark.parametrize("part", PARTS)
async def test_a_new_table_opens_at_once_where_a_game_lost_a_part(
    store: Store, redis_client: aredis.Redis, part: str
) -> None:
    table = make_table(store, CHAT)
    game_id, moves, deals = await _broken(table, redis_client, part)
    out = await table.command(BORIS, "new", "kozel")
    assert "went wrong" not in info_text(out)
    fresh = await table.doc()
    assert fresh is not None and fresh.variant == "kozel" and fresh.seats[0].user == BORIS
    await _set_aside_with_what_is_left(redis_client, part, game_id, moves, deals)


@pytest.mark.parametrize("part", ["moves", "deals"])
async def test_a_game_that_lost_a_part_is_not_exported_as_if_it_were_whole(
    store: Store, redis_client: aredis.Redis, part: str
) -> None:
    table = make_table(store, CHAT)
    await _broken(table, redis_client, part)
    with pytest.raises(PartsMissing, match=f"of its [0-9]+ {part} left"):
        await store.load(CHAT)


async def test_a_game_whose_deal_snapshot_is_gone_plays_on_from_its_moves(
    store: Store, redis_client: aredis.Redis
) -> None:
    # The snapshot is a shortcut kept in the head's own hash: a game replays without it.
    table = make_table(store, CHAT)
    doc = await in_play(table, 4, random.Random(3))
    assert await redis_client.hdel(keys.game(CHAT), "snap") == 1
    person, payload = await a_move(table)
    out = await table.press(person, payload, sessions=Sessions(store, SETTINGS))
    assert out[0] == Answer("")
    after = await table.doc()
    assert after is not None and after.id == doc.id and len(after.moves) == len(doc.moves) + 1
    assert not await redis_client.keys(keys.set_aside(CHAT, "*"))
