"""A Redis that is down: every store call raises StoreUnavailable and nothing is written."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.app.embedded_redis import EmbeddedRedis
from bot.model.contract import ChatRef, UserRef
from bot.storage.store import Ending, GameWrite, Store, Stored, StoreUnavailable, connect
from tests.bot.stored import write

CHAT = ChatRef("tg", "-100")
ANNA = UserRef("tg", "1", "Anna")


CALLS: dict[str, Callable[[Store], Awaitable[Any]]] = {
    "ping": lambda s: s.ping(),
    "load": lambda s: s.load(CHAT),
    "read_game": lambda s: s.read_game(CHAT),
    "write_game": lambda s: s.write_game(CHAT, GameWrite(0, "g1", '{"id":"g1"}')),
    "end_game": lambda s: s.write_game(CHAT, GameWrite(1, "g1", "{}", ending=Ending(None))),
    "last_game": lambda s: s.last_game(CHAT),
    "settle_global_ratings": lambda s: s.settle_global_ratings(CHAT, "m1"),
    "scoreboard": lambda s: s.scoreboard(CHAT, "kozel", me=ANNA),
    "user_stats": lambda s: s.user_stats(ANNA),
    "chat_settings": lambda s: s.chat_settings(CHAT),
    "set_chat_setting": lambda s: s.set_chat_setting(CHAT, "lang", "en"),
    "user_lang": lambda s: s.user_lang(ANNA),
    "set_user_lang": lambda s: s.set_user_lang(ANNA, "en"),
    "schedule": lambda s: s.schedule(CHAT, "g1", 1, 10.0),
    "unschedule": lambda s: s.unschedule(CHAT, "g1"),
    "claim_due": lambda s: s.claim_due(10.0),
}


@pytest.mark.parametrize("name", sorted(CALLS))
async def test_every_call_to_a_store_that_is_down_raises_store_unavailable(
    unavailable_store: Store, name: str
) -> None:
    with pytest.raises(StoreUnavailable):
        await CALLS[name](unavailable_store)


@pytest.mark.redis
async def test_a_write_while_the_server_is_down_leaves_the_game_as_it_was(
    tmp_path: Path,
) -> None:
    server = EmbeddedRedis(tmp_path)
    server.start()
    store = Store(connect(server.url, timeout=1.0))
    try:
        first = {"id": "g1", "moves": [[0, "6-6"]]}
        await write(store, CHAT, first)
        server.stop()
        with pytest.raises(StoreUnavailable):
            await write(
                store, CHAT, {"id": "g1", "moves": [[0, "6-6"], [1, "6-4@R"]]}, Stored(first, 1)
            )
        server.start()
        assert await store.load(CHAT) == Stored({"id": "g1", "moves": [[0, "6-6"]]}, 1)
        assert await write(store, CHAT, {"id": "g1", "moves": []}, Stored(first, 1))
    finally:
        await store.close()
        server.stop()
