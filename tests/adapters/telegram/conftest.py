"""Fixtures for the Telegram adapter: the fake Bot API server, a bot talking to it, a
virtual clock they share, and a real Redis server."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

import pytest
import redis
import redis.asyncio as aredis
from telegram import Bot

from bot.embedded import EmbeddedRedis
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.vclock import VirtualClock

TEST_DB = 15


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


def _test_database(url: str) -> str:
    """``url`` moved off database 0, so tests never flush a database in use."""
    parts = urlsplit(url)
    if parts.scheme == "unix":
        query = parse_qs(parts.query)
        if query.get("db", ["0"])[0] in ("", "0"):
            query["db"] = [str(TEST_DB)]
        return urlunsplit(parts._replace(query=urlencode(query, doseq=True)))
    if parts.path.strip("/") in ("", "0"):
        return urlunsplit(parts._replace(path=f"/{TEST_DB}"))
    return url


def _answers(url: str) -> bool:
    client = redis.Redis.from_url(url, socket_connect_timeout=1.0, socket_timeout=1.0)
    try:
        return bool(client.ping())
    except (redis.exceptions.RedisError, OSError):
        return False
    finally:
        client.close()


@pytest.fixture(scope="session")
def telegram_redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``REDIS_URL`` (on database 15) when it answers, else a throwaway embedded server."""
    configured = os.environ.get("REDIS_URL")
    if configured and _answers(_test_database(configured)):
        yield _test_database(configured)
        return
    server = EmbeddedRedis(tmp_path_factory.mktemp("tg-redis"), persist=False)
    server.start()
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
async def redis_client(telegram_redis_url: str) -> AsyncIterator[aredis.Redis]:
    """A client on an emptied test database."""
    client = aredis.Redis.from_url(telegram_redis_url, decode_responses=True)
    await client.flushdb()
    try:
        yield client
    finally:
        await client.aclose()


@pytest.fixture(params=["memory", "redis"])
async def where(request: pytest.FixtureRequest, telegram_redis_url: str) -> AsyncIterator[Any]:
    """Run a test on in-process memory (None) and on a real Redis client."""
    if request.param == "memory":
        yield None
        return
    client = aredis.Redis.from_url(telegram_redis_url, decode_responses=True)
    await client.flushdb()
    try:
        yield client
    finally:
        await client.aclose()
