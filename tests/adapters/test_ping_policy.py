"""The turn ping's one policy (:mod:`adapters.pings`), whichever platform follows it: when a
held ping falls due, that a move drops it, and that a ping sent goes once its player has
moved, and not before."""

from __future__ import annotations

import pytest
import redis.asyncio as aredis

from adapters.pings import PING_HOLD, HeldPing, HeldPings, falls_due, outlived
from bot.model.contract import ChatRef, Deadline, Screen, Show, Slot, SlotKind, UserRef
from tests.bot.conftest import redis_client, redis_url  # noqa: F401  (shared fixtures)

NOW = 1_800_000_000.0
PLAYER = UserRef("tg", "101", "Ann")
CHAT = ChatRef("tg", "101")


def _ping(deadline: float | None = None) -> Show:
    line = ("Your turn",) if deadline is None else ("Your turn, until ", Deadline(deadline))
    slot = Slot(SlotKind.PING, CHAT, "g1", PLAYER)
    return Show(slot, Screen((line,)), 4, notify=True)


def test_a_ping_falls_due_after_the_hold_when_the_turn_has_no_timer() -> None:
    assert PING_HOLD == 20.0
    assert falls_due(_ping(), NOW) == NOW + PING_HOLD


def test_a_ping_falls_due_after_the_hold_when_the_turn_has_long_to_run() -> None:
    assert falls_due(_ping(NOW + 300), NOW) == NOW + PING_HOLD


@pytest.mark.parametrize("left", [30.0, 2 * PING_HOLD - 2, 1.0])
def test_a_ping_falls_due_at_half_the_time_left_when_that_is_sooner(left: float) -> None:
    assert falls_due(_ping(NOW + left), NOW) == NOW + left / 2


def test_a_ping_whose_turn_has_run_out_falls_due_at_once() -> None:
    assert falls_due(_ping(NOW - 5), NOW) == NOW


def test_a_ping_asked_for_at_once_falls_due_at_once() -> None:
    assert falls_due(_ping(), NOW, at_once=True) == NOW
    assert falls_due(_ping(NOW + 300), NOW, at_once=True) == NOW


def test_a_sent_ping_goes_once_its_player_has_moved_and_not_for_an_older_move() -> None:
    assert outlived(4, 5)  # the move that ended his turn
    assert outlived(4, 9)
    assert not outlived(4, 4)  # the move that brought his turn
    assert not outlived(4, 3)  # a move of an earlier turn, deleted late


def _held(version: int = 4) -> HeldPing:
    return HeldPing(CHAT, "ping|tg:101|g1|tg:101", PLAYER.user_id, "Your turn", version)


async def test_a_held_ping_is_claimed_once_when_due_and_keeps_its_version(
    redis_client: aredis.Redis,  # noqa: F811
) -> None:
    pings = HeldPings(redis_client, "tg")
    due = falls_due(_ping(), NOW)
    await pings.hold(_held(), due)
    assert await pings.claim_due(due - 1) == []
    assert await pings.claim_due(due) == [_held()]
    assert await pings.claim_due(due + 60) == []


async def test_a_held_ping_is_never_claimed_once_its_player_has_moved(
    redis_client: aredis.Redis,  # noqa: F811
) -> None:
    pings = HeldPings(redis_client, "tg")
    await pings.hold(_held(), falls_due(_ping(), NOW))
    assert await pings.drop(CHAT, _held().slot)  # it was held: none of it was sent
    assert await pings.claim_due(NOW + 10 * PING_HOLD) == []
    assert not await pings.drop(CHAT, _held().slot)


async def test_a_ping_claimed_is_no_longer_held_for_its_players_move_to_drop(
    redis_client: aredis.Redis,  # noqa: F811
) -> None:
    """The move then finds it claimed: it may be on its way, and is the sent ping's to
    delete."""
    pings = HeldPings(redis_client, "tg")
    await pings.hold(_held(), NOW)
    assert await pings.claim_due(NOW) == [_held()]
    assert not await pings.drop(CHAT, _held().slot)


async def test_a_ping_held_by_an_older_process_without_a_version_is_still_read() -> None:
    member = '{"c": "tg:101", "n": 1.0, "s": "ping|tg:101|g1|tg:101", "u": "101", "x": "Hi"}'
    assert HeldPing.from_member(member) == HeldPing(CHAT, "ping|tg:101|g1|tg:101", "101", "Hi", 0)
