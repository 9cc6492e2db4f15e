"""The real bot service running against the fake Bot API, and a way to wait until it
has finished with everything users did."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from adapters.delivery.limiter import MemorySendLog
from adapters.delivery.slots import MemorySlotBook
from adapters.telegram.app import Core, Wiring
from adapters.telegram.run import TelegramService, redis_wiring
from bot.app.config import Settings, load_settings
from tests.adapters.delivery.vclock import VirtualClock
from tests.adapters.telegram.fakebot import FakeBotApi


def settings_for(fake: FakeBotApi, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "telegram_token": fake.token,
        "telegram_base_url": f"http://127.0.0.1:{fake.port}",
        "timer_poll_interval": 0.05,
        "redis_url": None,
        "ai_worlds": 4,
    }
    values.update(overrides)
    return load_settings(env_file=None, **values)


def memory_wiring(clock: VirtualClock) -> Wiring:
    return Wiring(MemorySlotBook(), MemorySendLog(), clock, time.time)


class Running:
    """One bot process, or several webhook workers serving one bot."""

    def __init__(self, fake: FakeBotApi, *services: TelegramService) -> None:
        self.fake = fake
        self.services = services

    @property
    def handled(self) -> int:
        return sum(s.adapter.handled for s in self.services)

    @property
    def idle(self) -> bool:
        """Nothing queued or on its way to Telegram, and no timer tick half done: a
        tick may already have written a computer's move whose screens are not queued yet."""
        return all(s.adapter.deliverer.idle and not s.ticking for s in self.services)

    async def drain(self, timeout: float = 20.0) -> None:
        """Wait until every update users caused is handled and every mailbox is empty."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.handled < self.fake.pushed or not self.idle or self.fake.pending_updates():
            if loop.time() > deadline:
                last = [(c.method, c.status) for c in self.fake.calls[-5:]]
                raise TimeoutError(
                    f"the bot did not drain: handled {self.handled} of {self.fake.pushed} "
                    f"updates, {self.fake.pending_updates()} not fetched, idle={self.idle}; "
                    f"last calls {last}"
                )
            await asyncio.sleep(0.01)


@asynccontextmanager
async def running(
    fake: FakeBotApi,
    core: Core,
    clock: VirtualClock,
    *,
    redis: Any = None,
    **settings: Any,
) -> AsyncIterator[Running]:
    """The service started against ``fake`` (slots and budgets in ``redis`` if given)."""
    wiring = redis_wiring(redis, clock, time.time) if redis is not None else memory_wiring(clock)
    service = TelegramService(settings_for(fake, **settings), core, wiring)
    await service.start()
    try:
        yield Running(fake, service)
    finally:
        await service.stop()
