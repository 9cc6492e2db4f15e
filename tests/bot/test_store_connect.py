"""The store's client uses redis-py's own connection for every kind of URL, in a pool that
makes a burst of callers wait, and a game stored over it reads back whole."""

from __future__ import annotations

import asyncio
import contextlib

import pytest
import redis.asyncio as aredis

from bot.model.contract import ChatRef
from bot.storage.store import Store, Stored, connect
from tests.bot.stored import end_game, write


@pytest.mark.parametrize(
    ("url", "kind"),
    [
        ("redis://127.0.0.1:6379/0", aredis.Connection),
        ("unix:///tmp/redis.sock", aredis.UnixDomainSocketConnection),
        ("rediss://127.0.0.1:6380/0", aredis.SSLConnection),
    ],
)
def test_every_kind_of_connection_is_redis_pys_own(url: str, kind: type[aredis.Connection]) -> None:
    pool = connect(url).connection_pool
    assert isinstance(pool, aredis.BlockingConnectionPool)
    connection = pool.make_connection()  # not connected: its class needs no server
    assert type(connection) is kind


async def test_a_game_stored_over_the_packed_client_reads_back_whole(redis_url: str) -> None:
    store = Store(connect(redis_url))
    chat = ChatRef("tg", "-4242")
    game = {"id": "g1", "names": ["Анна", "Józef", "Núria"], "score": 1.5}
    try:
        assert await write(store, chat, game)
        stored = await store.load(chat)
        assert stored is not None and stored.version == 1
        assert {k: stored.doc[k] for k in game} == game
    finally:
        await end_game(store, chat, Stored(game, 1), keep_last=False)
        await store.close()


async def test_a_loop_over_the_store_stops_whenever_it_is_cancelled(redis_url: str) -> None:
    """A cancellation that comes while a command is being written is raised, not lost:
    each of many loops, cancelled a little later each time, ends."""
    store = Store(connect(redis_url))
    chat = ChatRef("tg", "-4243")

    async def read_forever() -> None:
        while True:
            await store.load(chat)

    try:
        went_on = 0
        for step in range(200):
            loop = asyncio.create_task(read_forever())
            await asyncio.sleep(step * 0.00005)
            loop.cancel()
            done, _ = await asyncio.wait({loop}, timeout=1.0)
            if not done:
                went_on += 1
                while not loop.done():  # a loop that went on is stopped before the next
                    loop.cancel()
                    await asyncio.wait({loop}, timeout=0.1)
            with contextlib.suppress(asyncio.CancelledError):
                await loop
        assert went_on == 0, f"{went_on} of 200 cancelled loops went on"
    finally:
        await store.close()
