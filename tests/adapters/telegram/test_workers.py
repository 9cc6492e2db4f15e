"""Several webhook workers serve one bot on one Redis: Telegram's updates are spread over
them, and together they play a match as one bot would; an update posted to two of them is
handled once."""

from __future__ import annotations

import random

import pytest
import redis.asyncio as aredis

from bot.storage.store import Store
from tests.adapters.telegram.driver import Driver
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.harness import Running
from tests.adapters.telegram.tables import (
    GROUP_ID,
    assert_match_over,
    assert_platform_rules_kept,
    open_table,
    start,
)
from tests.adapters.telegram.webhooks import SECRET, WORKERS, worker_urls

pytestmark = pytest.mark.slow


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
