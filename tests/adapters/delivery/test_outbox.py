"""Responses, notices and files queued and not yet sent are kept in Redis: written as
data and read back as they were queued, struck off once sent, and taken over by another
process, in the order they were queued, if the one that queued them is gone."""

from __future__ import annotations

import asyncio
import logging
import pickle
from pathlib import Path

import pytest
import redis.asyncio as aredis

from adapters.delivery.deliver import Deliverer
from adapters.delivery.limiter import MemorySendLog, SendTurns
from adapters.delivery.liveness import Liveness
from adapters.delivery.outbox import (
    RECHECK_SECONDS,
    RedisOutbox,
    Unreadable,
    decode,
    dump,
    encode,
    load,
)
from adapters.delivery.pending import RedisPendingBook
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
    UserRef,
)
from bot.storage import keys
from tests.adapters.delivery.test_deliverer import Core, Transport
from tests.adapters.delivery.vclock import VirtualClock
from tests.crafted import file_making_pickle, old_outbox_entry

GROUP_ID = -100123
GROUP = ChatRef("tg", str(GROUP_ID))
ANN = UserRef("tg", "42", "Ann")


def screen(text: str) -> Screen:
    return Screen(lines=((text,),))


SCORES = Response(GROUP, screen("Scores"), reply_to="7", topic="scores")
RULES = Response(GROUP, screen("Rules"), reply_to="8", topic="rules")
FILE = Document(GROUP, "match.json", b"{}", "the match")
TABLE = Slot(SlotKind.TABLE, GROUP, "g1")


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
    with caplog.at_level(logging.ERROR, logger="adapters.delivery.outbox"):
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


async def test_what_a_stopping_deliverer_had_not_yet_noted_is_left_for_the_next_process(
    redis_client: aredis.Redis, processes: tuple[Liveness, Liveness]
) -> None:
    first, second = processes
    clock = VirtualClock()
    transport = StuckTransport(clock)  # the first screen's write never comes back
    pending = RedisPendingBook(redis_client, "tg", clock.now)
    delivery = Deliverer(
        transport,
        MemorySendLog(),
        clock,
        Core().report,
        pending=pending,
        outbox=RedisOutbox(redis_client, "tg", first),
    )
    delivery.submit([Show(TABLE, screen("v1"), 1)])
    await transport.stuck.wait()
    # Posted while the mailbox's worker waits on the first write: noted only when it
    # comes back for the next, which it never does before the process stops.
    delivery.submit([SCORES, Show(TABLE, screen("v2"), 2)])
    await delivery.close()
    await first.stop()
    assert await pending.waiting(GROUP) == {TABLE.key: 2}
    taken = await RedisOutbox(redis_client, "tg", second).take_over(GROUP)
    assert [entry.message for entry in taken.entries] == [SCORES]


class StuckTransport(Transport):
    """Shows nothing: a screen's write waits until the deliverer is closed."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.stuck = asyncio.Event()

    async def show(self, show: Show, turns: SendTurns) -> None:
        self.stuck.set()
        await asyncio.Event().wait()
