"""A game's event stream: appended in order, capped, expiring with the game."""

from __future__ import annotations

from collections.abc import Callable

import redis.asyncio as aredis

from bot import keys
from bot.contract import ChatRef
from bot.store import EVENTS_CAP, Store

CHAT = ChatRef("dc", "555")


async def test_events_read_back_in_the_order_they_were_appended(store: Store) -> None:
    await store.append_events(CHAT, "g1", [{"kind": "deal", "n": 1}, {"kind": "move", "m": "6-6"}])
    await store.append_events(CHAT, "g1", [{"kind": "move", "m": "6-4@R"}])
    assert await store.events(CHAT, "g1") == [
        {"kind": "deal", "n": 1},
        {"kind": "move", "m": "6-6"},
        {"kind": "move", "m": "6-4@R"},
    ]


async def test_a_game_without_events_reads_an_empty_list(store: Store) -> None:
    assert await store.events(CHAT, "none") == []


async def test_appending_no_events_creates_no_stream(
    store: Store, redis_client: aredis.Redis
) -> None:
    await store.append_events(CHAT, "g1", [])
    assert not await redis_client.exists(keys.events(CHAT, "g1"))


async def test_each_game_has_its_own_stream(store: Store) -> None:
    await store.append_events(CHAT, "g1", [{"n": 1}])
    await store.append_events(CHAT, "g2", [{"n": 2}])
    assert await store.events(CHAT, "g1") == [{"n": 1}]
    assert await store.events(CHAT, "g2") == [{"n": 2}]


async def test_the_stream_expires_after_the_idle_time(
    new_store: Callable[..., Store], redis_client: aredis.Redis
) -> None:
    await new_store(idle_ttl=600).append_events(CHAT, "g1", [{"n": 1}])
    assert 590 < await redis_client.ttl(keys.events(CHAT, "g1")) <= 600


async def test_the_stream_is_capped_near_its_limit_dropping_the_oldest(store: Store) -> None:
    total = EVENTS_CAP + 3000
    for start in range(0, total, 1000):
        await store.append_events(CHAT, "g1", [{"n": n} for n in range(start, start + 1000)])
    events = await store.events(CHAT, "g1")
    # Trimming is approximate: whole internal nodes go, so a little more than the cap stays.
    assert EVENTS_CAP <= len(events) < total
    assert events[-1] == {"n": total - 1}
    assert [e["n"] for e in events] == list(range(total - len(events), total))
