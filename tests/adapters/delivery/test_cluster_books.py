"""The delivery layer's books on a real Redis Cluster of three masters: the pending
screens and queued messages of chats in different slots, and what a process that is gone
held, taken over as on one server."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from redis.crc import key_slot

from adapters.delivery.liveness import Liveness
from adapters.delivery.outbox import RedisOutbox
from adapters.delivery.pending import RedisPendingBook
from adapters.delivery.slots import RedisSlotBook
from bot.model.contract import ChatRef, Response, Screen, Show, Slot, SlotKind
from bot.storage import keys
from bot.storage.store import connect
from tests.bot.test_store_cluster import running_cluster

pytestmark = pytest.mark.slow
CHATS = [ChatRef("tg", f"-100{n}") for n in range(8)]


@pytest.fixture(scope="module")
def cluster_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_cluster(tmp_path_factory.mktemp("cluster")) as (url, _servers):
        yield url


@pytest.fixture
async def client(cluster_url: str) -> AsyncIterator[Any]:
    redis = connect(cluster_url, cluster=True)
    yield redis
    await redis.aclose()


def table(chat: ChatRef, version: int) -> Show:
    return Show(Slot(SlotKind.TABLE, chat, "g1"), Screen((("t",),)), version)


async def test_screens_of_chats_in_different_slots_are_noted_and_struck_off(client: Any) -> None:
    assert len({key_slot(keys.pending_screens(chat).encode()) for chat in CHATS}) > 1
    book = RedisPendingBook(client, "tg")
    await book.note([table(chat, 3) for chat in CHATS])
    await book.note([table(chat, 2) for chat in CHATS])
    for chat in CHATS:
        assert await book.waiting(chat) == {table(chat, 0).slot.key: 3}
        await book.strike_off(table(chat, 3))
        assert await book.waiting(chat) == {}
    assert {c.key for c in await book.every_chat()} >= {c.key for c in CHATS}
    unnoted = [ChatRef("tg", f"-200{n}") for n in range(8)]  # games on every node
    for chat in unnoted:
        await client.hset(keys.game(chat), mapping={"v": 1, "id": "g1"})
    assert {c.key for c in await book.every_chat()} >= {c.key for c in unnoted}


async def test_what_a_process_gone_held_is_taken_over_on_a_cluster(client: Any) -> None:
    first, second = Liveness(client), Liveness(client)
    await first.start()
    await second.start()
    try:
        reply = Response(CHATS[0], Screen((("Scores",),)), "7", "scores")
        queued = RedisOutbox(client, "tg", first)
        await queued.note(CHATS[0], [(queued.name(1), reply)])
        slot = table(CHATS[1], 0).slot
        books = [
            RedisSlotBook(client, lambda chat: keys.slot_messages(ChatRef.from_key(chat)), p)
            for p in (first, second)
        ]
        assert (await books[0].claim(slot, 5, 1.0)).fresh
        assert (await books[1].claim(slot, 6, 2.0)).busy
        await first.stop()
        assert (await books[1].claim(slot, 6, 2.0)).fresh
        taken = await RedisOutbox(client, "tg", second).take_over(CHATS[0])
        assert [entry.message for entry in taken.entries] == [reply]
    finally:
        await first.stop()
        await second.stop()
