"""Several webhook workers serve one bot on one Redis: Telegram's updates are spread over
them, and together they play a match as one bot would; an update posted to two of them is
handled once."""

from __future__ import annotations

import random
import socket
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack

import pytest
import redis.asyncio as aredis

from adapters.telegram.run import TelegramService, redis_wiring
from adapters.telegram.webhook import UpdateLedger
from bot.sessions import Sessions
from bot.store import Store, connect
from tests.adapters.telegram.driver import Driver
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.harness import Running, settings_for
from tests.adapters.telegram.tables import (
    GROUP_ID,
    PACE,
    assert_match_over,
    assert_platform_rules_kept,
    open_table,
    start,
)
from tests.adapters.telegram.vclock import VirtualClock

pytestmark = pytest.mark.slow
SECRET = "worker-secret"
WORKERS = 3


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
async def workers(
    fake: FakeBotApi, clock: VirtualClock, redis_url: str, store: Store
) -> AsyncIterator[Running]:
    """Worker processes, each with its own core and connections, behind one webhook."""
    async with AsyncExitStack() as stack:
        services, urls = [], []
        for number in range(WORKERS):
            port = free_port()
            settings = settings_for(
                fake,
                telegram_webhook_url="https://bot.example.org/hook",
                telegram_webhook_secret=SECRET,
                telegram_webhook_listen="127.0.0.1",
                telegram_webhook_port=port,
                **PACE,
            )
            own_store = Store(connect(redis_url, timeout=30.0))
            stack.push_async_callback(own_store.close)
            client = aredis.Redis.from_url(redis_url, decode_responses=True)
            stack.push_async_callback(client.aclose)
            sessions = Sessions(own_store, settings, rng=random.Random(number))
            service = TelegramService(
                settings, sessions, redis_wiring(client, clock, time.time), UpdateLedger(client)
            )
            await service.start()
            stack.push_async_callback(service.stop)
            services.append(service)
            urls.append(f"http://127.0.0.1:{port}/hook")
        fake.deliver_to(urls, SECRET)
        yield Running(fake, *services)


def worker_urls(workers: Running) -> list[str]:
    return [f"http://127.0.0.1:{s.settings.telegram_webhook_port}/hook" for s in workers.services]


async def test_webhook_workers_on_one_redis_play_a_match_together(
    fake: FakeBotApi,
    workers: Running,
    store: Store,
    redis_url: str,
    people: dict[str, FakeUser],
) -> None:
    ann, bob, cy = people["ann"], people["bob"], people["cy"]
    client = aredis.Redis.from_url(redis_url, decode_responses=True)
    try:
        d = Driver(fake, workers, store, client, GROUP_ID)
        d.seat(ann, bob, cy)
        game_id = await open_table(d, ann, "/newgame kozel target=11", bob, cy)
        await start(d, ann, game_id)
        offer = d.link_offered_to(cy)
        assert offer is not None
        await d.open_from_deep_link(cy, offer)
        d.hurry = True  # updates cross between workers
        played = await d.play_match(random.Random(7))
        final = (await d.table(game_id))["text"]
    finally:
        await client.aclose()
    assert_match_over(fake, played)
    assert "The match is over" in final, "an older table replaced the last one"
    assert_platform_rules_kept(fake, people)
    served = {url for url, status in fake.feed.hook_posts if status == 200}
    assert len(served) == WORKERS, "the updates were not spread over every worker"
    assert all(s.adapter.handled > 0 for s in workers.services)


async def test_an_update_posted_to_two_workers_is_handled_once(
    fake: FakeBotApi,
    workers: Running,
    store: Store,
    redis_url: str,
    people: dict[str, FakeUser],
) -> None:
    ann, bob = people["ann"], people["bob"]
    fake.deliver_to(worker_urls(workers), SECRET, copies=2)  # as when Telegram posts again
    client = aredis.Redis.from_url(redis_url, decode_responses=True)
    try:
        d = Driver(fake, workers, store, client, GROUP_ID)
        d.seat(ann, bob)
        game_id = await open_table(d, ann, "/newgame tyaga", bob)
        await start(d, ann, game_id)
        game = await d.game()
    finally:
        await client.aclose()
    assert len(fake.feed.hook_posts) == 2 * fake.pushed
    assert all(status == 200 for _url, status in fake.feed.hook_posts)
    assert workers.handled == fake.pushed
    assert len(fake.calls_to("answerCallbackQuery")) == 2  # Bob's join and Ann's start
    assert game is not None
    seated = [s.user.user_id for s in game.doc.seats if s.user is not None]
    assert seated == [str(ann.id), str(bob.id)]
