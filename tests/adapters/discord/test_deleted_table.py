"""A table someone deletes is posted again at once, with its buttons, so a player who
never opened his hand still has "My tiles", even with the turn timer off (no edit
would bring the table back); the bot's own deletions post nothing again."""

from __future__ import annotations

import asyncio

import redis.asyncio as aredis

from bot.model import codec
from bot.storage.store import Store
from tests.adapters.discord.conftest import ALICE, BOB
from tests.adapters.discord.fake_api import EPHEMERAL, FakeDiscord
from tests.adapters.discord.harness import CHANNEL_ID, Bot
from tests.adapters.discord.matches import (
    boot_bot,
    custom_id_for,
    open_table,
    plain_text,
    table_message,
)
from tests.adapters.discord.test_hands import mover_and_counter


async def drained_after_delete(bot: Bot) -> None:
    """Let the client take in the deletion (an event it handles in a task of its own),
    then wait for what it did."""
    for _ in range(10):
        await asyncio.sleep(0)
    await bot.adapter.drain()


def tables(fake: FakeDiscord) -> list[str]:
    return [
        m["id"]
        for m in fake.live_channel_messages(CHANNEL_ID)
        if custom_id_for(m, codec.TilesPress) is not None
    ]


async def test_a_deleted_table_is_posted_again_at_once_with_its_buttons(
    bot: Bot, fake: FakeDiscord, store: Store
) -> None:
    await open_table(bot, "tyaga", 0)  # no turn timer
    table = table_message(bot)
    bot.gateway.message_deleted(table)
    await drained_after_delete(bot)
    again = table_message(bot)
    assert again["id"] != table["id"]
    mover, _counter = await mover_and_counter(bot, store)
    assert f"<@{mover.id}> to move" in plain_text(again)
    tiles = custom_id_for(again, codec.TilesPress)
    assert tiles is not None
    hand = bot.reply_to(await bot.press(BOB, again, tiles))
    assert "Your tiles" in plain_text(hand)
    assert tables(fake) == [again["id"]]


async def test_a_table_deleted_after_a_restart_is_posted_again(
    bot: Bot, fake: FakeDiscord, store: Store, redis_client: aredis.Redis
) -> None:
    await open_table(bot, "tyaga", 0)
    table = table_message(bot)
    await bot.close()
    restarted = await boot_bot(fake, redis_client)  # it has shown nothing yet
    try:
        restarted.gateway.message_deleted(table)
        await drained_after_delete(restarted)
        again = table_message(restarted)
        assert again["id"] != table["id"]
        mover, _counter = await mover_and_counter(restarted, store)
        assert f"<@{mover.id}> to move" in plain_text(again)
        assert custom_id_for(again, codec.TilesPress) is not None
    finally:
        await restarted.close()


async def test_a_message_no_slot_holds_is_not_posted_again(bot: Bot, fake: FakeDiscord) -> None:
    await open_table(bot, "tyaga", 0)
    record = await bot.command(ALICE, "rules")
    before = len(fake.live_channel_messages(CHANNEL_ID))
    shown = bot.reply_to(record)
    bot.gateway.message_deleted(shown)
    await drained_after_delete(bot)
    assert len(fake.live_channel_messages(CHANNEL_ID)) == before - (0 if shown["flags"] else 1)
    assert len(tables(fake)) == 1


async def test_the_table_command_brings_the_live_table_down_with_its_buttons(
    bot: Bot, fake: FakeDiscord, store: Store
) -> None:
    await open_table(bot, "tyaga", 0)
    older = table_message(bot)
    record = await bot.command(BOB, "table")
    table = table_message(bot)
    assert int(table["id"]) == record.original_id, "the table is not the command's reply"
    assert tables(fake) == [table["id"]], "the older table is still there"
    assert not table["flags"] & EPHEMERAL and table["id"] != older["id"]
    mover, counter = await mover_and_counter(bot, store)
    assert f"<@{mover.id}> to move" in plain_text(table)
    tiles = custom_id_for(table, codec.TilesPress)
    assert tiles is not None
    hand = bot.reply_to(await bot.press(mover, table, tiles))
    move = custom_id_for(hand, codec.MovePress, counter=counter)
    assert move is not None
    await bot.press(mover, hand, move)
    now, _counter = await mover_and_counter(bot, store)
    assert f"<@{now.id}> to move" in plain_text(bot.message(int(table["id"])))
