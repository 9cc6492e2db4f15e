"""What goes to a Discord channel goes through the shared deliverer, with a scripted core:
a burst of a slot's versions waiting behind an edit merged into the newest, a table
refused for a missing permission shown once the permission is back, the channel's send
budget kept (on a clock that jumps), a message for one person alone sent to his direct
messages, and what a process that died had queued shown and sent by another."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import redis.asyncio as aredis

from bot.model.contract import Notice, Response, Screen, Show
from bot.table.redraw import Drawn
from tests.adapters.delivery.vclock import VirtualClock
from tests.adapters.discord.conftest import ALICE, BOB
from tests.adapters.discord.fake_api import FakeDiscord
from tests.adapters.discord.fake_wire import SEND_MESSAGES
from tests.adapters.discord.harness import CHANNEL_ID, Bot
from tests.adapters.discord.scripted import ScriptedCore
from tests.adapters.discord.test_interactions import (  # noqa: F401 (fixtures)
    CHAT,
    GAME,
    TABLE,
    bot,
    core,
    person_ref,
    show_table,
    table,
    table_message,
)

CHANNEL_EDIT = rf"/channels/{CHANNEL_ID}/messages/[0-9]+"


def version(number: int) -> Show:
    return Show(TABLE, table(f"version {number}"), number)


async def until(happened: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not happened():
        assert asyncio.get_running_loop().time() < deadline, "it never happened"
        await asyncio.sleep(0.01)


def refused_once(fake: FakeDiscord) -> Callable[[], bool]:
    return lambda: any(r[3] == 429 for r in fake.requests)


async def test_versions_waiting_behind_an_edit_are_merged_into_the_newest(
    bot: Bot,  # noqa: F811
    fake: FakeDiscord,
    core: ScriptedCore,  # noqa: F811
) -> None:
    await show_table(bot, core, version(1))
    fake.throttle("PATCH", CHANNEL_EDIT, retry_after=0.3)  # the next edit waits a while
    await bot.adapter.delivery.carry_out([version(2)])
    await until(refused_once(fake))
    for number in (3, 4, 5):
        await bot.adapter.delivery.carry_out([version(number)])
    await bot.adapter.drain()
    edits = [e.message["content"] for e in fake.channel_events(CHANNEL_ID) if e.action == "edit"]
    assert edits == ["version 2", "version 5"]


async def test_a_table_refused_for_a_missing_permission_is_shown_once_it_is_back(
    bot: Bot,  # noqa: F811
    fake: FakeDiscord,
    core: ScriptedCore,  # noqa: F811
) -> None:
    fake.denied[CHANNEL_ID] = SEND_MESSAGES
    await show_table(bot, core, version(1))
    assert fake.live_channel_messages(CHANNEL_ID) == []
    del fake.denied[CHANNEL_ID]
    bot.adapter.retry_refused_after = 0.0
    await bot.tick()
    assert table_message(fake)["content"] == "version 1"


async def test_a_channel_gets_five_writes_in_five_seconds_and_the_sixth_waits(
    fake: FakeDiscord, redis_client: aredis.Redis
) -> None:
    clock = VirtualClock()
    scripted = ScriptedCore()
    running = await Bot.boot(fake, scripted, redis_client, [ALICE, BOB], pacing=clock)
    try:
        start = clock.now()
        for number in range(1, 6):
            await show_table(running, scripted, version(number))
        assert clock.now() == start, "a write waited within the budget"
        await show_table(running, scripted, version(6))
        assert clock.now() >= start + 5.0
        assert table_message(fake)["content"] == "version 6"
    finally:
        await running.close()


async def test_a_response_for_one_person_goes_to_his_direct_messages(
    bot: Bot,  # noqa: F811
    fake: FakeDiscord,
    core: ScriptedCore,  # noqa: F811
) -> None:
    alice = person_ref(ALICE)
    await show_table(bot, core, Response(CHAT, Screen((("for Alice",),)), to=alice))
    (event,) = [e for e in fake.events if e.message["content"] == "for Alice"]
    channel = fake.channels[int(event.message["channel_id"])]
    assert channel["type"] == 1 and channel["recipient"] == alice.user_id
    assert fake.channel_events(CHANNEL_ID) == []
    assert not any(f"/channels/{ALICE.id}/" in r[2] for r in fake.requests)


async def test_what_a_process_that_died_had_queued_is_shown_and_sent_by_another(
    fake: FakeDiscord, redis_client: aredis.Redis
) -> None:
    first_core, second_core = ScriptedCore(), ScriptedCore()
    first = await Bot.boot(fake, first_core, redis_client, [ALICE, BOB])
    second = await Bot.boot(fake, second_core, redis_client, [ALICE, BOB])
    try:
        await show_table(first, first_core, version(1))
        # The first process's next edit is held up by Discord for a minute...
        fake.throttle("PATCH", CHANNEL_EDIT, retry_after=60.0)
        joined = Notice(CHAT, Screen((("Bob joined",),)))
        await first.adapter.delivery.carry_out([version(2), joined])
        await until(refused_once(fake))
        await first.stop()  # ...and it dies with the table and a notice queued.
        second_core.drawn = Drawn(GAME, 2, True, (version(2),))
        await second.tick()
        message_id = await second.adapter.delivery.book.message_of(TABLE)
        assert message_id is not None
        assert fake.messages[message_id]["content"] == "version 2"
        live = [m["content"] for m in fake.live_channel_messages(CHANNEL_ID)]
        assert sorted(live) == ["Bob joined", "version 2"]
    finally:
        await second.close()
