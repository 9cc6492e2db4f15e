"""How the adapter carries out what the core shows over time, with a scripted core:
the table edited in place by version, held pings, hands refreshed through their
token, rate limits, and two processes sharing one channel."""

from __future__ import annotations

import asyncio
import time

import redis.asyncio as aredis

from adapters.pings import PING_HOLD
from bot.model.contract import (
    Answer,
    Button,
    ChatRef,
    Delete,
    Mention,
    Screen,
    Show,
    Slot,
    SlotKind,
)
from tests.adapters.discord.conftest import ALICE, BOB
from tests.adapters.discord.fake_api import FakeDiscord
from tests.adapters.discord.harness import CHANNEL_ID, Bot, labels_of
from tests.adapters.discord.scripted import ScriptedCore
from tests.adapters.discord.test_interactions import (  # noqa: F401 (fixtures)
    CHAT,
    GAME,
    TABLE,
    bot,
    core,
    hand,
    hand_slot,
    person_ref,
    show_table,
    table,
    table_message,
)


async def test_the_table_is_one_message_edited_in_place(
    bot: Bot,  # noqa: F811
    fake: FakeDiscord,
    core: ScriptedCore,  # noqa: F811
) -> None:
    for version in (1, 2, 3):
        await show_table(bot, core, Show(TABLE, table(f"version {version}"), version))
    assert table_message(fake)["content"] == "version 3"
    actions = [e.action for e in fake.channel_events(CHANNEL_ID)]
    assert actions == ["create", "edit", "edit"]


async def test_an_older_version_never_overwrites_a_newer_one(
    bot: Bot,  # noqa: F811
    fake: FakeDiscord,
    core: ScriptedCore,  # noqa: F811
) -> None:
    await show_table(bot, core, Show(TABLE, table("version 5"), 5))
    await show_table(bot, core, Show(TABLE, table("version 4"), 4))
    assert table_message(fake)["content"] == "version 5"


async def test_a_table_redrawn_as_a_press_s_reply_is_never_overwritten_by_an_older_edit(
    bot: Bot,  # noqa: F811
    fake: FakeDiscord,
    core: ScriptedCore,  # noqa: F811
) -> None:
    await show_table(bot, core, Show(TABLE, table("Lobby: Alice"), 1))
    core.answer = lambda inbound: [Answer("You joined"), Show(TABLE, table("Lobby: Alice, Bob"), 3)]
    record = await bot.press_label(BOB, table_message(fake), "My tiles")
    assert record.callbacks[0]["type"] == 7  # the table was redrawn as the reply
    assert await bot.adapter.delivery.book.version_of(TABLE) == 3
    await bot.adapter.delivery.carry_out([Show(TABLE, table("Lobby: Alice, Carol"), 2)])
    await bot.adapter.drain()
    assert table_message(fake)["content"] == "Lobby: Alice, Bob"
    assert [e.via for e in fake.channel_events(CHANNEL_ID)] == ["channel", "callback"]


async def ping_alice(bot: Bot, core: ScriptedCore) -> Slot:  # noqa: F811
    alice = person_ref(ALICE)
    ping = Slot(SlotKind.PING, ChatRef("dc", alice.user_id), GAME, alice, CHAT)
    await show_table(bot, core, Show(ping, Screen(((Mention(alice), ", your turn"),)), 3, True))
    return ping


async def test_a_ping_is_held_back_then_names_its_player_alone_and_goes_after_his_move(
    bot: Bot,  # noqa: F811
    fake: FakeDiscord,
    core: ScriptedCore,  # noqa: F811
) -> None:
    ping = await ping_alice(bot, core)
    assert fake.live_channel_messages(CHANNEL_ID) == []  # held back: the table says it
    bot.adapter.delivery.pings.clock = lambda: time.time() + PING_HOLD + 1
    await bot.tick()
    (message,) = fake.live_channel_messages(CHANNEL_ID)
    assert message["content"] == f"<@{ALICE.id}>, your turn"
    assert message["allowed_mentions"]["parse"] == []
    assert [int(u) for u in message["allowed_mentions"]["users"]] == [ALICE.id]
    await show_table(bot, core, Delete(ping, 4))
    assert fake.live_channel_messages(CHANNEL_ID) == []
    assert [(e.action, e.message["id"]) for e in fake.channel_events(CHANNEL_ID)] == [
        ("create", message["id"]),
        ("delete", message["id"]),
    ]


