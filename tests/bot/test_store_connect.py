"""The store's client uses redis-py's own connection for every kind of URL, in a pool that
makes a burst of callers wait, and a game stored over it reads back whole."""

from __future__ import annotations

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
