"""The store's client packs commands with hiredis, for every kind of connection a URL
names, into the very bytes redis-py's own packer makes."""

from __future__ import annotations

from typing import Any

import hiredis
import pytest
import redis.asyncio as aredis

from bot.contract import ChatRef
from bot.store import Store, connect

ARGUMENTS: list[tuple[Any, ...]] = [
    ("EVALSHA", "0123abcd", 2, "game:{tg:-100}", "moves:{tg:-100}", "1m_g1_a_3-4l"),
    ("SET", "lang:tg:7", "Українська ✓", "EX", 86_400),
    ("ZADD", "due", 1_764_750_000.123456, "tg:-100", 0.1, b"raw bytes"),
    ("CLIENT SETNAME", "domino-bot"),
]


@pytest.mark.parametrize(
    ("url", "kind"),
    [
        ("redis://127.0.0.1:6379/0", aredis.Connection),
        ("unix:///tmp/redis.sock", aredis.UnixDomainSocketConnection),
        ("rediss://127.0.0.1:6380/0", aredis.SSLConnection),
    ],
)
def test_every_kind_of_connection_packs_with_hiredis_as_redis_py_would(
    url: str, kind: type[aredis.Connection], monkeypatch: pytest.MonkeyPatch
) -> None:
    packed_in_c = 0
    pack_in_c = hiredis.pack_command

    def counted(args: tuple[Any, ...]) -> bytes:
        nonlocal packed_in_c
        packed_in_c += 1
        return pack_in_c(args)

    monkeypatch.setattr(hiredis, "pack_command", counted)
    pool = connect(url).connection_pool
    connection = pool.make_connection()  # not connected: packing needs no server
    assert isinstance(connection, kind)
    for args in ARGUMENTS:
        in_python = b"".join(kind.pack_command(connection, *args))
        assert b"".join(connection.pack_command(*args)) == in_python
    assert packed_in_c == len(ARGUMENTS)


async def test_a_game_stored_over_the_packed_client_reads_back_whole(redis_url: str) -> None:
    store = Store(connect(redis_url))
    chat = ChatRef("tg", "-4242")
    game = {"id": "g1", "names": ["Анна", "Józef", "Núria"], "score": 1.5}
    try:
        assert await store.save(chat, game, 0)
        stored = await store.load(chat)
        assert stored is not None and stored.version == 1
        assert {k: stored.doc[k] for k in game} == game
    finally:
        await store.clear(chat, 1, keep_last=False)
        await store.close()
