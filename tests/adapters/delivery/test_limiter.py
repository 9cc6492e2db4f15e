"""The send budget: every rule holds in every window, in one process and across several.
The rules are Telegram's (:mod:`adapters.telegram.budget`), as a platform's that the
budget keeps."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest
import redis.asyncio as aredis
from redis.exceptions import ConnectionError as RedisConnectionError

from adapters.delivery.limiter import MemorySendLog, Pacer, Reservation, Rule, SendLog, earliest
from adapters.delivery.outage import OutageSendLog
from adapters.delivery.sharedlog import DONE_MS, IN_FLIGHT, RedisSendLog
from adapters.telegram.budget import (
    BOT_RULES,
    EVERY_CHAT,
    GROUP_RULES,
    PRIVATE_RULES,
    TELEGRAM,
)
from bot.app.embedded_redis import EmbeddedRedis
from tests.adapters.delivery.vclock import VirtualClock

NOW = 1_700_000_000.0


def most_in_any_window(moments: Sequence[float], period: float) -> int:
    """The most moments inside any half-open window ``(t - period, t]``."""
    ordered = sorted(moments)
    return max(sum(1 for m in ordered if end - period < m <= end) for end in ordered)


def assert_keeps(moments: Sequence[float], rules: Sequence[Rule]) -> None:
    for rule in rules:
        assert most_in_any_window(moments, rule.period) <= rule.count, rule


def test_the_first_send_may_go_at_once() -> None:
    assert earliest([], GROUP_RULES, NOW) == NOW


def test_a_send_waits_a_second_after_the_last_one() -> None:
    assert earliest([NOW - 0.25], PRIVATE_RULES, NOW) == pytest.approx(NOW + 0.75)


def test_the_twenty_first_send_in_a_minute_waits_for_the_first_to_leave_the_window() -> None:
    sent = [NOW - 59 + i * 3 for i in range(20)]  # 20 sends, 3 s apart, the last 2 s ago
    assert earliest(sent, [Rule(20, 60.0)], NOW) == pytest.approx(NOW + 1)


@pytest.fixture
def send_log(where: aredis.Redis | None) -> SendLog:
    if where is None:
        return MemorySendLog()
    return shared_log(where)


def shared_log(client: aredis.Redis) -> RedisSendLog:
    return RedisSendLog(client, lambda chat: f"test:sent:{{{chat}}}")


@pytest.fixture
async def two_workers(
    redis_client: aredis.Redis, redis_url: str
) -> AsyncIterator[tuple[RedisSendLog, RedisSendLog]]:
    """The send logs of two workers, each on a connection of its own to one Redis."""
    other_client = aredis.Redis.from_url(redis_url, decode_responses=True)
    try:
        yield shared_log(redis_client), shared_log(other_client)
    finally:
        await other_client.aclose()


async def test_a_burst_of_reservations_keeps_every_group_rule(send_log: SendLog) -> None:
    moments = [(await send_log.reserve("tg:-1", GROUP_RULES, NOW)).at for _ in range(100)]
    assert_keeps(moments, GROUP_RULES)
    assert moments == sorted(moments)


async def test_a_burst_spreads_over_time_rather_than_stalling(send_log: SendLog) -> None:
    moments = [(await send_log.reserve("tg:-1", GROUP_RULES, NOW)).at for _ in range(40)]
    gaps = [b - a for a, b in itertools.pairwise(moments)]
    assert max(gaps) <= 6.0


async def test_chats_have_budgets_of_their_own(send_log: SendLog) -> None:
    first = await send_log.reserve("tg:-1", GROUP_RULES, NOW)
    other = await send_log.reserve("tg:-2", GROUP_RULES, NOW)
    assert first.at == other.at == NOW


async def test_the_next_send_is_spaced_from_when_the_last_one_finished(
    send_log: SendLog,
) -> None:
    first = await send_log.reserve("tg:42", PRIVATE_RULES, NOW)
    await send_log.mark_done(first, NOW + 2.5)
    second = await send_log.reserve("tg:42", PRIVATE_RULES, NOW + 2.5)
    assert second.at == pytest.approx(NOW + 3.5)


async def test_old_sends_leave_the_log(send_log: SendLog) -> None:
    for _ in range(20):
        await send_log.reserve("tg:-1", GROUP_RULES, NOW)
    later = await send_log.reserve("tg:-1", GROUP_RULES, NOW + 3600)
    assert later.at == NOW + 3600


async def test_workers_sharing_redis_share_a_chats_budget(
    two_workers: tuple[RedisSendLog, RedisSendLog],
) -> None:
    moments = [(await two_workers[i % 2].reserve("tg:-5", GROUP_RULES, NOW)).at for i in range(30)]
    assert_keeps(moments, GROUP_RULES)


async def test_a_write_another_worker_has_on_its_way_holds_back_the_next(
    two_workers: tuple[RedisSendLog, RedisSendLog],
) -> None:
    first, second = two_workers
    await first.reserve("tg:42", PRIVATE_RULES, NOW)  # sent, not yet answered
    later = await second.reserve("tg:42", PRIVATE_RULES, NOW + 5)
    assert later.at == pytest.approx(NOW + 6)


async def test_a_write_from_a_worker_that_died_stops_holding_back(
    redis_client: aredis.Redis,
) -> None:
    log = shared_log(redis_client)
    await log.reserve("tg:-1", GROUP_RULES, NOW)  # never marked done
    later = await log.reserve("tg:-1", GROUP_RULES, NOW + IN_FLIGHT + 1)
    assert later.at == NOW + IN_FLIGHT + 1


async def test_sends_to_every_chat_together_keep_the_bot_wide_limit(send_log: SendLog) -> None:
    pacer = Pacer(send_log, VirtualClock(NOW), TELEGRAM)
    moments = []
    for user in range(1, 91):  # ninety private chats, each with a budget to spare
        turn = await pacer.turn(f"tg:{user}")
        moments.append(turn.at)
        await pacer.done(await pacer.go(turn))  # its write left, and was answered
    assert_keeps(moments, BOT_RULES)
    assert max(moments) - NOW >= 2.0


async def test_workers_sharing_redis_share_the_bot_wide_limit(
    two_workers: tuple[RedisSendLog, RedisSendLog],
) -> None:
    clock = VirtualClock(NOW)
    pacers = [Pacer(log, clock, TELEGRAM) for log in two_workers]
    moments = []
    for user in range(1, 61):
        turn = await pacers[user % 2].turn(f"tg:{user}")
        moments.append(turn.at)
    assert_keeps(moments, BOT_RULES)


async def test_a_turn_taken_behind_a_write_on_its_way_is_spaced_from_when_that_one_lands(
    two_workers: tuple[RedisSendLog, RedisSendLog],
) -> None:
    first, second = two_workers
    sending = await first.reserve("tg:42", PRIVATE_RULES, NOW)  # on its way, slowly
    waiting = await second.reserve("tg:42", PRIVATE_RULES, NOW + 0.2)
    assert waiting.behind and waiting.at == pytest.approx(NOW + 1.2)
    again = await second.confirm(waiting, PRIVATE_RULES, NOW + 1.2)
    assert again is not None and again < NOW + 1.5  # the first has not landed: ask again
    await first.mark_done(sending, NOW + 1.5)  # it lands
    moved = await second.confirm(waiting, PRIVATE_RULES, again)
    assert moved == pytest.approx(NOW + 2.5)
    assert await second.confirm(waiting, PRIVATE_RULES, NOW + 2.5) is None


async def test_a_turn_wanted_later_keeps_the_writes_other_turns_are_spaced_from(
    send_log: SendLog,
) -> None:
    for _ in range(30):  # the bot's whole budget for this second
        await send_log.reserve(EVERY_CHAT, BOT_RULES, NOW)
    later = await send_log.reserve(EVERY_CHAT, BOT_RULES, NOW, not_before=NOW + 10)
    assert later.at == NOW + 10  # a group's write that must wait for its own budget
    assert (await send_log.reserve(EVERY_CHAT, BOT_RULES, NOW + 0.5)).at >= NOW + 1


async def test_a_write_leaves_only_while_fewer_than_thirty_are_on_their_way_or_just_answered(
    send_log: SendLog,
) -> None:
    on_way = []
    for _ in range(30):
        turn = await send_log.reserve(EVERY_CHAT, BOT_RULES, NOW)
        claimed = await send_log.claim(turn, BOT_RULES, NOW)
        assert isinstance(claimed, Reservation)
        on_way.append(claimed)
    waiting = await send_log.reserve(EVERY_CHAT, BOT_RULES, NOW)
    # Its turn came, but the thirty are still on their way (slowly): none can leave the
    # last second's count before a second from now.
    assert await send_log.claim(waiting, BOT_RULES, NOW + 2) == NOW + 3
    await send_log.mark_done(on_way[0], NOW + 2.5)
    # One was answered, and may have reached Telegram just then: a second from it.
    assert await send_log.claim(waiting, BOT_RULES, NOW + 3) == NOW + 3.5
    assert isinstance(await send_log.claim(waiting, BOT_RULES, NOW + 3.5), Reservation)


class CutClaims:
    """The shared log, whose claims meet a connection cut under them while ``cut``."""

    def __init__(self, shared: RedisSendLog) -> None:
        self.cut = False
        self._shared = shared
        self.reserve = shared.reserve
        self.confirm = shared.confirm
        self.mark_done = shared.mark_done
        self.release = shared.release

    async def claim(
        self, reservation: Reservation, rules: Sequence[Rule], now: float
    ) -> Reservation | float:
        if self.cut:
            raise RedisConnectionError("Connection closed by server.")
        return await self._shared.claim(reservation, rules, now)


async def test_a_write_whose_claim_the_store_did_not_answer_does_not_leave(
    redis_client: aredis.Redis,
) -> None:
    shared = CutClaims(shared_log(redis_client))
    send_log = OutageSendLog(shared)
    for _ in range(30):  # the bot's thirty, on their way
        turn = await send_log.reserve(EVERY_CHAT, BOT_RULES, NOW)
        assert isinstance(await send_log.claim(turn, BOT_RULES, NOW), Reservation)
    waiting = await send_log.reserve(EVERY_CHAT, BOT_RULES, NOW)
    shared.cut = True
    with pytest.raises(RedisConnectionError):  # not let go uncounted as a thirty-first
        await send_log.claim(waiting, BOT_RULES, NOW + 0.5)
    shared.cut = False
    assert await send_log.claim(waiting, BOT_RULES, NOW + 0.5) == NOW + 1.5


async def test_while_the_store_answers_how_a_turn_ended_reaches_the_shared_log(
    redis_client: aredis.Redis,
) -> None:
    """A turn taken in the shared log and answered is spaced from there, one let go
    unused holds nothing back: every worker sees both at once."""
    shared = shared_log(redis_client)
    send_log = OutageSendLog(shared)
    answered = await send_log.reserve("tg:42", PRIVATE_RULES, NOW)
    await send_log.mark_done(answered, NOW + 2.5)
    assert (await shared.reserve("tg:7", PRIVATE_RULES, NOW + 2.5)).at == NOW + 2.5
    assert (await shared.reserve("tg:42", PRIVATE_RULES, NOW + 2.5)).at == NOW + 3.5
    unused = await send_log.reserve("tg:9", PRIVATE_RULES, NOW)
    await send_log.release(unused)
    assert (await shared.reserve("tg:9", PRIVATE_RULES, NOW + 0.5)).at == NOW + 0.5


async def test_the_shared_log_runs_on_the_embedded_server(tmp_path: Path) -> None:
    """A bot given a token but no ``REDIS_URL`` keeps its send log on the embedded
    server, an older Redis than the one the other tests use: a write's whole life,
    turn, claim and answer, must be made of commands it knows."""
    with EmbeddedRedis(tmp_path, persist=False) as server:
        client = aredis.Redis.from_url(server.url)
        try:
            log = shared_log(client)
            turn = await log.reserve(EVERY_CHAT, BOT_RULES, NOW)
            claimed = await log.claim(turn, BOT_RULES, NOW)
            assert isinstance(claimed, Reservation)
            await log.mark_done(claimed, NOW + 0.5)
            key = f"test:sent:{{{EVERY_CHAT}}}"
            assert 0 < await client.pttl(key) <= DONE_MS
            assert (await log.reserve("tg:42", PRIVATE_RULES, NOW + 0.5)).at == NOW + 0.5
        finally:
            await client.aclose()


async def test_turns_no_write_was_made_in_leave_the_bot_wide_limit_unspent(
    send_log: SendLog,
) -> None:
    """A worker whose screen another worker showed meanwhile makes no write at its turn:
    thirty such turns in one second must not hold up a real write for that second."""
    clock = VirtualClock(NOW)
    pacer = Pacer(send_log, clock, TELEGRAM)
    for user in range(1, 31):
        await pacer.done(await pacer.turn(f"tg:{user}"))
    turn = await pacer.turn("tg:99")
    left = await pacer.go(turn)
    assert (turn.at, clock.now()) == (NOW, NOW)
    await pacer.done(left)
    # A write that left counts: thirty of them hold the next one for a second.
    for user in range(100, 129):
        await pacer.done(await pacer.go(await pacer.turn(f"tg:{user}")))
    assert (await pacer.turn("tg:200")).at == NOW + 1.0
