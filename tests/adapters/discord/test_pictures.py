"""The table as a picture on Discord: the Picture button shows it to the presser alone
(ephemeral) as an embed's image (the table command brings the live table instead),
pictures=on edits one such message move after move, and a deal's summary carries the
picture of its end."""

from __future__ import annotations

import pytest
import redis.asyncio as aredis

from bot.model import codec
from bot.storage.store import Store
from tests.adapters.discord.conftest import ALICE, BOB
from tests.adapters.discord.fake_api import Json
from tests.adapters.discord.harness import CHANNEL_ID, Bot
from tests.adapters.discord.matches import (
    Referee,
    custom_id_for,
    open_table,
    plain_text,
    play_one,
    play_to_the_end,
    table_message,
)

IMAGE = "attachment://table.png"


def _shows_picture(message: Json) -> bool:
    return any((e.get("image") or {}).get("url") == IMAGE for e in message.get("embeds") or [])


def _pictures(bot: Bot) -> list[Json]:
    """Messages in the channel now showing a picture, oldest first."""
    return [m for m in bot.fake.live_channel_messages(CHANNEL_ID) if _shows_picture(m)]


def _attached(message: Json) -> tuple[str, int]:
    (attachment,) = message["attachments"]
    return attachment["filename"], attachment["size"]


@pytest.mark.slow
async def test_the_picture_button_shows_the_picture_to_the_presser_alone(bot: Bot) -> None:
    await open_table(bot, "tyaga", 0)
    table = table_message(bot)
    picture = custom_id_for(table, codec.PicturePress)
    assert picture is not None, "the table has no Picture button"
    await bot.press(BOB, table, picture)
    (shown,) = [m for m in bot.owned_ephemeral(BOB) if _shows_picture(m)]
    name, size = _attached(shown)
    assert name == "table.png" and size > 1000
    assert "Deal 1" in plain_text(shown)
    await bot.command(ALICE, "table")  # the live table itself, posted again below
    assert not [m for m in bot.owned_ephemeral(ALICE) if _shows_picture(m)]
    assert _pictures(bot) == []  # nothing asked for is posted in the channel


@pytest.mark.slow
async def test_pictures_on_edits_one_message_move_after_move(
    bot: Bot, redis_client: aredis.Redis
) -> None:
    referee = Referee(bot, Store(redis_client))
    await open_table(bot, "tyaga", 0)
    await bot.command(ALICE, "settings", change="pictures=on")
    first = _pictures(bot)
    assert len(first) == 1, "turning pictures on did not show one"
    sizes = {_attached(first[0])}
    for _ in range(3):
        assert await play_one(bot, referee)
        shown = _pictures(bot)
        assert [m["id"] for m in shown] == [first[0]["id"]], "a move posted a new picture"
        sizes.add(_attached(shown[0]))
    assert len(sizes) > 1, "the picture never changed"


@pytest.mark.slow
async def test_hand_picture_takes_on_or_off_as_a_choice(
    bot: Bot, redis_client: aredis.Redis
) -> None:
    referee = Referee(bot, Store(redis_client))
    await open_table(bot, "tyaga", 0)
    record = await bot.command(ALICE, "hand_picture", state="on")
    assert "a picture of your tiles" in plain_text(bot.reply_to(record))
    found = await referee.state()
    assert found is not None and found[0].seats[0].pictures


@pytest.mark.slow
async def test_a_deals_end_is_told_in_the_table_not_in_a_picture_of_its_own(
    bot: Bot, redis_client: aredis.Redis
) -> None:
    referee = Referee(bot, Store(redis_client))
    await open_table(bot, "baghdad", 0, match="deals:2")
    await play_to_the_end(bot, referee)
    assert not [m for m in _pictures(bot) if "Deal 1 is over." in plain_text(m)]
