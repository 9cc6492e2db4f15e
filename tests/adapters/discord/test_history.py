"""``/domino history`` on Discord, through discord.py and the fake API: the list is
posted in the channel, and a Replay button sends the pictures of the match's deals and
its replay file to the presser alone, as ephemeral messages."""

from __future__ import annotations

import pytest
import redis.asyncio as aredis

from bot import codec
from bot.contract import ChatRef
from bot.history import KeptMatch
from bot.store import Store
from tests.adapters.discord.conftest import ALICE, BOB
from tests.adapters.discord.fake_api import FakeDiscord
from tests.adapters.discord.harness import CHANNEL_ID, Bot, payloads_of
from tests.adapters.discord.matches import a_match_played, plain_text


@pytest.mark.slow
async def test_a_replay_button_sends_the_match_to_the_presser_alone(
    bot: Bot, fake: FakeDiscord, redis_client: aredis.Redis
) -> None:
    await a_match_played(bot, redis_client, "tyaga", target=10)
    in_channel = len(fake.live_channel_messages(CHANNEL_ID))
    listed = bot.reply_to(await bot.command(ALICE, "history"))
    assert "newest first" in plain_text(listed)
    (payload,) = [p for p in payloads_of(listed) if p.startswith("1x_")]
    action = codec.decode(payload)
    assert isinstance(action, codec.ReplayPick)
    kept = await Store(redis_client).history.one(ChatRef("dc", str(CHANNEL_ID)), action.game_id)
    assert kept is not None
    deals = len(KeptMatch.model_validate_json(kept).doc().deals)
    before = len(bot.owned_ephemeral(BOB))
    await bot.press_label(BOB, listed, "Replay 1")
    sent = bot.owned_ephemeral(BOB)[before:]
    files = [a["filename"] for m in sent for a in m.get("attachments", [])]
    assert files.count(f"domino-{action.game_id}.json") == 1
    assert len([f for f in files if f.endswith(".png")]) == deals
    # The list is the channel's to see; the replay is Bob's alone.
    assert len(fake.live_channel_messages(CHANNEL_ID)) == in_channel + 1
