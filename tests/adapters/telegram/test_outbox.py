"""Responses, notices and files queued and not yet sent are kept in Redis: struck off once
sent, and sent by another process, in the order they were queued, if the one that queued
them is gone."""

from __future__ import annotations

import asyncio
import base64
import os
import pickle
from pathlib import Path

import pytest
import redis.asyncio as aredis
from telegram import Bot

from adapters.telegram.carry import Carrier
from adapters.telegram.deliver import Deliverer
from adapters.telegram.limiter import MemorySendLog
from adapters.telegram.liveness import Liveness
from adapters.telegram.outbox import RECHECK_SECONDS, RedisOutbox, dump, load
from adapters.telegram.render import Renderer
from adapters.telegram.slots import MemorySlotBook
from bot import keys
from bot.contract import (
    Button,
    Card,
    ChatRef,
    CommandRef,
    Document,
    Mention,
    Notice,
    Response,
    Screen,
)
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import Call
from tests.adapters.telegram.mailroom import ANN, GROUP, GROUP_ID, Core, screen, texts
from tests.adapters.telegram.vclock import VirtualClock

SCORES = Response(GROUP, screen("Scores"), reply_to="7", topic="scores")
RULES = Response(GROUP, screen("Rules"), reply_to="8", topic="rules")
FILE = Document(GROUP, "match.json", b"{}", "the match")


def test_a_message_comes_back_as_it_was_queued() -> None:
    rich = Screen(
        lines=(("Won by ", Mention(ANN), ", type ", CommandRef("newgame", "tyaga")),),
        buttons=((Button("Rematch", payload="1r_x"), Button("Open", deep_link="h_g1")),),
        picture=b"\x89PNG",
        card=Card("Tyaga", body=(("a line",),)),
    )
    for message in (Response(GROUP, rich, "7", "scores"), Notice(GROUP, rich), FILE):
        assert load("p.1", dump(message, 12.5)).message == message


def test_an_entry_that_would_call_anything_else_is_refused(tmp_path: Path) -> None:
    made = tmp_path / "made"

    class Trap:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return (os.mkdir, (str(made),))

    forged = "1.0|" + base64.b64encode(pickle.dumps(Trap())).decode()
    with pytest.raises(pickle.UnpicklingError, match="not a message's part"):
        load("p.1", forged)
    assert not made.exists()


async def test_messages_of_a_process_that_is_gone_are_taken_over_in_the_order_queued(
    redis_client: aredis.Redis, processes: tuple[Liveness, Liveness]
) -> None:
    first, second = processes
    queued = RedisOutbox(redis_client, "tg", first)
    await queued.note(GROUP, [(queued.name(2), RULES), (queued.name(1), SCORES)])
    await queued.note(GROUP, [(queued.name(3), FILE)])
    await first.stop()
    taken = await RedisOutbox(redis_client, "tg", second).take_over(GROUP)
    assert [entry.message for entry in taken.entries] == [SCORES, RULES, FILE]
    assert all(entry.name.startswith(second.me + ".") for entry in taken.entries)


async def test_messages_of_a_running_process_are_left_to_it_and_looked_at_again_soon(
    redis_client: aredis.Redis, processes: tuple[Liveness, Liveness]
) -> None:
    first, second = processes
    queued = RedisOutbox(redis_client, "tg", first)
    await queued.note(GROUP, [(queued.name(1), SCORES)])
    taken = await RedisOutbox(redis_client, "tg", second).take_over(GROUP)
    assert taken.entries == () and taken.look_again == RECHECK_SECONDS
    assert await redis_client.zscore(keys.tables_to_check("tg"), GROUP.key) is not None


async def test_only_the_messages_of_the_process_that_is_gone_are_taken_over(
    redis_client: aredis.Redis, processes: tuple[Liveness, Liveness]
) -> None:
    first, second = processes
    third = Liveness(redis_client)
    await third.start()
    try:
        for process, message in ((first, SCORES), (third, RULES)):
            queued = RedisOutbox(redis_client, "tg", process)
            await queued.note(GROUP, [(queued.name(1), message)])
        await first.stop()
        taken = await RedisOutbox(redis_client, "tg", second).take_over(GROUP)
        assert [entry.message for entry in taken.entries] == [SCORES]
        assert taken.look_again == RECHECK_SECONDS
    finally:
        await third.stop()


async def test_a_message_taken_over_goes_to_one_process_only(
    redis_client: aredis.Redis, processes: tuple[Liveness, Liveness]
) -> None:
    first, second = processes
    queued = RedisOutbox(redis_client, "tg", first)
    await queued.note(GROUP, [(queued.name(1), SCORES)])
    await first.stop()
    third = Liveness(redis_client)
    await third.start()
    try:
        assert len((await RedisOutbox(redis_client, "tg", second).take_over(GROUP)).entries) == 1
        assert (await RedisOutbox(redis_client, "tg", third).take_over(GROUP)).entries == ()
    finally:
        await third.stop()


async def test_a_message_struck_off_is_not_sent_again(
    redis_client: aredis.Redis, processes: tuple[Liveness, Liveness]
) -> None:
    first, second = processes
    queued = RedisOutbox(redis_client, "tg", first)
    await queued.note(GROUP, [(queued.name(1), SCORES)])
    await queued.settle(GROUP, queued.name(1))
    await first.stop()
    taken = await RedisOutbox(redis_client, "tg", second).take_over(GROUP)
    assert taken.entries == () and taken.look_again is None


async def test_an_entry_this_version_cannot_read_is_dropped(
    redis_client: aredis.Redis, processes: tuple[Liveness, Liveness]
) -> None:
    first, second = processes
    await redis_client.hset(keys.outbox(GROUP), f"{first.me}.1", "1.0|not a pickle")
    await first.stop()
    taken = await RedisOutbox(redis_client, "tg", second).take_over(GROUP)
    assert taken.entries == ()
    assert not await redis_client.exists(keys.outbox(GROUP))


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
    await deliverer.carrier.respond(RULES)  # an older response on the topic, long read
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
