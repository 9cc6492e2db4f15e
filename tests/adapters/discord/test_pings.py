"""Turn pings through the real client and core on a clock the test moves, by the policy
Telegram follows too (:mod:`adapters.pings`): a mention only once its player has waited
:data:`PING_HOLD` seconds, none when he moves first, and the mention sent deleted once he
has moved, even when it was sent just after his move. Held pings are spread over
buckets in Redis, and two processes never both send one."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace

import pytest
import redis.asyncio as aredis
from redis.crc import key_slot

from adapters.discord.messages import PlacedMessage
from adapters.discord.pings import Pings
from adapters.pings import PING_HOLD, HeldPing
from bot.model.contract import ChatRef, Screen, Show, Slot, SlotKind, UserRef
from bot.storage import keys
from bot.storage.store import Store
from bot.table.sessions import Sessions
from tests.adapters.discord.conftest import ALICE, BOB
from tests.adapters.discord.fake_api import FakeDiscord, Json
from tests.adapters.discord.gateway import Person
from tests.adapters.discord.harness import CHANNEL_ID, Bot
from tests.adapters.discord.matches import (
    CHAT,
    MAX_STEPS,
    Referee,
    move_once,
    open_table,
    play_one,
)

TIMER = 300


@dataclass(frozen=True)
class TimedSettings:
    turn_timeout: int = TIMER
    computer_delay: float = 0.0
    next_deal_delay: float = 0.0
    timeouts_before_takeover: int = 3
    default_lang: str = "en"
    ai_seconds: float = 0.05
    ai_worlds: int | None = 4  # computers' choices follow the seed alone


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def bot(fake: FakeDiscord, redis_client: aredis.Redis, clock: Clock) -> AsyncIterator[Bot]:
    store = Store(redis_client)
    core = Sessions(store, TimedSettings(), clock=clock, rng=random.Random(7))
    running = await Bot.boot(fake, core, redis_client, [ALICE, BOB], clock=clock)
    try:
        yield running
    finally:
        await running.close()


def mentions(fake: FakeDiscord) -> list[Json]:
    """Channel messages the bot created that mention someone."""
    return [
        e.message
        for e in fake.channel_events(CHANNEL_ID)
        if e.action == "create" and "<@" in (e.message["content"] or "")
    ]


async def to_move(bot: Bot, store: Store) -> Person:
    found = await Referee(bot, store).state()
    assert found is not None and found[1] is not None
    doc, state = found
    user = doc.seats[state.turn].user
    return ALICE if user.user_id == str(ALICE.id) else BOB


async def counter(bot: Bot, store: Store) -> int:
    found = await Referee(bot, store).state()
    assert found is not None and found[1] is not None
    return int(found[1].counter)


def deleted(fake: FakeDiscord) -> set[str]:
    return {e.message["id"] for e in fake.channel_events(CHANNEL_ID) if e.action == "delete"}


async def test_a_turn_is_pinged_only_once_its_player_has_waited_the_hold(
    bot: Bot, fake: FakeDiscord, clock: Clock, store: Store
) -> None:
    await open_table(bot, "tyaga", 0)
    mover = await to_move(bot, store)
    clock.now += PING_HOLD - 1
    await bot.tick()
    assert mentions(fake) == []
    clock.now += 2
    await bot.tick()
    (ping,) = mentions(fake)
    assert ping["content"].startswith(f"<@{mover.id}>")
    assert [int(u) for u in ping["allowed_mentions"]["users"]] == [mover.id]
    assert ping["allowed_mentions"]["parse"] == []


async def test_a_player_who_moves_in_time_is_never_pinged(
    bot: Bot, fake: FakeDiscord, clock: Clock, store: Store
) -> None:
    await open_table(bot, "tyaga", 0)
    for _ in range(4):
        clock.now += PING_HOLD - 1
        mover = await to_move(bot, store)
        await move_once(bot, mover, await counter(bot, store))
        await bot.tick()
    clock.now += 1
    await bot.tick()
    assert mentions(fake) == []


async def test_a_sent_ping_is_deleted_once_its_player_has_moved(
    bot: Bot, fake: FakeDiscord, clock: Clock, store: Store
) -> None:
    await open_table(bot, "tyaga", 0)
    mover = await to_move(bot, store)
    clock.now += PING_HOLD + 1
    await bot.tick()
    (ping,) = mentions(fake)
    assert ping["id"] in {m["id"] for m in fake.live_channel_messages(CHANNEL_ID)}
    assert ping["id"] not in deleted(fake)
    await move_once(bot, mover, await counter(bot, store))
    await bot.adapter.drain()
    assert ping["id"] in deleted(fake)
    assert ping["id"] not in {m["id"] for m in fake.live_channel_messages(CHANNEL_ID)}


@pytest.mark.slow
async def test_over_a_whole_match_every_mention_sent_is_deleted_once_its_player_moved(
    bot: Bot, fake: FakeDiscord, clock: Clock, store: Store
) -> None:
    await open_table(bot, "tyaga", 0, target=10)
    referee = Referee(bot, store)
    for _ in range(MAX_STEPS):
        clock.now += PING_HOLD + 1  # every turn waits long enough for its ping
        await bot.tick()
        if not await play_one(bot, referee):
            break
    await bot.adapter.drain()
    assert await store.last_game(CHAT) is not None, "the match did not end"
    sent = {m["id"] for m in mentions(fake)}
    assert len(sent) > 4
    assert sent <= deleted(fake)
    assert not sent & {m["id"] for m in fake.live_channel_messages(CHANNEL_ID)}


def _ping(channel: ChatRef) -> Show:
    user = UserRef("dc", str(ALICE.id), "Alice")
    return Show(Slot(SlotKind.PING, channel, "g1", user, table=channel), Screen(()))


async def test_held_pings_spread_over_buckets_and_two_processes_send_each_once(
    redis_client: aredis.Redis, clock: Clock
) -> None:
    channels = [ChatRef("dc", str(900 + n)) for n in range(40)]
    holder = Pings(redis_client, clock=clock)
    for channel in channels:
        await holder.hold(_ping(channel), channel, f"<@{ALICE.id}> to move in {channel.key}")
    used = [
        b for b in range(keys.PING_BUCKETS) if await redis_client.exists(keys.held_pings("dc", b))
    ]
    assert len({key_slot(keys.held_pings("dc", b).encode()) for b in used}) > 4
    clock.now += PING_HOLD + 1
    first, second = Pings(redis_client, clock=clock), Pings(redis_client, clock=clock)
    got = await asyncio.gather(first.claim_due(), second.claim_due())
    sent = [held.chat for claimed in got for held in claimed]
    assert sorted(sent, key=str) == sorted(channels, key=str)


def _held(pings: list[HeldPing], version: int) -> HeldPing:
    (held,) = pings
    assert held.version == version
    return held


async def test_a_ping_sent_after_its_player_moved_is_to_be_deleted_at_once(
    redis_client: aredis.Redis, clock: Clock
) -> None:
    """Claimed just before the move and sent after it, by another process: the move
    finds no mention to delete, and the sender learns that it is to go."""
    sender, mover = Pings(redis_client, clock=clock), Pings(redis_client, clock=clock)
    show = replace(_ping(CHAT), version=4)
    await sender.hold(show, CHAT, "ping")
    clock.now += PING_HOLD
    held = _held(await sender.claim_due(), 4)
    assert await mover.moved(CHAT, show.slot, 5) is None
    assert not await sender.sent(held, PlacedMessage(CHANNEL_ID, 77))


async def test_a_ping_sent_before_its_player_moved_is_deleted_by_the_move_alone(
    redis_client: aredis.Redis, clock: Clock
) -> None:
    pings = Pings(redis_client, clock=clock)
    show = replace(_ping(CHAT), version=4)
    await pings.hold(show, CHAT, "ping")
    clock.now += PING_HOLD
    held = _held(await pings.claim_due(), 4)
    assert await pings.sent(held, PlacedMessage(CHANNEL_ID, 77))
    assert await pings.moved(CHAT, show.slot, 3) is None  # a late deletion of an older turn
    assert await pings.moved(CHAT, show.slot, 5) == PlacedMessage(CHANNEL_ID, 77)
    assert await pings.moved(CHAT, show.slot, 5) is None  # once
    later = replace(show, version=6)  # his next turn's ping is not the move's to delete
    await pings.hold(later, CHAT, "ping again")
    clock.now += PING_HOLD
    assert await pings.sent(_held(await pings.claim_due(), 6), PlacedMessage(CHANNEL_ID, 78))
    assert await pings.moved(CHAT, show.slot, 7) == PlacedMessage(CHANNEL_ID, 78)
