"""At the start of each deal the table is posted anew at the bottom of the channel,
below the last deal's summary picture, and its older message is deleted, or cut to its first
line without buttons where Discord refuses the delete: players never scroll up to the
table, and only its newest copy can be pressed."""

from __future__ import annotations

import pytest
import redis.asyncio as aredis

from bot.storage.store import Store
from tests.adapters.discord.fake_api import FakeDiscord, Json
from tests.adapters.discord.harness import CHANNEL_ID, Bot, buttons_of
from tests.adapters.discord.matches import (
    MAX_STEPS,
    Referee,
    open_table,
    plain_text,
    play_one,
    table_message,
)


async def play_until_deal(bot: Bot, referee: Referee, number: int) -> None:
    """Play until deal ``number`` has begun."""
    for _ in range(MAX_STEPS):
        found = await referee.state()
        assert found is not None and found[0].active, "the match ended first"
        state = found[1]
        if state is not None and state.deal_number >= number and not state.deal_over:
            return
        await play_one(bot, referee)
    raise AssertionError(f"deal {number} never began")


def last_live(fake: FakeDiscord) -> Json:
    return max(fake.live_channel_messages(CHANNEL_ID), key=lambda m: int(m["id"]))


@pytest.mark.slow
async def test_a_new_deal_posts_the_table_last_and_deletes_the_old_one(
    bot: Bot, fake: FakeDiscord, redis_client: aredis.Redis
) -> None:
    referee = Referee(bot, Store(redis_client))
    await open_table(bot, "tyaga", 0, target=100)
    first = table_message(bot)
    await play_until_deal(bot, referee, 2)

    table = table_message(bot)
    assert table["id"] != first["id"]
    assert int(first["id"]) not in fake.messages, "the first deal's table is still there"
    assert last_live(fake)["id"] == table["id"], "the table is not the channel's last message"
    pictures = [m for m in fake.live_channel_messages(CHANNEL_ID) if m.get("attachments")]
    assert pictures, "the first deal's summary picture was not posted"
    assert all(int(m["id"]) < int(table["id"]) for m in pictures)


@pytest.mark.slow
async def test_a_table_that_cannot_be_deleted_is_cut_to_a_stub_without_buttons(
    bot: Bot, fake: FakeDiscord, redis_client: aredis.Redis
) -> None:
    referee = Referee(bot, Store(redis_client))
    await open_table(bot, "tyaga", 0, target=100)
    first = table_message(bot)
    fake.undeletable.add(int(first["id"]))
    await play_until_deal(bot, referee, 2)

    table = table_message(bot)
    assert last_live(fake)["id"] == table["id"]
    stub = fake.messages[int(first["id"])]
    assert buttons_of(stub) == []
    assert plain_text(stub).strip() and len(plain_text(stub).splitlines()) == 1
