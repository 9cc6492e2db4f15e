"""Fixtures for the Telegram adapter: the fake Bot API server, a bot talking to it, a
virtual clock they share, a real Redis (the delivery tests' fixtures, imported), and
the whole-match tests' fixtures from tables.py, the delivery tests' from mailroom.py and
the webhook workers from webhooks.py."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from telegram import Bot

from tests.adapters.delivery.conftest import processes, redis_client, where  # noqa: F401
from tests.adapters.delivery.vclock import VirtualClock
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.mailroom import core, deliverer, world  # noqa: F401  (fixtures)
from tests.adapters.telegram.tables import (  # noqa: F401  (fixtures)
    adapter_redis,
    make_driver,
    people,
    service,
    store,
)
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