async def test_a_held_ping_is_dropped_when_its_player_moves_first(
    bot: Bot,  # noqa: F811
    fake: FakeDiscord,
    core: ScriptedCore,  # noqa: F811
) -> None:
    ping = await ping_alice(bot, core)
    await show_table(bot, core, Delete(ping))
    bot.adapter.delivery.pings.clock = lambda: time.time() + PING_HOLD + 1
    await bot.tick()
    assert fake.live_channel_messages(CHANNEL_ID) == []
    assert fake.channel_events(CHANNEL_ID) == []


async def test_a_hand_is_refreshed_through_its_token_while_the_token_is_young(
    bot: Bot,  # noqa: F811
    fake: FakeDiscord,
    core: ScriptedCore,  # noqa: F811
) -> None:
    await show_table(bot, core, Show(TABLE, table("Bob to move"), 1))
    core.answer = lambda inbound: [Answer("", False, hand("Wait for your turn", []))]
    record = await bot.press_label(ALICE, table_message(fake), "My tiles")
    await show_table(bot, core, Show(hand_slot(ALICE), hand("Your turn", ["3-3"]), 2))
    assert labels_of(bot.reply_to(record)) == ["3-3"]
    (push,) = [r for r in fake.requests if r[1] == "PATCH" and "/webhooks/" in r[2]]
    assert push[2].endswith(f"/{record.token}/messages/@original") and push[3] == 200

    messages = bot.adapter.delivery.messages
    messages.clock = lambda: time.time() + 15 * 60
    await show_table(bot, core, Show(hand_slot(ALICE), hand("Your turn again", ["4-4"]), 3))
    assert labels_of(bot.reply_to(record)) == ["3-3"]


async def test_a_rate_limit_is_waited_out(
    bot: Bot,  # noqa: F811
    fake: FakeDiscord,
    core: ScriptedCore,  # noqa: F811
) -> None:
    fake.throttle("POST", rf"/channels/{CHANNEL_ID}/messages", retry_after=0.3)
    started = time.monotonic()
    await show_table(bot, core, Show(TABLE, table("Alice to move"), 1))
    assert table_message(fake)["content"] == "Alice to move"
    sends = [r for r in fake.requests if r[1] == "POST" and "/messages" in r[2]]
    assert [r[3] for r in sends] == [429, 200]
    assert sends[1][0] - sends[0][0] >= 0.3
    assert time.monotonic() - started >= 0.3


async def test_two_processes_never_leave_an_older_table_over_a_newer_one(
    fake: FakeDiscord, redis_client: aredis.Redis
) -> None:
    first = await Bot.boot(fake, ScriptedCore(), redis_client, [ALICE, BOB])
    second = await Bot.boot(fake, ScriptedCore(), redis_client, [ALICE, BOB])
    try:
        await first.adapter.delivery.show(Show(TABLE, table("version 1"), 1))
        # The first process's next edit is held up by a rate limit...
        fake.throttle("PATCH", rf"/channels/{CHANNEL_ID}/messages/[0-9]+", retry_after=0.3)
        older = asyncio.create_task(first.adapter.delivery.show(Show(TABLE, table("version 2"), 2)))
        await asyncio.sleep(0.1)
        # ...while the second process shows a newer version.
        await second.adapter.delivery.show(Show(TABLE, table("version 3"), 3))
        await older
        assert table_message(fake)["content"] == "version 3"
    finally:
        await first.close()
        await second.close()


async def test_a_hand_that_would_look_the_same_is_not_edited_again(
    bot: Bot,  # noqa: F811
    fake: FakeDiscord,
    core: ScriptedCore,  # noqa: F811
) -> None:
    await show_table(bot, core, Show(TABLE, table("Bob to move"), 1))
    core.answer = lambda inbound: [Answer("", False, hand("Wait for your turn", []))]
    await bot.press_label(ALICE, table_message(fake), "My tiles")

    def waiting(counter: int) -> Screen:
        # Tiles that cannot be played, whose payloads name the turn they were made for.
        tiles = tuple(
            Button(t, payload=f"1u_{GAME}_{counter}_{i}", enabled=False)
            for i, t in enumerate(("6-6", "5-1"))
        )
        return Screen((("Wait for your turn",),), (tiles,))

    for version, counter in ((2, 4), (3, 5), (4, 6)):
        await show_table(bot, core, Show(hand_slot(ALICE), waiting(counter), version))
    pushes = [r for r in fake.requests if r[1] == "PATCH" and "/webhooks/" in r[2]]
    assert len(pushes) == 1
    await show_table(bot, core, Show(hand_slot(ALICE), hand("Your turn", ["6-6"]), 5))
    pushes = [r for r in fake.requests if r[1] == "PATCH" and "/webhooks/" in r[2]]
    assert len(pushes) == 2
