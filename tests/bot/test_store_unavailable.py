"""A Redis that is down: every store call raises StoreUnavailable and nothing is written."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.contract import ChatRef, UserRef
from bot.embedded import EmbeddedRedis
from bot.store import MatchRow, Store, Stored, StoreUnavailable, connect

CHAT = ChatRef("tg", "-100")
ANNA = UserRef("tg", "1", "Anna")


async def _noop(stored: Stored | None) -> tuple[dict[str, Any] | None, None]:
    return {"id": "g1"}, None


CALLS: dict[str, Callable[[Store], Awaitable[Any]]] = {
    "ping": lambda s: s.ping(),
    "load": lambda s: s.load(CHAT),
    "save": lambda s: s.save(CHAT, {"id": "g1"}, 0),
    "update": lambda s: s.update(CHAT, _noop),
    "clear": lambda s: s.clear(CHAT, 1),
    "last_game": lambda s: s.last_game(CHAT),
    "record_match": lambda s: s.record_match(CHAT, "m1", "kozel", [MatchRow(ANNA, True, 1)]),
    "scoreboard": lambda s: s.scoreboard(CHAT, "kozel", me=ANNA),
    "user_stats": lambda s: s.user_stats(ANNA),
    "chat_settings": lambda s: s.chat_settings(CHAT),
    "set_chat_setting": lambda s: s.set_chat_setting(CHAT, "lang", "en"),
    "user_lang": lambda s: s.user_lang(ANNA),
    "set_user_lang": lambda s: s.set_user_lang(ANNA, "en"),
    "schedule": lambda s: s.schedule(CHAT, "g1", 1, 10.0),
    "unschedule": lambda s: s.unschedule(CHAT, "g1"),
    "claim_due": lambda s: s.claim_due(10.0),
    "mark_rendered": lambda s: s.mark_rendered("table|tg:-100|g1", 1),
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
        await store.save(CHAT, {"id": "g1", "moves": [[0, "6-6"]]}, 0)
        server.stop()
        with pytest.raises(StoreUnavailable):
            await store.save(CHAT, {"id": "g1", "moves": [[0, "6-6"], [1, "6-4@R"]]}, 1)
        server.start()
        assert await store.load(CHAT) == Stored({"id": "g1", "moves": [[0, "6-6"]]}, 1)
        assert await store.save(CHAT, {"id": "g1", "moves": []}, 1)
    finally:
        await store.close()
        server.stop()
