"""``/domino history`` on Discord, through discord.py and the fake API: the list is
posted in the channel, and a Replay button sends the pictures of the match's deals and
its replay file to the presser alone, as ephemeral messages."""

from __future__ import annotations

import pytest
import redis.asyncio as aredis

from bot.model import codec
from bot.model.contract import ChatRef
from bot.storage.kept_match import KeptMatch
from bot.storage.store import Store
from tests.adapters.discord.conftest import ALICE, BOB
from tests.adapters.discord.fake_api import FakeDiscord
from tests.adapters.discord.harness import CHANNEL_ID, Bot, buttons_of, payloads_of
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


@pytest.mark.slow
async def test_the_review_button_on_the_last_hand_answers_the_player_alone(
    bot: Bot, fake: FakeDiscord, redis_client: aredis.Redis
) -> None:
    await a_match_played(bot, redis_client, "tyaga", target=10)
    hands = [
        m
        for m in bot.owned_ephemeral(ALICE)
        if any(b.get("label") == "Review my play" for b in buttons_of(m))
    ]
    assert hands, "no hand offers a review"
    in_channel = len(fake.live_channel_messages(CHANNEL_ID))
    before = len(bot.owned_ephemeral(ALICE))
    await bot.press_label(ALICE, hands[-1], "Review my play")
    sent = bot.owned_ephemeral(ALICE)[before:]
    texts = [plain_text(m) for m in sent]
    told = next(t for t in texts if "Your play in" in t)
    costly = told.count("points more chance of winning")
    pictures = [a for m in sent for a in m.get("attachments", []) if a["filename"].endswith(".png")]
    assert len(pictures) == costly
    assert len(fake.live_channel_messages(CHANNEL_ID)) == in_channel
