"""Every key the core writes expires, except the chat's settings, kept on purpose (a
player's results, language, the boards and ratings expire after the retention period:
tests/bot/test_privacy_retention.py), which docs/architecture.md lists. Checked by
walking the keyspace of a real Redis after whole matches of every game, a stopped one
and the chat's settings; the Telegram adapter's keys are walked after whole matches
through it, in tests/adapters/telegram/test_keyspace.py."""

from __future__ import annotations

import random
import re

import redis.asyncio as aredis

from bot.contract import ChatRef
from bot.store import Store
from tests.bot.driver import make_table, user
from tests.bot.test_sessions_matches import MATCHES

ANNA, BORIS = user(1, "Anna"), user(2, "Boris")

KEPT_ON_PURPOSE = [r"dom:\{[^}]+\}:settings"]


async def test_after_whole_matches_every_key_expires_but_those_kept_on_purpose(
    store: Store, redis_client: aredis.Redis
) -> None:
    for n, (variant, options, people, computers) in enumerate(MATCHES):
        table = make_table(store, ChatRef("tg", f"-70{n}"), seed=n)
        await table.start_match(variant, people, *options, computers=computers)
        await table.play_out(people, random.Random(n))
    stopped = make_table(store, ChatRef("tg", "-799"), seed=9)
    await stopped.start_match("kozel", [ANNA, BORIS], computers=1)
    await stopped.command(ANNA, "stop", admin=True)
    await stopped.command(ANNA, "settings", "timer=90", admin=True)
    await stopped.command(BORIS, "lang", "pl")

    await assert_every_key_expires_but_those_kept(redis_client)


async def assert_every_key_expires_but_those_kept(redis: aredis.Redis) -> None:
    """Walk the keyspace: every key without an expiry is one kept on purpose."""
    forever, seen = [], 0
    async for key in redis.scan_iter(count=1000):
        seen += 1
        if await redis.ttl(key) == -1:
            forever.append(key)
    assert seen > 20
    unexpected = [k for k in forever if not any(re.fullmatch(p, k) for p in KEPT_ON_PURPOSE)]
    assert unexpected == []
