"""Turn deadlines: one per game, each claimed by exactly one caller once it is due."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import redis.asyncio as aredis

from bot.model.contract import ChatRef
from bot.storage import keys
from bot.storage.store import Store, TimerClaim

TG = ChatRef("tg", "-100")
TOPIC = ChatRef("tg", "-100", "9")
DC = ChatRef("dc", "300")


async def test_a_due_deadline_is_claimed_with_its_chat_game_and_counter(store: Store) -> None:
    await store.schedule(TOPIC, "g1", 7, due=100.0)
    assert await store.claim_due(100.0) == [TimerClaim(TOPIC, "g1", 7)]


async def test_a_deadline_not_yet_due_is_not_claimed(store: Store) -> None:
    await store.schedule(TG, "g1", 7, due=100.5)
    assert await store.claim_due(100.0) == []
    assert await store.claim_due(101.0) == [TimerClaim(TG, "g1", 7)]


async def test_a_claimed_deadline_is_never_claimed_again(store: Store) -> None:
    await store.schedule(TG, "g1", 7, due=100.0)
    await store.claim_due(200.0)
    assert await store.claim_due(300.0) == []


async def test_scheduling_again_replaces_the_game_s_earlier_deadline(store: Store) -> None:
    await store.schedule(TG, "g1", 7, due=100.0)
    await store.schedule(TG, "g1", 8, due=150.0)
    assert await store.claim_due(120.0) == []
    assert await store.claim_due(150.0) == [TimerClaim(TG, "g1", 8)]


async def test_a_replaced_deadline_leaves_nothing_behind(
    store: Store, redis_client: aredis.Redis
) -> None:
    await store.schedule(TG, "g1", 7, due=100.0)
    await store.schedule(TG, "g1", 8, due=150.0)
    await store.claim_due(200.0)
    due, current = keys.chat_timers(TG)
    assert await redis_client.zcard(due) == 0
    assert await redis_client.hlen(current) == 0


async def test_deadlines_of_many_chats_spread_over_the_buckets_and_all_come_due(
    store: Store, redis_client: aredis.Redis
) -> None:
    chats = [ChatRef("tg", f"-{n}") for n in range(100)]
    for n, chat in enumerate(chats):
        await store.schedule(chat, f"g{n}", n, due=100.0 + n)
    used = [b for b in range(keys.TIMER_BUCKETS) if await redis_client.zcard(keys.timers(b)[0])]
    assert len(used) >= keys.TIMER_BUCKETS // 2
    claimed: list[TimerClaim] = []
    for _ in range(10):
        claimed += await store.claim_due(1000.0, limit=50)
    assert sorted(c.counter for c in claimed) == list(range(100))


async def test_each_game_keeps_its_own_deadline(store: Store) -> None:
    await store.schedule(TG, "g1", 1, due=100.0)
    await store.schedule(TG, "g2", 4, due=90.0)
    assert await store.claim_due(100.0) == [TimerClaim(TG, "g2", 4), TimerClaim(TG, "g1", 1)]


async def test_an_unscheduled_deadline_is_never_claimed(store: Store) -> None:
    await store.schedule(TG, "g1", 7, due=100.0)
    await store.unschedule(TG, "g1")
    assert await store.claim_due(200.0) == []


async def test_unscheduling_a_game_without_a_deadline_does_nothing(store: Store) -> None:
    await store.schedule(TG, "g1", 7, due=100.0)
    await store.unschedule(TG, "g2")
    assert await store.claim_due(200.0) == [TimerClaim(TG, "g1", 7)]


async def test_claims_come_earliest_first_up_to_the_limit(store: Store) -> None:
    for n in range(5):
        await store.schedule(TG, f"g{n}", n, due=100.0 - n)
    first = await store.claim_due(200.0, limit=2)
    assert first == [TimerClaim(TG, "g4", 4), TimerClaim(TG, "g3", 3)]
    assert len(await store.claim_due(200.0, limit=10)) == 3


async def test_a_platform_claims_only_its_own_chats(store: Store) -> None:
    await store.schedule(DC, "d1", 1, due=10.0)
    await store.schedule(TG, "t1", 2, due=20.0)
    assert await store.claim_due(100.0, platform="tg") == [TimerClaim(TG, "t1", 2)]
    assert await store.claim_due(100.0, platform="dc") == [TimerClaim(DC, "d1", 1)]


async def test_many_due_deadlines_of_another_platform_do_not_hide_one_s_own(
    store: Store,
) -> None:
    for n in range(150):
        await store.schedule(DC, f"d{n}", n, due=float(n))
    await store.schedule(TG, "t1", 1, due=500.0)
    assert await store.claim_due(1000.0, platform="tg", limit=5) == [TimerClaim(TG, "t1", 1)]
    assert len(await store.claim_due(1000.0, platform="dc", limit=500)) == 150


async def test_two_processes_claiming_at_once_get_each_deadline_exactly_once(
    store: Store, new_store: Callable[..., Store]
) -> None:
    for n in range(300):
        await store.schedule(TG if n % 2 else TOPIC, f"g{n}", n, due=float(n % 50))
    first, second = new_store(), new_store()

    async def poll(claimer: Store) -> list[TimerClaim]:
        claimed: list[TimerClaim] = []
        while batch := await claimer.claim_due(100.0, limit=7):
            claimed += batch
            await asyncio.sleep(0)
        return claimed

    a, b = await asyncio.gather(poll(first), poll(second))
    assert len(a) + len(b) == 300
    assert {c.game_id for c in a} | {c.game_id for c in b} == {f"g{n}" for n in range(300)}
    assert a and b  # both really competed
