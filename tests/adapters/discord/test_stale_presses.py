"""Every press gets an answer, even on a button that is no longer on its message:
Discord sends the message as it is now, discord.py finds no item for the pressed id
and drops the press, so the client answers it itself. A double tap on a redrawn
hand, a tile of an earlier deal and a tile of a finished match each get a visible
answer, with the hand as it is now where there is one."""

from __future__ import annotations

import pytest
import redis.asyncio as aredis

from bot.model import codec
from bot.storage.store import Store
from engine import Kind, parse_move
from tests.adapters.discord.conftest import ALICE, BOB
from tests.adapters.discord.fake_api import EPHEMERAL, InteractionRecord, Json
from tests.adapters.discord.gateway import Person
from tests.adapters.discord.harness import Bot, buttons_of, payloads_of
from tests.adapters.discord.matches import (
    Referee,
    custom_id_for,
    decode,
    open_table,
    plain_text,
    play_to_the_end,
)
from tests.adapters.discord.test_hands import mover_and_counter, my_tiles
from tests.adapters.discord.test_new_deal import play_until_deal


async def press_gone(
    bot: Bot, person: Person, message_id: int, custom_id: str
) -> InteractionRecord:
    """Press ``custom_id`` as the person's client still shows it, on the message that
    Discord now holds without it."""
    now = bot.message(message_id)
    assert custom_id not in {b.get("custom_id") for b in buttons_of(now)}
    record = bot.gateway.component(person, now, custom_id)
    await bot.finish(record)
    return record


def shown_to_presser(bot: Bot, record: InteractionRecord) -> Json:
    """What the press's answer shows the presser: the message it made or updated."""
    (callback,) = record.callbacks
    assert callback["type"] in (4, 7), f"the press was only acknowledged: {callback}"
    message = bot.reply_to(record)
    assert message["flags"] & EPHEMERAL
    return message


async def test_a_double_tap_on_a_redrawn_hand_is_answered_with_the_hand_as_it_is(
    bot: Bot, store: Store
) -> None:
    await open_table(bot, "tyaga", 0)
    mover, counter = await mover_and_counter(bot, store)
    found = await Referee(bot, store).state()
    assert found is not None
    made_before = len(found[0].moves)
    hand = await my_tiles(bot, mover)
    move = custom_id_for(hand, codec.MovePress, counter=counter)
    assert move is not None
    await bot.press(mover, hand, move)
    record = await press_gone(bot, mover, int(hand["id"]), move)
    shown = shown_to_presser(bot, record)
    assert "Your tiles" in plain_text(shown)
    assert not any(
        isinstance(a := decode(p), codec.MovePress) and a.counter == counter
        for p in payloads_of(shown)
    )
    found = await Referee(bot, store).state()
    assert found is not None
    (_seat, played), *forced = found[0].moves[made_before:]
    assert parse_move(played).kind is Kind.PLAY
    # The second tap moved nothing: all that followed the one play, if anything, are the
    # draws and passes the core makes for a player who has no other choice.
    assert all(parse_move(n).kind in (Kind.DRAW, Kind.PASS) for _s, n in forced), forced


@pytest.mark.slow
async def test_a_tile_of_an_earlier_deal_on_the_next_deal_s_hand_is_answered(
    bot: Bot, store: Store
) -> None:
    referee = Referee(bot, store)
    await open_table(bot, "tyaga", 0, target=100)
    hands = {p.id: await my_tiles(bot, p) for p in (ALICE, BOB)}
    first = {p.id: [b["custom_id"] for b in buttons_of(hands[p.id])] for p in (ALICE, BOB)}
    await play_until_deal(bot, referee, 2)
    for person in (ALICE, BOB):
        mine = bot.owned_ephemeral(person)[-1]
        gone = [
            c for c in first[person.id] if c not in {b.get("custom_id") for b in buttons_of(mine)}
        ]
        gone = [c for c in gone if isinstance(decode(c.split(":", 1)[1]), codec.MovePress)]
        if gone:
            record = await press_gone(bot, person, int(mine["id"]), gone[0])
            assert plain_text(shown_to_presser(bot, record)).strip()
            return
    raise AssertionError("no tile of the first deal was left to press")


@pytest.mark.slow
async def test_a_tile_of_a_finished_match_is_answered(bot: Bot, redis_client: aredis.Redis) -> None:
    await open_table(bot, "kozel", 0, target=11)
    mover, _counter = await mover_and_counter(bot, Store(redis_client))
    hand = await my_tiles(bot, mover)
    move = custom_id_for(hand, codec.MovePress)
    assert move is not None
    await play_to_the_end(bot, Referee(bot, Store(redis_client)))
    newest = bot.owned_ephemeral(mover)[-1]
    record = await press_gone(bot, mover, int(newest["id"]), move)
    assert plain_text(shown_to_presser(bot, record)).strip()
