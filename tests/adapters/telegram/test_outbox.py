"""Responses, notices and files queued and not yet sent are kept in Redis: struck off once
sent, and sent by another process, in the order they were queued, if the one that queued
them is gone."""

from __future__ import annotations

import asyncio
import logging
import pickle
from pathlib import Path

import pytest
import redis.asyncio as aredis
from telegram import Bot

from adapters.telegram.carry import Carrier
from adapters.telegram.deliver import Deliverer
from adapters.telegram.limiter import MemorySendLog
from adapters.telegram.liveness import Liveness
from adapters.telegram.outbox import (
    RECHECK_SECONDS,
    RedisOutbox,
    Unreadable,
    decode,
    dump,
    encode,
    load,
)
from adapters.telegram.render import Renderer
from adapters.telegram.slots import MemorySlotBook
from bot.model.contract import (
    Button,
    Card,
    CardField,
    ChatRef,
    CommandRef,
    Deadline,
    Document,
    Mention,
    Notice,
    Response,
    Screen,
    Show,
    Slot,
    SlotKind,
    Style,
)
from bot.storage import keys
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import Call
from tests.adapters.telegram.mailroom import ANN, GROUP, GROUP_ID, Core, screen, texts
from tests.adapters.telegram.vclock import VirtualClock
from tests.crafted import file_making_pickle, old_outbox_entry

SCORES = Response(GROUP, screen("Scores"), reply_to="7", topic="scores")
RULES = Response(GROUP, screen("Rules"), reply_to="8", topic="rules")
FILE = Document(GROUP, "match.json", b"{}", "the match")


RICH = Screen(
    lines=(
        ("Won by ", Mention(ANN), ", type ", CommandRef("newgame", "tyaga")),
        ("Turn ends ", Deadline(1_700_000_000.25), " ", CommandRef("new", "GAME", usage=True)),
    ),
    buttons=(
        (Button("Rematch", payload="1r_x", style=Style.PRIMARY), Button("Open", deep_link="h_g1")),
        (Button("Rules", url="https://example.org/r"), Button("Stop", "s", style=Style.DANGER)),
        (Button("Gone", payload="x", enabled=False),),
    ),
    picture=b"\x89PNG\r\n\x1a\n\x00\xff",
    card=Card(
        "Tyaga",
        body=(("a line",),),
        tiles="[6|6]",
        fields=(CardField("Ann", ("7 tiles",)),),
        closing=(("Ann to move",),),
        moves=(("Ann: 6-6",),),
    ),
)


def test_a_message_comes_back_as_it_was_queued() -> None:
    """Every kind the adapter queues (responses, notices, files) and the turn pings it
    holds, with every part a screen may have."""
    topic = ChatRef("tg", str(GROUP_ID), "7")
    queued = (
        Response(GROUP, RICH, "7", "scores", public=True),
        Response(topic, screen("plain")),
        Notice(GROUP, RICH),
        Notice(topic, Screen(lines=())),
        FILE,
        Document(GROUP, "picture.png", bytes(range(256)), ""),
    )
    for message in queued:
        assert load("p.1", dump(message, 12.5)).message == message
    hand = Slot(SlotKind.PING, ChatRef("tg", "42"), "g1", ANN, table=GROUP)
    ping = Show(hand, RICH, version=9, notify=True)
    back = decode(encode(ping))
    assert back == ping and isinstance(back, Show) and back.slot.table == GROUP


@pytest.mark.parametrize(
    "data",
    [
        '{"kind": "notice", "message": {"chat": {"platform": "tg", "chat_id": 5}, '
        '"screen": {"lines": []}}}',
        '{"kind": "notice", "message": {"chat": {"platform": "tg", "chat_id": "5", "x": 1}, '
        '"screen": {"lines": []}}}',
        '{"kind": "script", "message": {}}',
        "[]",
        "not json",
    ],
)
def test_an_entry_that_is_not_a_message_is_refused_in_one_line(data: str) -> None:
    with pytest.raises(Unreadable) as refused:
        load("p.1", "1.0|" + data)
    assert "\n" not in str(refused.value)


def test_an_entry_pickled_to_run_code_is_refused_and_runs_nothing(tmp_path: Path) -> None:
    made = tmp_path / "made"
    with pytest.raises(Unreadable):
        load("p.1", old_outbox_entry(str(made)))
    assert not made.exists()
    proof = tmp_path / "proof"  # what unpickling it does: write the file it names
    pickle.loads(file_making_pickle("bot.model.contract", str(proof)))
    assert proof.read_bytes() == b"owned"


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
    await queued.strike_off(GROUP, queued.name(1))
    await first.stop()
    taken = await RedisOutbox(redis_client, "tg", second).take_over(GROUP)
    assert taken.entries == () and taken.look_again is None


async def test_an_entry_that_cannot_be_read_is_set_aside_and_the_rest_is_sent(
    redis_client: aredis.Redis,
    processes: tuple[Liveness, Liveness],
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    first, second = processes
    made = tmp_path / "made"
    crafted = old_outbox_entry(str(made))
    queued = RedisOutbox(redis_client, "tg", first)
    await queued.note(GROUP, [(queued.name(1), SCORES)])
    await redis_client.hset(keys.outbox(GROUP), f"{first.me}.0", crafted)
    await first.stop()
    with caplog.at_level(logging.ERROR, logger="adapters.telegram.outbox"):
        taken = await RedisOutbox(redis_client, "tg", second).take_over(GROUP)
    assert [entry.message for entry in taken.entries] == [SCORES]
    assert not made.exists()
    aside = keys.outbox_aside(GROUP)
    assert await redis_client.hgetall(aside) == {f"{second.me}.{first.me}.0": crafted}
    assert 0 < await redis_client.ttl(aside) <= 30 * 86400
    assert await redis_client.hkeys(keys.outbox(GROUP)) == [taken.entries[0].name]
    (record,) = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert "cannot be read" in record.getMessage() and aside in record.getMessage()
    assert "\n" not in record.getMessage()


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
    await deliverer.carrier.sender.respond(RULES)  # an older response on the topic, long read
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
