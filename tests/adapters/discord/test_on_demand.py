"""What a person asks for is his alone, and an interaction Discord delivers after its
window is not applied: a Picture press by someone not playing is answered to him
alone, and a press replayed after a gateway resume, which its person saw fail, moves
nothing."""

from __future__ import annotations

import asyncio

from bot.model import codec
from bot.storage.store import Store
from tests.adapters.discord.conftest import CAROL
from tests.adapters.discord.fake_api import EPHEMERAL, FakeDiscord
from tests.adapters.discord.harness import CHANNEL_ID, Bot
from tests.adapters.discord.matches import custom_id_for, open_table, rest_calls, table_message
from tests.adapters.discord.test_hands import mover_and_counter, my_tiles


async def test_a_picture_asked_for_by_someone_not_playing_is_shown_to_him_alone(
    bot: Bot, fake: FakeDiscord
) -> None:
    await open_table(bot, "tyaga", 0)
    table = table_message(bot)
    picture = custom_id_for(table, codec.PicturePress)
    assert picture is not None
    before = len(fake.live_channel_messages(CHANNEL_ID))
    record = await bot.press(CAROL, table, picture)
    (callback,) = record.callbacks
    assert callback["type"] == 4 and callback["data"]["flags"] & EPHEMERAL
    assert bot.reply_to(record)["attachments"], "the answer carries no picture"
    assert len(fake.live_channel_messages(CHANNEL_ID)) == before


async def test_a_picture_press_costs_no_request_besides_its_response(
    bot: Bot, fake: FakeDiscord
) -> None:
    await open_table(bot, "tyaga", 0)
    table = table_message(bot)
    picture = custom_id_for(table, codec.PicturePress)
    assert picture is not None
    since = len(fake.requests)
    record = await bot.press(CAROL, table, picture)
    assert rest_calls(fake, since) == 0
    assert bot.reply_to(record)["attachments"], "the answer carries no picture"


async def test_a_picture_press_answered_late_still_shows_the_picture(
    bot: Bot, fake: FakeDiscord
) -> None:
    await open_table(bot, "tyaga", 0)
    table = table_message(bot)
    picture = custom_id_for(table, codec.PicturePress)
    assert picture is not None
    bot.adapter.defer_after = 0.0
    before = len([m for m in fake.messages.values() if m.get("attachments")])
    await bot.press(CAROL, table, picture)
    assert len([m for m in fake.messages.values() if m.get("attachments")]) == before + 1


async def test_a_press_delivered_after_its_window_moves_nothing(
    bot: Bot, fake: FakeDiscord, store: Store
) -> None:
    await open_table(bot, "tyaga", 0)
    mover, counter = await mover_and_counter(bot, store)
    hand = await my_tiles(bot, mover)
    move = custom_id_for(hand, codec.MovePress, counter=counter)
    assert move is not None
    record = bot.gateway.component(mover, hand, move, age=5.0)
    for _ in range(20):  # let the client take it in, in a task of its own
        await asyncio.sleep(0.01)
    await bot.adapter.drain()
    _mover, now = await mover_and_counter(bot, store)
    assert now == counter, "a press its person saw fail was applied"
    assert record.callbacks == []
