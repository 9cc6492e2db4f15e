"""Telegram's carrier on the shared slot book: a worker whose edit is held up past its
hold (a flood wait) never writes over a newer version another worker showed meanwhile."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import redis.asyncio as aredis
from telegram import Bot

from adapters.delivery.slots import RedisSlotBook
from adapters.telegram.carry import Carrier
from adapters.telegram.render import Renderer
from bot.model.contract import ChatRef, Screen, Show, Slot, SlotKind
from tests.adapters.delivery.vclock import VirtualClock
from tests.adapters.telegram.fakebot import FakeBotApi

TABLE = Slot(SlotKind.TABLE, ChatRef("tg", "-100123"), "g1")


class FloodClock:
    """The test's clock, on which ``meanwhile`` runs once while a worker waits out a
    flood longer than a slot's hold."""

    def __init__(self, clock: VirtualClock) -> None:
        self._clock = clock
        self.meanwhile: Callable[[], Awaitable[None]] | None = None

    def now(self) -> float:
        return self._clock.now()

    def wall(self) -> float:
        return self._clock.wall()

    async def sleep_until(self, moment: float) -> None:
        await self._clock.sleep_until(moment)
        job, self.meanwhile = self.meanwhile, None
        if job is not None and moment - self.now() <= 0:
            await job()


async def test_an_edit_kept_waiting_past_its_hold_never_lands_over_a_newer_one(
    fake: FakeBotApi, bot: Bot, clock: VirtualClock, redis_client: aredis.Redis
) -> None:
    fake.add_group(-100123, "Dominoes")
    flood = FloodClock(clock)
    book = RedisSlotBook(redis_client, lambda chat: f"test:msgs:{{{chat}}}")
    first, second = (
        Carrier(bot, Renderer("domino_test_bot", flood.wall), book, flood) for _ in range(2)
    )
    await second.show(Show(TABLE, Screen((("v1",),)), 1))
    fake.inject("editMessageText", 429, "Too Many Requests: retry after 40", retry_after=40)

    async def newer_from_another_worker() -> None:
        await second.show(Show(TABLE, Screen((("v3",),)), 3))

    flood.meanwhile = newer_from_another_worker
    await first.show(Show(TABLE, Screen((("v2",),)), 2))
    assert [m["text"] for m in fake.bot_messages(-100123)] == ["v3"]
