"""Every write of a game tells the chat's open web pages its new version, on the chat's
channel, from inside the write itself: a write that loses tells nothing, and a store that
was not asked to tell (no web table listens) publishes nothing."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import redis.asyncio as aredis

from bot.model.contract import ChatRef
from bot.storage import keys
from bot.storage.store import Store, Stored
from tests.bot.stored import end_game, write


def _chat() -> ChatRef:
    # Channels are shared by every database of a server: a chat of its own per test.
    return ChatRef("tg", f"-{uuid.uuid4().int % 10**12}")


async def _heard(redis_client: aredis.Redis, chat: ChatRef, act: Any) -> list[str]:
    """What the chat's channel carried while ``act`` ran."""
    info = await redis_client.info("server")
    sharded = int(str(info["redis_version"]).split(".")[0]) >= 7
    pubsub = redis_client.pubsub()
    if sharded:
        await pubsub.ssubscribe(keys.live(chat))
    else:
        await pubsub.subscribe(keys.live(chat))
    await pubsub.get_message(timeout=1.0)  # the subscription's confirmation
    await act()
    heard = []
    while (message := await pubsub.get_message(timeout=0.3)) is not None:
        heard.append(str(message["data"]))
    await pubsub.aclose()
    return heard


async def test_each_write_tells_the_new_version(store: Store, redis_client: aredis.Redis) -> None:
    chat = _chat()
    await store.tell_pages()

    async def act() -> None:
        assert await write(store, chat, {"id": "g1", "status": "lobby"})
        assert await write(store, chat, {"id": "g1", "status": "running"}, Stored({"id": "g1"}, 1))

    assert await _heard(redis_client, chat, act) == ["1", "2"]


async def test_a_write_that_loses_tells_nothing(store: Store, redis_client: aredis.Redis) -> None:
    chat = _chat()
    await store.tell_pages()
    await write(store, chat, {"id": "g1", "status": "lobby"})

    async def act() -> None:
        assert not await write(store, chat, {"id": "g2", "status": "lobby"})

    assert await _heard(redis_client, chat, act) == []


async def test_the_write_that_ends_a_game_tells_too(
    store: Store, redis_client: aredis.Redis
) -> None:
    chat = _chat()
    await store.tell_pages()
    await write(store, chat, {"id": "g1", "status": "running"})

    async def act() -> None:
        assert await end_game(store, chat, Stored({"id": "g1", "status": "running"}, 1))

    assert await _heard(redis_client, chat, act) == ["2"]


async def test_a_store_not_asked_to_tell_publishes_nothing(
    store: Store, redis_client: aredis.Redis
) -> None:
    chat = _chat()

    async def act() -> None:
        assert await write(store, chat, {"id": "g1", "status": "lobby"})
        await asyncio.sleep(0)

    assert await _heard(redis_client, chat, act) == []
