"""One live hand per player, through the real client and core: a newer copy of a
hand retires the older one, an old copy pressed is redrawn as the hand is now, and
a finished match leaves no hand with a move to press."""

from __future__ import annotations

import pytest
import redis.asyncio as aredis

from adapters.discord.messages import TOKEN_LIFETIME
from bot.model import codec
from bot.storage.store import Store
from tests.adapters.discord.conftest import ALICE, BOB
from tests.adapters.discord.fake_api import FakeDiscord, Json
from tests.adapters.discord.gateway import Person
from tests.adapters.discord.harness import Bot, payloads_of
from tests.adapters.discord.matches import (
    Referee,
    custom_id_for,
    decode,
    open_table,
    plain_text,
    play_to_the_end,
    table_message,
)


def live_hands(bot: Bot, person: Person) -> list[Json]:
    """The person's ephemeral messages that still have a move to press."""
    return [
        m
        for m in bot.owned_ephemeral(person)
        if any(isinstance(decode(p), codec.MovePress) for p in payloads_of(m))
    ]


async def mover_and_counter(bot: Bot, store: Store) -> tuple[Person, int]:
    found = await Referee(bot, store).state()
    assert found is not None and found[1] is not None
    doc, state = found
    user = doc.seats[state.turn].user
    return (ALICE if user.user_id == str(ALICE.id) else BOB), state.counter


async def my_tiles(bot: Bot, person: Person) -> Json:
    table = table_message(bot)
    tiles = custom_id_for(table, codec.TilesPress)
    assert tiles is not None
    return bot.reply_to(await bot.press(person, table, tiles))


async def test_after_a_second_my_tiles_only_the_newest_hand_has_buttons(
    bot: Bot,
    store: Store,
) -> None:
    await open_table(bot, "tyaga", 0)
    mover, _counter = await mover_and_counter(bot, store)
    first = await my_tiles(bot, mover)
    second = await my_tiles(bot, mover)
    assert first["id"] != second["id"]
    assert [m["id"] for m in live_hands(bot, mover)] == [second["id"]]
    retired = bot.message(int(first["id"]))
    assert payloads_of(retired) == [] and "newer message" in plain_text(retired)


async def test_a_press_on_an_old_hand_redraws_it_as_the_hand_is_now(
    bot: Bot,
    fake: FakeDiscord,
    store: Store,
) -> None:
    await open_table(bot, "tyaga", 0)
    mover, counter = await mover_and_counter(bot, store)
    old = await my_tiles(bot, mover)
    # Past the token's lifetime the old copy cannot be edited any more...
    fake.advance(TOKEN_LIFETIME + 1)
    messages = bot.adapter.delivery.messages
    start = messages.clock()
    messages.clock = lambda: start + TOKEN_LIFETIME + 1
    new = await my_tiles(bot, mover)
    assert len(live_hands(bot, mover)) == 2
    move = custom_id_for(new, codec.MovePress, counter=counter)
    assert move is not None
    await bot.press(mover, new, move)
    # ...but pressing one of its stale moves redraws it in place, without refusing.
    stale = custom_id_for(old, codec.MovePress, counter=counter)
    assert stale is not None
    record = await bot.press(mover, old, stale)
    assert record.callbacks[0]["type"] == 7
    redrawn = bot.message(int(old["id"]))
    assert "Your tiles" in plain_text(redrawn)
    assert not any(
        isinstance(a := decode(p), codec.MovePress) and a.counter == counter
        for p in payloads_of(redrawn)
    )
    _mover, now = await mover_and_counter(bot, store)
    assert now > counter  # the stale press changed nothing but the message


@pytest.mark.slow
async def test_at_the_end_of_a_match_no_hand_has_a_move_left(
    bot: Bot,
    redis_client: aredis.Redis,
) -> None:
    await open_table(bot, "kozel", 0, target=11)
    for person in (ALICE, BOB):
        await my_tiles(bot, person)  # an extra copy each, retired at once
    await play_to_the_end(bot, Referee(bot, Store(redis_client)))
    assert live_hands(bot, ALICE) == [] and live_hands(bot, BOB) == []
    assert len(bot.owned_ephemeral(ALICE)) >= 2
