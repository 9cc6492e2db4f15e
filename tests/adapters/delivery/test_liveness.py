"""What a process that is gone held is taken over at once; what a running one holds is not.

Two processes are two :class:`Liveness` objects on one Redis; one that has stopped (its key
deleted, as expiry would after a kill) is gone."""

from __future__ import annotations

import redis.asyncio as aredis

from adapters.delivery.limiter import Reservation
from adapters.delivery.liveness import ALIVE_SECONDS, Liveness
from adapters.delivery.sharedlog import IN_FLIGHT, RedisSendLog
from adapters.delivery.slots import RedisSlotBook
from adapters.telegram.budget import BOT_RULES, EVERY_CHAT, PRIVATE_RULES
from bot.model.contract import ChatRef, Slot, SlotKind
from bot.storage import keys

NOW = 1_700_000_000.0
TABLE = Slot(SlotKind.TABLE, ChatRef("tg", "-100123"), "g1")


def book(redis: aredis.Redis, liveness: Liveness | None) -> RedisSlotBook:
    return RedisSlotBook(redis, lambda chat: f"test:msgs:{{{chat}}}", liveness)


def send_log(redis: aredis.Redis, liveness: Liveness | None) -> RedisSendLog:
    return RedisSendLog(redis, lambda chat: f"test:sent:{{{chat}}}", liveness)


async def test_a_running_process_keeps_a_key_that_expires_unless_renewed(
    redis_client: aredis.Redis, processes: tuple[Liveness, Liveness]
) -> None:
    first, _ = processes
    ttl = await redis_client.pttl(keys.process_alive(first.me))
    assert 0 < ttl <= ALIVE_SECONDS * 1000


async def test_a_stopped_process_is_gone_and_a_running_one_is_not(
    processes: tuple[Liveness, Liveness],
) -> None:
    first, second = processes
    assert not await second.gone(first.me)
    await first.stop()
    assert await second.gone(first.me)


async def test_a_slot_held_by_a_process_that_is_gone_is_taken_over_at_once(
    redis_client: aredis.Redis, processes: tuple[Liveness, Liveness]
) -> None:
    first, second = processes
    assert (await book(redis_client, first).claim(TABLE, 5, NOW)).fresh
    assert (await book(redis_client, second).claim(TABLE, 6, NOW + 1)).busy
    await first.stop()
    claim = await book(redis_client, second).claim(TABLE, 6, NOW + 1)
    assert claim.fresh and not claim.busy


async def test_a_slot_taken_over_is_held_by_its_new_process(
    redis_client: aredis.Redis, processes: tuple[Liveness, Liveness]
) -> None:
    first, second = processes
    assert (await book(redis_client, first).claim(TABLE, 5, NOW)).fresh
    await first.stop()
    assert (await book(redis_client, second).claim(TABLE, 6, NOW + 1)).fresh
    third = Liveness(redis_client)
    await third.start()
    try:
        assert (await book(redis_client, third).claim(TABLE, 7, NOW + 2)).busy
    finally:
        await third.stop()


async def test_a_hold_that_names_no_process_is_waited_out(
    redis_client: aredis.Redis, processes: tuple[Liveness, Liveness]
) -> None:
    _, second = processes
    assert (await book(redis_client, None).claim(TABLE, 5, NOW)).fresh
    assert (await book(redis_client, second).claim(TABLE, 6, NOW + 1)).busy


async def test_a_turn_of_a_process_that_is_gone_no_longer_holds_back_the_next_write(
    redis_client: aredis.Redis, processes: tuple[Liveness, Liveness]
) -> None:
    first, second = processes
    await send_log(redis_client, first).reserve("tg:42", PRIVATE_RULES, NOW)  # never marked done
    log = send_log(redis_client, second)
    waiting = await log.reserve("tg:42", PRIVATE_RULES, NOW + 0.2)
    assert waiting.behind
    assert await log.confirm(waiting, PRIVATE_RULES, NOW + 1.2) is not None  # still on its way
    await first.stop()
    # Its write counts as done when its turn came, a second before this one.
    assert await log.confirm(waiting, PRIVATE_RULES, NOW + 1.2) is None


async def test_a_write_on_its_way_longer_than_a_call_lasts_counts_until_its_process_is_gone(
    redis_client: aredis.Redis, processes: tuple[Liveness, Liveness]
) -> None:
    first, second = processes
    mine, theirs = send_log(redis_client, first), send_log(redis_client, second)
    for _ in range(BOT_RULES[0].count):  # the bot's thirty, still unanswered
        turn = await theirs.reserve(EVERY_CHAT, BOT_RULES, NOW)
        assert isinstance(await theirs.claim(turn, BOT_RULES, NOW), Reservation)
    later = NOW + IN_FLIGHT + 4  # a starved process has not seen its answers yet
    waiting = await mine.reserve(EVERY_CHAT, BOT_RULES, later)
    assert not isinstance(await mine.claim(waiting, BOT_RULES, later), Reservation)
    await second.stop()  # killed: its requests are no longer on their way
    assert isinstance(await mine.claim(waiting, BOT_RULES, later), Reservation)
