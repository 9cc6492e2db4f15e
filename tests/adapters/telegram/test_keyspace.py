"""Every key the Telegram adapter writes expires (its slot books, send logs, pending
screens and the index of tables to look at), as the core's do: the keyspace of a real
Redis is walked after whole matches played through the adapter."""

from __future__ import annotations

import random
from typing import Any

import pytest
import redis.asyncio as aredis

from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.tables import started_table
from tests.bot.test_store_keyspace import assert_every_key_expires_but_those_kept

pytestmark = pytest.mark.slow


async def test_after_whole_matches_through_telegram_every_key_expires_but_those_kept(
    make_driver: Any, people: dict[str, FakeUser], adapter_redis: aredis.Redis
) -> None:
    ann, bob = people["ann"], people["bob"]
    d = make_driver()
    await started_table(d, ann, "/newgame baghdad match=deals:2", bob)
    await d.play_match(random.Random(3))
    await started_table(d, ann, "/newgame tyaga target=10", bob)
    await d.say(ann, "/scores")
    await d.say(ann, "/stop")
    await d.bot.drain()
    assert await adapter_redis.exists("dom:tables:tg")  # the walk sees the adapter's keys
    await assert_every_key_expires_but_those_kept(adapter_redis)
