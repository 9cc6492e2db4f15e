"""The bot-wide limit of thirty writes a second holds as the Bot API server sees it:
several workers share it through Redis, their requests take their time on the way,
some are refused with a flood wait and sent again, and deletions count too."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from typing import Any

import pytest
import redis.asyncio as aredis
from telegram import Bot
from telegram.request import HTTPXRequest

from adapters.delivery.deliver import Deliverer
from adapters.delivery.sharedlog import RedisSendLog
from adapters.delivery.slots import RedisSlotBook
from adapters.telegram.budget import BOT_RULES
from adapters.telegram.carry import Carrier
from adapters.telegram.render import Renderer
from bot.model.contract import ChatRef, Delete, Notice, Show, Slot, SlotKind
from tests.adapters.delivery.test_limiter import most_in_any_window
from tests.adapters.delivery.vclock import ScaledClock
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.mailroom import Core, screen

pytestmark = pytest.mark.slow
WORKERS = 3
CHATS = 24  # private chats per worker, each with a budget of one write a second
NOTICES = 3  # per chat
WRITES = ("sendMessage", "editMessageText", "deleteMessage")


@pytest.fixture
def clock() -> ScaledClock:
    """Four seconds a second: the run is short, and a request's real time on the way and
    in the bot's event loop weighs four times as much as it would."""
    return ScaledClock(speed=4.0)


class SlowNetwork(HTTPXRequest):
    """Requests that reach the server up to half a second (of the clock's) after the
    bot sent them, each after a delay of its own, as over a real network."""

    def __init__(self, clock: ScaledClock, rng: random.Random) -> None:
        super().__init__()
        self._clock = clock
        self._rng = rng

    async def do_request(self, *args: Any, **kwargs: Any) -> tuple[int, bytes]:
        await self._clock.sleep_until(self._clock.now() + self._rng.uniform(0.0, 0.5))
        return await super().do_request(*args, **kwargs)


@pytest.fixture
async def deliverers(
    fake: FakeBotApi, clock: ScaledClock, redis_url: str, redis_client: aredis.Redis
) -> AsyncIterator[list[Deliverer]]:
    """Workers with connections of their own, sharing the send budgets in Redis."""
    async with AsyncExitStack() as stack:
        workers = []
        for number in range(WORKERS):
            client = aredis.Redis.from_url(redis_url, decode_responses=True)
            stack.push_async_callback(client.aclose)
            bot = Bot(
                fake.token,
                base_url=f"http://127.0.0.1:{fake.port}/bot",
                request=SlowNetwork(clock, random.Random(number)),
            )
            await stack.enter_async_context(bot)
            book = RedisSlotBook(client, lambda chat: f"test:slots:{{{chat}}}")
            carrier = Carrier(bot, Renderer("domino_test_bot", clock.wall), book, clock)
            send_log = RedisSendLog(client, lambda chat: f"test:sent:{{{chat}}}")
            deliverer = Deliverer(carrier, send_log, clock, Core().report)
            stack.push_async_callback(deliverer.close)
            workers.append(deliverer)
        yield workers


async def test_many_workers_keep_thirty_writes_in_every_second_the_server_sees(
    fake: FakeBotApi, deliverers: list[Deliverer]
) -> None:
    users = [1000 + n for n in range(WORKERS * CHATS)]
    for user in users:
        fake.add_user(user, f"U{user}")
        fake.started.add(user)
    fake.inject("sendMessage", 429, "Too Many Requests: retry after 1", retry_after=1, times=6)
    tables = {user: Slot(SlotKind.TABLE, ChatRef("tg", str(user)), "g1") for user in users}
    for number, deliverer in enumerate(deliverers):
        for user in users[number * CHATS : (number + 1) * CHATS]:
            deliverer.submit([Show(tables[user], screen("table"), 1)])
            deliverer.submit(
                Notice(tables[user].chat, screen(f"notice {n}")) for n in range(NOTICES)
            )
    await asyncio.gather(*(deliverer.drain() for deliverer in deliverers))
    for number, deliverer in enumerate(deliverers):
        for user in users[number * CHATS : (number + 1) * CHATS]:
            deliverer.submit([Delete(tables[user]), Notice(tables[user].chat, screen("bye"))])
    await asyncio.gather(*(deliverer.drain() for deliverer in deliverers))

    for user in users:
        texts = [m["text"] for m in fake.bot_messages(user)]
        assert texts == [*(f"notice {n}" for n in range(NOTICES)), "bye"]  # the table is gone
    moments = [call.at for call in fake.calls if call.method in WRITES]
    assert len(moments) == len(users) * (NOTICES + 3) + 6  # six refused and sent again
    assert most_in_any_window(moments, BOT_RULES[0].period) <= BOT_RULES[0].count
