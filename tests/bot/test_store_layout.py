"""A game kept in a layout the code does not read, such as one JSON document holding its
moves and deals in the game's hash with no id or counts beside it: it is moved aside like
any game that cannot be read, and the chat is free at once (a press is answered, ``/new``
opens a table and its buttons work)."""

from __future__ import annotations

import json
import random

import pytest
import redis.asyncio as aredis

from bot.model import codec
from bot.model.contract import Answer, ChatRef, Command, UserRef
from bot.model.gamedoc import to_json
from bot.storage import keys
from bot.storage.store import Store
from bot.table.sessions import Sessions
from tests.bot.driver import SETTINGS, Table, info_text, make_table
from tests.bot.test_store_press import ANNA, BORIS, a_move, in_play

CHAT = ChatRef("tg", "-100444")


async def _one_document(table: Table, redis_client: aredis.Redis) -> tuple[str, UserRef, str]:
    """A match some moves in, stored again by hand as one document in the game's hash
    (``v`` and ``doc`` only): its id, and whose move it is with his move's button."""
    doc = await in_play(table, 4, random.Random(3))
    person, payload = await a_move(table)
    whole = json.dumps({**to_json(doc), "schema": 1})
    await redis_client.delete(keys.game(CHAT), keys.moves(CHAT), keys.deals(CHAT))
    await redis_client.hset(keys.game(CHAT), mapping={"v": 9, "doc": whole})
    return doc.id, person, payload


def _kept_whole(kept: dict[str, object], game_id: str) -> bool:
    head = json.loads(str(kept["head"]))
    return head["id"] == game_id and len(head["moves"]) >= 4 and not kept["moves"]


@pytest.mark.parametrize("process", ["the one that held the game", "another"])
async def test_a_game_in_a_layout_not_read_is_set_aside_and_the_chat_plays_on(
    store: Store, redis_client: aredis.Redis, process: str
) -> None:
    table = make_table(store, CHAT)
    game_id, person, payload = await _one_document(table, redis_client)
    sessions = table.sessions if process.startswith("the one") else Sessions(store, SETTINGS)
    out = await table.press(person, payload, sessions=sessions)
    assert [o for o in out if isinstance(o, Answer)] == [
        Answer("That button is from a finished game.")
    ]
    kept = json.loads(await redis_client.get(keys.set_aside(CHAT, game_id)) or "{}")
    assert _kept_whole(kept, game_id)
    assert not await redis_client.exists(keys.game(CHAT))
    opened = await table.send(Command(CHAT, ANNA, "new", ("kozel",)), sessions)
    assert "went wrong" not in info_text(opened) and "unavailable" not in info_text(opened)
    fresh = await table.doc()
    assert fresh is not None and fresh.variant == "kozel" and fresh.id != game_id
    joined = await table.press(BORIS, codec.lobby_payload(fresh.id, "join"), sessions=sessions)
    assert joined[0] == Answer("")
    after = await table.doc()
    assert after is not None and [s.user for s in after.seats] == [ANNA, BORIS]


async def test_a_new_table_opens_at_once_where_a_game_is_in_a_layout_not_read(
    store: Store, redis_client: aredis.Redis
) -> None:
    table = make_table(store, CHAT)
    game_id, _person, _payload = await _one_document(table, redis_client)
    fresh_process = Sessions(store, SETTINGS, clock=table.clock)
    out = await table.send(Command(CHAT, BORIS, "new", ("kozel",)), fresh_process)
    assert "already" not in info_text(out) and "went wrong" not in info_text(out)
    fresh = await table.doc()
    assert fresh is not None and fresh.variant == "kozel" and fresh.seats[0].user == BORIS
    kept = json.loads(await redis_client.get(keys.set_aside(CHAT, game_id)) or "{}")
    assert _kept_whole(kept, game_id)
