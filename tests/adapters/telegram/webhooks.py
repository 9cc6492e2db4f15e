"""Webhook workers, each with its own core and connections, serving one bot on one Redis
behind one webhook (a fixture, and where each worker takes its updates)."""

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
from bot.storage.store import Store, connect
from bot.table.sessions import Sessions
from tests.adapters.delivery.vclock import VirtualClock
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.harness import Running, settings_for
from tests.adapters.telegram.tables import PACE

SECRET = "worker-secret-0123456789"
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
