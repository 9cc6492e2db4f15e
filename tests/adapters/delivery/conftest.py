"""Fixtures for the delivery layer's tests, which the Telegram adapter's share: a real
Redis (the core tests' server fixture, imported), emptied for each test, a test run on
memory and on Redis alike, and two live bot processes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis.asyncio as aredis

from adapters.delivery.liveness import Liveness
from tests.bot.conftest import redis_url  # noqa: F401  (a session fixture, shared)


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
