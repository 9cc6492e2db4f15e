"""A chat's current game: written only by compare-and-set on its version, and expiring
when idle."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
import redis.asyncio as aredis

from bot import keys
from bot.contract import ChatRef
from bot.store import Store, StoreBusy, Stored

CHAT = ChatRef("tg", "-100123")
OTHER = ChatRef("tg", "-100123", "7")


def game(game_id: str = "g1", **fields: Any) -> dict[str, Any]:
    return {"schema": 1, "id": game_id, "status": "lobby", **fields}


async def test_a_chat_without_a_game_loads_none(store: Store) -> None:
    assert await store.load(CHAT) is None


async def test_saving_at_version_0_creates_the_game_at_version_1(store: Store) -> None:
    assert await store.save(CHAT, game(moves=[[0, "6-6"]]), 0)
    assert await store.load(CHAT) == Stored(game(moves=[[0, "6-6"]]), 1)


async def test_saving_at_version_0_fails_when_the_chat_has_a_game(store: Store) -> None:
    await store.save(CHAT, game("first"), 0)
    assert not await store.save(CHAT, game("second"), 0)
    assert await store.load(CHAT) == Stored(game("first"), 1)


async def test_a_save_at_the_current_version_writes_the_next_one(store: Store) -> None:
    await store.save(CHAT, game(), 0)
    assert await store.save(CHAT, game(status="running"), 1)
    assert await store.load(CHAT) == Stored(game(status="running"), 2)


async def test_a_save_at_a_stale_version_changes_nothing(store: Store) -> None:
    await store.save(CHAT, game(), 0)
    await store.save(CHAT, game(status="running"), 1)
    assert not await store.save(CHAT, game(status="stopped"), 1)
    assert await store.load(CHAT) == Stored(game(status="running"), 2)


async def test_a_save_at_a_version_ahead_changes_nothing(store: Store) -> None:
    assert not await store.save(CHAT, game(), 5)
    assert await store.load(CHAT) is None


async def test_each_chat_and_topic_has_its_own_game(store: Store) -> None:
    await store.save(CHAT, game("a"), 0)
    await store.save(OTHER, game("b"), 0)
    assert (await store.load(CHAT)) == Stored(game("a"), 1)
    assert (await store.load(OTHER)) == Stored(game("b"), 1)


async def test_text_in_any_language_survives_a_round_trip(store: Store) -> None:
    doc = game(players=[{"name": "Ганна 🁣"}])
    await store.save(CHAT, doc, 0)
    stored = await store.load(CHAT)
    assert stored is not None and stored.doc == doc


async def test_a_save_sets_the_idle_expiry_of_the_game(
    new_store: Callable[..., Store], redis_client: aredis.Redis
) -> None:
    store = new_store(idle_ttl=1000)
    await store.save(CHAT, game(), 0)
    await redis_client.expire(keys.game(CHAT), 10)
    await store.save(CHAT, game(status="running"), 1)
    assert 990 < await redis_client.ttl(keys.game(CHAT)) <= 1000


async def test_an_idle_game_expires(new_store: Callable[..., Store]) -> None:
    store = new_store(idle_ttl=1)
    await store.save(CHAT, game(), 0)
    await asyncio.sleep(1.1)
    assert await store.load(CHAT) is None


async def test_a_conflicting_save_is_written_again_after_the_script_cache_is_flushed(
    store: Store, redis_client: aredis.Redis
) -> None:
    await store.save(CHAT, game(), 0)
    await redis_client.script_flush()
    assert await store.save(CHAT, game(status="running"), 1)
    assert not await store.save(CHAT, game(status="stopped"), 1)


# -- the game's keys expire together --------------------------------------------------


async def test_the_game_its_moves_and_its_deals_expire_together(
    new_store: Callable[..., Store], redis_client: aredis.Redis
) -> None:
    deal = {"hands": [["6-6"]], "boneyard": []}
    await new_store(idle_ttl=500).save(CHAT, game("g7", deals=[deal], moves=[[0, "6-6"]]), 0)
    for key in (keys.game(CHAT), keys.moves(CHAT), keys.deals(CHAT)):
        assert 490 < await redis_client.ttl(key) <= 500


# -- update ----------------------------------------------------------------------------


async def test_update_writes_what_fn_returns_and_returns_its_result(store: Store) -> None:
    async def create(stored: Stored | None) -> tuple[dict[str, Any] | None, str]:
        assert stored is None
        return game(), "created"

    assert await store.update(CHAT, create) == "created"
    assert await store.load(CHAT) == Stored(game(), 1)


async def test_update_writes_nothing_when_fn_returns_no_document(store: Store) -> None:
    await store.save(CHAT, game(), 0)

    async def refuse(stored: Stored | None) -> tuple[dict[str, Any] | None, str]:
        return None, "not your turn"

    assert await store.update(CHAT, refuse) == "not your turn"
    assert await store.load(CHAT) == Stored(game(), 1)


async def test_update_calls_fn_again_on_the_newer_game_after_a_conflict(
    store: Store, new_store: Callable[..., Store]
) -> None:
    await store.save(CHAT, game(n=0), 0)
    rival = new_store()
    seen: list[int] = []

    async def increment(stored: Stored | None) -> tuple[dict[str, Any] | None, int]:
        assert stored is not None
        seen.append(stored.version)
        if len(seen) == 1:  # another process writes between our load and our save
            await rival.save(CHAT, game(n=10), stored.version)
        return game(n=stored.doc["n"] + 1), stored.doc["n"] + 1

    assert await store.update(CHAT, increment) == 11
    assert seen == [1, 2]
    assert await store.load(CHAT) == Stored(game(n=11), 3)


async def test_update_gives_up_as_busy_after_the_allowed_retries(
    store: Store, new_store: Callable[..., Store]
) -> None:
    await store.save(CHAT, game(n=0), 0)
    rival = new_store()
    calls = 0

    async def always_overtaken(stored: Stored | None) -> tuple[dict[str, Any] | None, None]:
        nonlocal calls
        calls += 1
        assert stored is not None
        await rival.save(CHAT, game(n=-1), stored.version)
        return game(n=stored.doc["n"] + 1), None

    with pytest.raises(StoreBusy):
        await store.update(CHAT, always_overtaken, retries=3)
    assert calls == 4
    stored = await store.load(CHAT)
    assert stored is not None and stored.doc["n"] == -1


async def test_fifty_simultaneous_updates_over_separate_connections_all_apply_once(
    store: Store, new_store: Callable[..., Store]
) -> None:
    await store.save(CHAT, game(n=0), 0)
    stores = [new_store() for _ in range(10)]

    async def increment(stored: Stored | None) -> tuple[dict[str, Any] | None, int]:
        assert stored is not None
        await asyncio.sleep(0)  # let the others load the same version
        return game(n=stored.doc["n"] + 1), stored.doc["n"] + 1

    results = await asyncio.gather(
        *(stores[i % 10].update(CHAT, increment, retries=100) for i in range(50))
    )
    assert sorted(results) == list(range(1, 51))
    assert await store.load(CHAT) == Stored(game(n=50), 51)


# -- clear and the last game -------------------------------------------------------------


async def test_clearing_at_the_current_version_removes_the_game_and_keeps_it_as_last(
    store: Store,
) -> None:
    await store.save(CHAT, game(status="finished"), 0)
    assert await store.clear(CHAT, 1)
    assert await store.load(CHAT) is None
    assert await store.last_game(CHAT) == game(status="finished")


async def test_clearing_at_a_stale_version_changes_nothing(store: Store) -> None:
    await store.save(CHAT, game(), 0)
    await store.save(CHAT, game(status="running"), 1)
    assert not await store.clear(CHAT, 1)
    assert await store.load(CHAT) == Stored(game(status="running"), 2)
    assert await store.last_game(CHAT) is None


async def test_clearing_a_chat_without_a_game_changes_nothing(store: Store) -> None:
    assert not await store.clear(CHAT, 0)


async def test_a_cleared_lobby_can_be_dropped_without_replacing_the_last_game(
    store: Store,
) -> None:
    await store.save(CHAT, game("done", status="finished"), 0)
    await store.clear(CHAT, 1)
    await store.save(CHAT, game("lobby"), 0)
    assert await store.clear(CHAT, 1, keep_last=False)
    assert await store.last_game(CHAT) == game("done", status="finished")


async def test_the_last_game_expires_after_the_idle_time(
    new_store: Callable[..., Store], redis_client: aredis.Redis
) -> None:
    store = new_store(idle_ttl=300)
    await store.save(CHAT, game(), 0)
    await store.clear(CHAT, 1)
    assert 290 < await redis_client.ttl(keys.last_game(CHAT)) <= 300


async def test_after_a_clear_a_new_game_starts_at_version_1(store: Store) -> None:
    await store.save(CHAT, game("a"), 0)
    await store.clear(CHAT, 1)
    assert await store.save(CHAT, game("b"), 0)
    assert await store.load(CHAT) == Stored(game("b"), 1)
