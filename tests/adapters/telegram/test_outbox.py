"""The deliverer keeps the responses, notices and files it queues in the chat's outbox
until Telegram has taken them, and strikes each off as soon as it has, before its
tidying."""

from __future__ import annotations

import asyncio

import redis.asyncio as aredis
from telegram import Bot

from adapters.delivery.deliver import Deliverer
from adapters.delivery.limiter import MemorySendLog
from adapters.delivery.liveness import Liveness
from adapters.delivery.outbox import RedisOutbox
from adapters.delivery.slots import MemorySlotBook
from adapters.telegram.carry import Carrier
from adapters.telegram.render import Renderer
from bot.model.contract import ChatRef, Document, Notice, Response
from bot.storage import keys
from tests.adapters.delivery.vclock import VirtualClock
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import Call
from tests.adapters.telegram.mailroom import GROUP, GROUP_ID, Core, screen, texts

SCORES = Response(GROUP, screen("Scores"), reply_to="7", topic="scores")
RULES = Response(GROUP, screen("Rules"), reply_to="8", topic="rules")
FILE = Document(GROUP, "match.json", b"{}", "the match")


async def test_a_queued_response_is_kept_in_redis_until_it_is_sent(
    fake: FakeBotApi,
    bot: Bot,
    clock: VirtualClock,
    redis_client: aredis.Redis,
    processes: tuple[Liveness, Liveness],
) -> None:
    fake.add_group(GROUP_ID, "Dominoes")
    carrier = Carrier(bot, Renderer("domino_test_bot", clock.wall), MemorySlotBook(), clock)
    outbox = RedisOutbox(redis_client, "tg", processes[0])
    deliverer = Deliverer(carrier, MemorySendLog(), clock, Core().report, outbox=outbox)
    kept_while_sending: list[int] = []

    async def look(call: Call) -> None:
        if call.method == "sendMessage":
            kept_while_sending.append(await redis_client.hlen(keys.outbox(GROUP)))

    fake.watchers["look"] = look
    deliverer.submit([SCORES, RULES])
    await deliverer.drain()
    assert texts(fake, GROUP_ID) == ["Scores", "Rules"]
    assert kept_while_sending == [2, 1]
    assert not await redis_client.exists(keys.outbox(GROUP))


async def test_messages_to_many_chats_at_once_are_each_struck_off(
    fake: FakeBotApi,
    bot: Bot,
    clock: VirtualClock,
    redis_client: aredis.Redis,
    processes: tuple[Liveness, Liveness],
) -> None:
    groups = [ChatRef("tg", str(GROUP_ID - n)) for n in range(6)]
    for group in groups:
        fake.add_group(int(group.chat_id), "Dominoes")
    carrier = Carrier(bot, Renderer("domino_test_bot", clock.wall), MemorySlotBook(), clock)
    outbox = RedisOutbox(redis_client, "tg", processes[0])
    deliverer = Deliverer(carrier, MemorySendLog(), clock, Core().report, outbox=outbox)
    deliverer.submit([Notice(group, screen(f"Hello {n}")) for n, group in enumerate(groups)])
    workers = list(deliverer._workers.values())
    await deliverer.drain()
    assert all(not worker.cancelled() and worker.exception() is None for worker in workers)
    assert [texts(fake, int(group.chat_id)) for group in groups] == [
        [f"Hello {n}"] for n in range(len(groups))
    ]
    assert [await redis_client.exists(keys.outbox(group)) for group in groups] == [0] * 6


async def test_a_response_is_struck_off_as_soon_as_it_is_sent_before_its_tidying(
    fake: FakeBotApi,
    bot: Bot,
    clock: VirtualClock,
    redis_client: aredis.Redis,
    processes: tuple[Liveness, Liveness],
) -> None:
    """The process dies while it deletes the previous response on the topic, right after
    sending the new one: the process after it must not send that response again."""
    fake.add_group(GROUP_ID, "Dominoes")
    book = MemorySlotBook()
    carrier = Carrier(bot, Renderer("domino_test_bot", clock.wall), book, clock)
    first, second = processes
    deliverer = Deliverer(
        carrier,
        MemorySendLog(),
        clock,
        Core().report,
        outbox=RedisOutbox(redis_client, "tg", first),
    )
    await carrier.sender.respond(RULES)  # an older response on the topic, long read
    clock.advance(3600)
    tidying, never = asyncio.Event(), asyncio.Event()

    async def hold(call: Call) -> None:
        if call.method == "deleteMessage":
            tidying.set()
            await never.wait()

    fake.watchers["hold"] = hold
    deliverer.submit([RULES])
    await asyncio.wait_for(tidying.wait(), 10)
    kept = await redis_client.hlen(keys.outbox(GROUP))
    await deliverer.close()  # killed while it tidies
    never.set()
    await first.stop()
    taken = await RedisOutbox(redis_client, "tg", second).take_over(GROUP)
    assert kept == 0 and taken.entries == ()
    assert len(fake.calls_to("sendMessage")) == 2  # the older one and this one, once
