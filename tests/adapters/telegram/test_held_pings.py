"""Turn pings held back: sent once the player to move has waited twenty seconds, never
when he moves before that, whichever webhook worker handles his move, and even when the
worker that held the ping has stopped; a ping sent is deleted once he has moved."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import redis.asyncio as aredis

from adapters.pings import PING_HOLD
from bot.storage.store import Store
from tests.adapters.delivery.vclock import VirtualClock
from tests.adapters.telegram.driver import Driver
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.harness import Running
from tests.adapters.telegram.tables import GROUP_ID, move_once, started_table, turn_now
from tests.adapters.telegram.webhooks import SECRET, worker_urls

pytestmark = pytest.mark.slow


def _pings_to(fake: FakeBotApi, user: FakeUser) -> list[str]:
    return [
        c.params["text"]
        for c in fake.calls_to("sendMessage")
        if c.chat_id == user.id and c.params["text"].startswith("Your turn at")
    ]


async def _turn_passed(make_driver: Any, people: dict[str, FakeUser]) -> tuple[Driver, FakeUser]:
    """Ann and Bob start a table and one of them moves: the driver, and the player whose
    turn it now is."""
    d = make_driver()
    game_id = await started_table(d, people["ann"], "/newgame tyaga", people["bob"])
    await move_once(d, game_id)
    return d, (await turn_now(d)).mover


async def test_a_held_turn_ping_is_sent_once_its_player_has_waited_twenty_seconds(
    fake: FakeBotApi, clock: VirtualClock, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    before = clock.now()  # the turn passes at or after this, while delivery takes time
    d, waiting = await _turn_passed(make_driver, people)
    after = clock.now()  # and before this
    deliverer = d.bot.services[0].adapter.deliverer
    clock.advance(before + PING_HOLD - 1 - clock.now())
    await deliverer.release_pings()
    await d.bot.drain()
    assert _pings_to(fake, waiting) == [], "the ping did not wait"
    clock.advance(after + PING_HOLD + 1 - clock.now())
    await deliverer.release_pings()
    await d.bot.drain()
    assert len(_pings_to(fake, waiting)) == 1


async def test_a_held_turn_ping_is_not_sent_when_its_player_moves_in_time(
    fake: FakeBotApi, clock: VirtualClock, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    d, waiting = await _turn_passed(make_driver, people)
    clock.advance(PING_HOLD / 2)
    turn = await turn_now(d)
    assert turn.mover is waiting
    await move_once(d, turn.game.doc.id)
    clock.advance(PING_HOLD * 2)
    await d.bot.services[0].adapter.deliverer.release_pings()
    await d.bot.drain()
    assert _pings_to(fake, waiting) == []


async def test_a_sent_turn_ping_is_deleted_once_its_player_has_moved(
    fake: FakeBotApi, clock: VirtualClock, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    d, waiting = await _turn_passed(make_driver, people)
    clock.advance(PING_HOLD + 1)
    await d.bot.services[0].adapter.deliverer.release_pings()
    await d.bot.drain()
    assert len(_pings_to(fake, waiting)) == 1
    assert len(_live_pings(fake, waiting)) == 1
    turn = await turn_now(d)
    assert turn.mover is waiting
    await move_once(d, turn.game.doc.id)
    await d.bot.drain()
    assert _live_pings(fake, waiting) == []


def _live_pings(fake: FakeBotApi, user: FakeUser) -> list[str]:
    return [m["text"] for m in fake.bot_messages(user.id) if m["text"].startswith("Your turn at")]


# -- webhook workers on one Redis ---------------------------------------------------


async def _held_by_first_worker(
    fake: FakeBotApi,
    clock: VirtualClock,
    workers: Running,
    store: Store,
    redis: aredis.Redis,
    people: dict[str, FakeUser],
) -> tuple[Driver, FakeUser, float]:
    """Ann and Bob start a table and one of them moves, every update going to the first
    worker: the driver, the player whose ping that worker now holds, and a moment
    before it was held."""
    fake.deliver_to(worker_urls(workers)[:1], SECRET)
    d = Driver(fake, workers, store, redis, GROUP_ID)
    game_id = await started_table(d, people["ann"], "/newgame tyaga", people["bob"])
    before = clock.now()
    await move_once(d, game_id)
    return d, (await turn_now(d)).mover, before


async def _move_on_second_worker(d: Driver, fake: FakeBotApi, workers: Running) -> None:
    fake.deliver_to(worker_urls(workers)[1:2], SECRET)
    turn = await turn_now(d)
    await move_once(d, turn.game.doc.id)
    assert fake.feed.hook_posts[-1][0] == worker_urls(workers)[1]


async def _release_everywhere(workers: Running) -> None:
    """Every running worker's timer round sends the pings that fell due, at once."""
    running = [s for s in workers.services if s.application.running]
    await asyncio.gather(*(s.adapter.deliverer.release_pings() for s in running))
    await workers.drain()


async def test_a_ping_held_by_one_worker_is_dropped_when_another_handles_the_move(
    fake: FakeBotApi,
    clock: VirtualClock,
    workers: Running,
    store: Store,
    adapter_redis: aredis.Redis,
    people: dict[str, FakeUser],
) -> None:
    d, waiting, _ = await _held_by_first_worker(fake, clock, workers, store, adapter_redis, people)
    assert (await turn_now(d)).mover is waiting
    await _move_on_second_worker(d, fake, workers)
    clock.advance(PING_HOLD * 2)
    await _release_everywhere(workers)
    assert _pings_to(fake, waiting) == []


async def test_a_ping_held_by_a_worker_that_stopped_is_sent_once_by_another_when_due(
    fake: FakeBotApi,
    clock: VirtualClock,
    workers: Running,
    store: Store,
    adapter_redis: aredis.Redis,
    people: dict[str, FakeUser],
) -> None:
    _d, waiting, before = await _held_by_first_worker(
        fake, clock, workers, store, adapter_redis, people
    )
    await workers.services[0].stop()
    clock.advance(before + PING_HOLD - 1 - clock.now())
    await _release_everywhere(workers)
    assert _pings_to(fake, waiting) == [], "the ping did not wait"
    clock.advance(PING_HOLD)
    await _release_everywhere(workers)
    clock.advance(PING_HOLD)
    await _release_everywhere(workers)
    assert len(_pings_to(fake, waiting)) == 1


async def test_a_ping_held_by_a_worker_that_stopped_is_not_sent_once_its_player_moved(
    fake: FakeBotApi,
    clock: VirtualClock,
    workers: Running,
    store: Store,
    adapter_redis: aredis.Redis,
    people: dict[str, FakeUser],
) -> None:
    d, waiting, _ = await _held_by_first_worker(fake, clock, workers, store, adapter_redis, people)
    await workers.services[0].stop()
    await _move_on_second_worker(d, fake, workers)
    clock.advance(PING_HOLD * 2)
    await _release_everywhere(workers)
    assert _pings_to(fake, waiting) == []
