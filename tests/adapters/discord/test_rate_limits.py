"""A channel whose edits Discord rate-limits for a while: the players' hands (pushed
through their interactions' webhooks, which Discord limits apart) never wait for the
table, the table's edits waiting meanwhile are merged into the newest, and that one
is tried again until it is shown."""

from __future__ import annotations

import re

import pytest

from bot.model import codec
from bot.storage.store import Store
from tests.adapters.discord.conftest import ALICE, BOB
from tests.adapters.discord.fake_api import FakeDiscord, Json
from tests.adapters.discord.harness import Bot
from tests.adapters.discord.matches import custom_id_for, open_table, plain_text, table_message
from tests.adapters.discord.test_hands import mover_and_counter, my_tiles

CHANNEL_EDIT = r"/channels/[0-9]+/messages/[0-9]+"
HAND_EDIT = re.compile(r"/webhooks/[0-9]+/[^/]+/messages/.+")


async def move_from_hand(bot: Bot, store: Store, hands: dict[int, Json]) -> None:
    """The player to move presses his first move on his hand, and the bot answers."""
    mover, counter = await mover_and_counter(bot, store)
    hand = bot.message(int(hands[mover.id]["id"]))
    move = custom_id_for(hand, codec.MovePress, counter=counter)
    assert move is not None
    await bot.finish(bot.gateway.component(mover, hand, move), channels=False)


@pytest.mark.slow
@pytest.mark.parametrize("is_global", [False, True], ids=["per-route", "global"])
async def test_hands_do_not_wait_for_a_rate_limited_table_and_the_newest_table_is_shown(
    bot: Bot, fake: FakeDiscord, store: Store, is_global: bool
) -> None:
    await open_table(bot, "tyaga", 0)
    hands = {p.id: await my_tiles(bot, p) for p in (ALICE, BOB)}
    # Twenty seconds of 429s on every edit of a channel message.
    fake.throttle("PATCH", CHANNEL_EDIT, retry_after=1.0, times=20, is_global=is_global)
    throttled_from = len(fake.requests)
    for _ in range(3):
        before = len(fake.requests)
        await move_from_hand(bot, store, hands)
        since = fake.requests[before:]
        pushed = [i for i, r in enumerate(since) if r[1] == "PATCH" and HAND_EDIT.fullmatch(r[2])]
        refused = [i for i, r in enumerate(since) if r[1] == "PATCH" and r[3] == 429]
        assert pushed, "the other player's hand was not brought up to date"
        assert len([i for i in refused if i < pushed[0]]) <= 1, "the hand waited for the table"
    await bot.adapter.drain()  # the table's queue, once Discord lets it through
    shown = [r for r in fake.requests[throttled_from:] if r[1] == "PATCH" and r[3] == 200]
    table_edits = [r for r in shown if re.fullmatch(CHANNEL_EDIT, r[2])]
    assert len(table_edits) == 1, "the table's versions were sent one by one"
    mover, _counter = await mover_and_counter(bot, store)
    assert f"<@{mover.id}> to move" in plain_text(table_message(bot))


@pytest.mark.slow
async def test_hands_are_pushed_while_a_global_rate_limit_holds_the_channel(
    bot: Bot, fake: FakeDiscord, store: Store
) -> None:
    await open_table(bot, "tyaga", 0)
    hands = {p.id: await my_tiles(bot, p) for p in (ALICE, BOB)}
    # One global 429 on the table's edit: for twenty seconds the bot may make no request
    # but its interactions' own, which Discord does not count in the global limit.
    fake.throttle("PATCH", CHANNEL_EDIT, retry_after=20.0, is_global=True)
    throttled_from = len(fake.requests)
    for _ in range(3):
        before = len(fake.requests)
        await move_from_hand(bot, store, hands)
        pushed = [r for r in fake.requests[before:] if HAND_EDIT.fullmatch(r[2]) and r[3] == 200]
        assert pushed, "the other player's hand was not brought up to date"
        shown = [r for r in fake.requests[throttled_from:] if re.fullmatch(CHANNEL_EDIT, r[2])]
        assert [r[3] for r in shown] == [429], "the hand waited for the global limit to pass"
    await bot.adapter.drain()  # the table, once the limit has passed
    shown = [r for r in fake.requests[throttled_from:] if re.fullmatch(CHANNEL_EDIT, r[2])]
    # The edit Discord held comes through, then the newest version alone.
    assert [r[3] for r in shown] == [429, 200, 200]
    mover, _counter = await mover_and_counter(bot, store)
    assert f"<@{mover.id}> to move" in plain_text(table_message(bot))
