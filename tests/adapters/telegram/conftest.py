"""Fixtures for the Telegram adapter: the fake Bot API server, a bot talking to it, a
virtual clock they share, a real Redis (the core tests' server fixture, imported), and
the whole-match tests' fixtures from tables.py, the delivery tests' from mailroom.py and
the webhook workers from webhooks.py."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis.asyncio as aredis
from telegram import Bot

from adapters.telegram.liveness import Liveness
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.mailroom import core, deliverer, world  # noqa: F401  (fixtures)
from tests.adapters.telegram.tables import (  # noqa: F401  (fixtures)
    adapter_redis,
    make_driver,
    people,
    service,
    store,
)
from tests.adapters.telegram.vclock import VirtualClock
from tests.adapters.telegram.webhooks import workers  # noqa: F401  (a fixture)
from tests.bot.conftest import redis_url  # noqa: F401  (a session fixture, shared)


@pytest.fixture
def clock() -> VirtualClock:
    return VirtualClock()


@pytest.fixture
async def fake(clock: VirtualClock) -> AsyncIterator[FakeBotApi]:
    server = FakeBotApi(clock=clock)
    await server.start()
    try:
        yield server
    finally:
        await server.close()


@pytest.fixture
async def bot(fake: FakeBotApi) -> AsyncIterator[Bot]:
    bot = Bot(fake.token, base_url=f"http://127.0.0.1:{fake.port}/bot")
    async with bot:
        yield bot


@pytest.fixture
async def redis_client(redis_url: str) -> AsyncIterator[aredis.Redis]:  # noqa: F811
    """A client on an emptied test database."""
    client = aredis.Redis.from_url(redis_url, decode_responses=True)
    await client.flushdb()
    try:
        yield client
    finally:
        await client.aclose()


@pytest.fixture(params=["memory", "redis"])
def where(request: pytest.FixtureRequest) -> Any:
    """Run a test on in-process memory (None) and on a real Redis client."""
    if request.param == "memory":
        return None
    return request.getfixturevalue("redis_client")


@pytest.fixture
async def processes(redis_client: aredis.Redis) -> AsyncIterator[tuple[Liveness, Liveness]]:
    """Two live bot processes, each renewing its own key."""
    first, second = Liveness(redis_client), Liveness(redis_client)
    await first.start()
    await second.start()
    yield first, second
    await first.stop()
    await second.stop()
