"""A hand older than Discord's fifteen minutes can no longer be edited, so it goes on
saying "wait for your turn" when the turn comes: the player is pinged at once and
told to press "My tiles" for his tiles as they are."""

from __future__ import annotations

from adapters.discord.messages import TOKEN_LIFETIME
from bot.model import codec
from bot.storage.store import Store
from tests.adapters.discord.conftest import ALICE, BOB
from tests.adapters.discord.fake_api import FakeDiscord
from tests.adapters.discord.harness import CHANNEL_ID, Bot
from tests.adapters.discord.matches import custom_id_for, open_table, plain_text
from tests.adapters.discord.test_hands import mover_and_counter, my_tiles


async def test_a_player_whose_hand_can_no_longer_be_edited_is_told_to_press_my_tiles(
    bot: Bot, fake: FakeDiscord, store: Store
) -> None:
    await open_table(bot, "tyaga", 0)
    mover, counter = await mover_and_counter(bot, store)
    waiting = BOB if mover is ALICE else ALICE
    await my_tiles(bot, waiting)  # "wait for your turn", and it stays so
    fake.advance(TOKEN_LIFETIME + 1)
    delivery = bot.adapter.delivery
    later = delivery.messages.clock() + TOKEN_LIFETIME + 1
    delivery.messages.clock = delivery.pings.clock = lambda: later
    hand = await my_tiles(bot, mover)
    move = custom_id_for(hand, codec.MovePress, counter=counter)
    assert move is not None
    await bot.press(mover, hand, move)
    await bot.tick()
    pings = [
        plain_text(e.message)
        for e in fake.channel_events(CHANNEL_ID)
        if e.action == "create" and f"<@{waiting.id}>" in (e.message.get("content") or "")
    ]
    assert pings, "the player whose turn it is was not pinged"
    assert "My tiles" in pings[-1]
