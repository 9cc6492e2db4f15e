"""Turn pings through the real client and core on a clock the test moves: a mention
only after half the turn timer (or at once on a first turn after a long wait), never
within a minute of the player's own action, and never deleted. Held pings are spread
over buckets in Redis, and two processes never both send one."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
import redis.asyncio as aredis
from redis.crc import key_slot

from adapters.discord.pings import LONG_WAIT, NO_TIMER_WAIT, QUIET_AFTER_ACTION, Pings
from bot.model import codec
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
    custom_id_for,
    move_once,
    open_table,
    play_one,
    table_message,
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
    running = await Bot.boot(fake, core, redis_client, store, [ALICE, BOB], clock=clock)
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


async def test_a_turn_is_pinged_only_after_half_its_timer(
    bot: Bot, fake: FakeDiscord, clock: Clock, store: Store
) -> None:
    await open_table(bot, "tyaga", 0)
    mover = await to_move(bot, store)
    clock.now += QUIET_AFTER_ACTION + 1  # nobody has acted for a minute now...
    await bot.tick()
    assert mentions(fake) == []  # ...but the turn has not waited half its timer
    clock.now += TIMER / 2 - QUIET_AFTER_ACTION
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
        clock.now += TIMER / 2 - 1
        mover = await to_move(bot, store)
        await move_once(bot, mover, await counter(bot, store))
        await bot.tick()
    clock.now += 1
    await bot.tick()
    assert mentions(fake) == []


async def test_no_ping_within_a_minute_of_the_players_own_action(
    bot: Bot, fake: FakeDiscord, clock: Clock, store: Store
) -> None:
    await open_table(bot, "tyaga", 0)
    mover = await to_move(bot, store)
    clock.now += TIMER / 2 - 10
    table = table_message(bot)
    tiles = custom_id_for(table, codec.TilesPress)
    assert tiles is not None
    await bot.press(mover, table, tiles)  # he is looking at his tiles
    clock.now += 10
    await bot.tick()
    assert mentions(fake) == []  # half the timer is gone, but he acted 10 s ago
    clock.now += QUIET_AFTER_ACTION - 10
    await bot.tick()
    assert [m["content"].split(">")[0] for m in mentions(fake)] == [f"<@{mover.id}"]


async def test_a_first_turn_after_a_long_wait_is_pinged_at_once(
    bot: Bot, fake: FakeDiscord, clock: Clock, store: Store
) -> None:
    await bot.command(ALICE, "new", variant="tyaga")
    lobby = table_message(bot)
    join = custom_id_for(lobby, codec.LobbyPress, action="join")
    assert join is not None
    await bot.press(BOB, lobby, join)
    clock.now += LONG_WAIT + 1  # Bob wanders off while Alice waits for more players
    lobby = table_message(bot)
    start = custom_id_for(lobby, codec.LobbyPress, action="start")
    assert start is not None
    await bot.press(ALICE, lobby, start)
    if await to_move(bot, store) == ALICE:  # Alice just acted: she is not pinged
        await bot.tick()
        assert mentions(fake) == []
        await move_once(bot, ALICE, await counter(bot, store))
    await bot.tick()
    (ping,) = mentions(fake)
    assert ping["content"].startswith(f"<@{BOB.id}>")


@pytest.mark.slow
async def test_over_a_whole_match_no_message_with_a_mention_is_deleted(
    bot: Bot, fake: FakeDiscord, clock: Clock, store: Store
) -> None:
    await open_table(bot, "tyaga", 0, target=10)
    referee = Referee(bot, store)
    for _ in range(MAX_STEPS):
        clock.now += TIMER / 2 + 1  # every turn waits long enough for its ping
        await bot.tick()
        if not await play_one(bot, referee):
            break
    assert await store.last_game(CHAT) is not None, "the match did not end"
    sent = mentions(fake)
    assert len(sent) > 4
    deleted = [e.message["id"] for e in fake.channel_events(CHANNEL_ID) if e.action == "delete"]
    assert not set(deleted) & {m["id"] for m in sent}
    live = {m["id"] for m in fake.live_channel_messages(CHANNEL_ID)}
    assert {m["id"] for m in sent} <= live


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
    clock.now += NO_TIMER_WAIT + QUIET_AFTER_ACTION + 1
    first, second = Pings(redis_client, clock=clock), Pings(redis_client, clock=clock)
    got = await asyncio.gather(first.claim_due(), second.claim_due())
    sent = [held.chat for claimed in got for held in claimed]
    assert sorted(sent, key=str) == sorted(channels, key=str)
