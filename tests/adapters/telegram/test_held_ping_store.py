"""Held pings in Redis (:mod:`adapters.pings`, shared by Telegram and Discord): holding,
dropping and claiming each take one round trip, and each is one script, so that none of
them can come between the steps of another."""

from __future__ import annotations

import asyncio

import pytest
import redis.asyncio as aredis

from adapters.pings import HeldPing, HeldPings
from bot.model.contract import ChatRef
from bot.storage import keys
from tests.bot.conftest import round_trips  # noqa: F401  (a fixture)

CHAT = ChatRef("tg", "101")
SLOT = "ping|tg:101|g1|tg:101"
NOW = 1_800_000_000.0


def _ping(text: str = "Your turn") -> HeldPing:
    return HeldPing(CHAT, SLOT, "101", text)


async def _held(redis: aredis.Redis) -> list[str]:
    bucket = keys.held_pings("tg", keys.ping_bucket(CHAT))
    return [str(m) for m in await redis.zrange(bucket, 0, -1)]


async def test_holding_dropping_and_claiming_a_ping_take_one_round_trip_each(
    redis_client: aredis.Redis,
    round_trips: list[int],  # noqa: F811
) -> None:
    pings = HeldPings(redis_client, "tg")
    await pings.hold(_ping(), NOW)  # the server learns the scripts
    await pings.drop(CHAT, SLOT)
    await pings.claim_due(NOW)
    counted = {}
    for step, act in [
        ("hold", lambda: pings.hold(_ping(), NOW + 20)),
        ("hold again", lambda: pings.hold(_ping("Your turn again"), NOW + 20)),
        ("drop", lambda: pings.drop(CHAT, SLOT)),
        ("drop none", lambda: pings.drop(CHAT, SLOT)),
    ]:
        round_trips.clear()
        await act()
        counted[step] = len(round_trips)
    await pings.hold(_ping(), NOW + 20)
    round_trips.clear()
    (claimed,) = await pings.claim_due(NOW + 21)
    counted["claim"] = len(round_trips)
    assert claimed == _ping()
    assert counted == {"hold": 1, "hold again": 1, "drop": 1, "drop none": 1, "claim": 16}


async def test_two_holds_of_one_slot_at_once_leave_one_ping_held(
    redis_client: aredis.Redis,
) -> None:
    first, second = HeldPings(redis_client, "tg"), HeldPings(redis_client, "tg")
    await asyncio.gather(
        first.hold(_ping("Your turn"), NOW + 20), second.hold(_ping("Your turn again"), NOW + 21)
    )
    assert len(await _held(redis_client)) == 1
    (claimed,) = await first.claim_due(NOW + 30)
    assert claimed.content == "Your turn again"


@pytest.mark.parametrize("by", ["claim", "drop"])
async def test_a_ping_claimed_or_dropped_leaves_no_name_behind(
    redis_client: aredis.Redis, by: str
) -> None:
    pings = HeldPings(redis_client, "tg")
    await pings.hold(_ping(), NOW)
    if by == "claim":
        assert await pings.claim_due(NOW) == [_ping()]
    else:
        await pings.drop(CHAT, SLOT)
    assert await _held(redis_client) == []
    assert await redis_client.hlen(keys.held_ping_names("tg", keys.ping_bucket(CHAT))) == 0
