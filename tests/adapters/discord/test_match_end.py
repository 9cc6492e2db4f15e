"""A finished match's result is the channel's last message: the table is posted
anew below the last deal's picture, once, and its older message is gone."""

from __future__ import annotations

import pytest
import redis.asyncio as aredis

from bot.model import codec
from tests.adapters.discord.fake_api import FakeDiscord
from tests.adapters.discord.harness import CHANNEL_ID, Bot
from tests.adapters.discord.matches import (
    a_match_played,
    custom_id_for,
    plain_text,
)


@pytest.mark.slow
async def test_the_result_is_posted_last_below_the_last_deals_picture(
    bot: Bot, fake: FakeDiscord, redis_client: aredis.Redis
) -> None:
    await a_match_played(bot, redis_client, "tyaga", target=10)
    live = sorted(fake.live_channel_messages(CHANNEL_ID), key=lambda m: int(m["id"]))
    finals = [m for m in live if "The match is over" in plain_text(m)]
    assert len(finals) == 1, "the result was shown twice"
    assert live[-1] is finals[0]
    assert custom_id_for(finals[0], codec.RematchPress) is not None
    pictures = [m for m in live if m.get("attachments")]
    assert pictures and int(pictures[-1]["id"]) < int(finals[0]["id"])
    tables = [m for m in live if any(embed.get("title") for embed in m["embeds"])]
    assert tables == finals, "an older table was left behind"


@pytest.mark.slow
async def test_the_result_gives_the_last_deals_points_and_the_ratings_as_telegram_does(
    bot: Bot, fake: FakeDiscord, redis_client: aredis.Redis
) -> None:
    await a_match_played(bot, redis_client, "tyaga", target=10)
    [final] = [
        m for m in fake.live_channel_messages(CHANNEL_ID) if "The match is over" in plain_text(m)
    ]
    [card] = final["embeds"]
    told = card["description"].splitlines()
    breakdown = [line for line in told if line.endswith(" in all")]
    assert len(breakdown) == 2, told  # Alice's and Bob's
    assert all(" this deal, " in line for line in breakdown)
    assert any(line.startswith("Ratings: ") for line in told), told
