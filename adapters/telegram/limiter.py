"""How often the bot may write to one chat.

Telegram allows about one message a second in a chat and twenty a minute in a
group; edits count the same; and about thirty a second from one bot over all its
chats, which every send also reserves a turn of (the pseudo-chat :data:`EVERY_CHAT`).
Each limit is a :class:`Rule` ("at most ``count``
sends in any ``period`` seconds"), and a send log per chat remembers when the
last sends happened. Before a send, the sender *reserves* the earliest moment
every rule allows; after it, it *settles* the reservation to the moment the send
finished, so the next one is spaced from when Telegram actually saw it. A turn taken
while another worker's write to the chat was still on its way is confirmed when it
comes, once that write is done.

The log lives in memory for one process, or in Redis so that several webhook
workers serving one bot share each chat's budget.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from adapters.telegram.clock import Clock
from adapters.telegram.liveness import Liveness
from bot.contract import ChatRef
from bot.store_types import text

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Rule:
    count: int
    period: float


# Groups: one a second, and 20 a minute spread as two every six seconds, so a burst
# becomes a steady trickle of edits instead of twenty at once and then a long silence.
GROUP_RULES = (Rule(1, 1.0), Rule(2, 6.0), Rule(20, 60.0))
PRIVATE_RULES = (Rule(1, 1.0),)
# The bot's sends to all chats together, shared by every worker that uses one send log.
EVERY_CHAT = "tg:bot"
BOT_RULES = (Rule(30, 1.0),)


def rules_for(chat: ChatRef) -> tuple[Rule, ...]:
    """Private chats (positive ids) get the per-chat limit; groups the group limits too."""
    return PRIVATE_RULES if not chat.chat_id.startswith("-") else GROUP_RULES


def earliest(sent: Sequence[float], rules: Sequence[Rule], now: float) -> float:
    """The first moment from ``now`` on at which one more send keeps every rule.

    ``sent`` holds the moments of earlier sends in ascending order. A rule allows a
    send at ``t`` when its ``count``-th latest send is at least ``period`` before ``t``.
    """
    moment = now
    for rule in rules:
        if len(sent) >= rule.count:
            moment = max(moment, sent[-rule.count] + rule.period)
    return moment


class SendLog(Protocol):
    async def reserve(
        self, chat: str, rules: Sequence[Rule], now: float, not_before: float | None = None
    ) -> Reservation:
        """A turn at ``now`` or later (not before ``not_before``) that keeps ``rules``."""
        ...

    async def confirm(
        self, reservation: Reservation, rules: Sequence[Rule], now: float
    ) -> float | None:
        """At a reservation's turn: ``None`` if it still keeps every rule, else the moment
        to ask again (an earlier write is still on its way, or landed later than its turn)."""
        ...

    async def settle(self, reservation: Reservation, done: float) -> None: ...


@dataclass(frozen=True, slots=True)
class Reservation:
    chat: str
    at: float
    token: str
    bot_wide: Reservation | None = None  # the same send's turn in the bot's whole budget
    behind: bool = False  # reserved behind another worker's write not yet done


class MemorySendLog:
    """The send log of one process."""

    def __init__(self) -> None:
        self._sent: dict[str, list[tuple[float, str]]] = {}

    async def reserve(
        self, chat: str, rules: Sequence[Rule], now: float, not_before: float | None = None
    ) -> Reservation:
        entries = self._sent.setdefault(chat, [])
        longest = max(rule.period for rule in rules)
        entries[:] = [e for e in entries if e[0] > now - longest]
        at = earliest([moment for moment, _ in entries], rules, max(now, not_before or now))
        reservation = Reservation(chat, at, uuid.uuid4().hex)
        entries.append((at, reservation.token))
        entries.sort()
        return reservation

    async def confirm(
        self, reservation: Reservation, rules: Sequence[Rule], now: float
    ) -> float | None:
        return None  # one process writes to a chat one instruction at a time

    async def settle(self, reservation: Reservation, done: float) -> None:
        entries = self._sent.get(reservation.chat, [])
        entries[:] = sorted(
            (max(moment, done), token) if token == reservation.token else (moment, token)
            for moment, token in entries
        )


# KEYS[1]: the chat's sorted set of write moments. ARGV: now, a fresh id, ttl ms, how
# long a write may be on its way, the earliest moment wanted, then count/period pairs.
# Writes are forgotten by the time now (a turn wanted later must not drop writes of the
# last second that other turns are spaced from). Members are "r:<id>:<turn>"
# while reserved and "d:<id>" once done. Returns the turn and the member, as strings
# (Lua numbers would come back cut to integers).
_RESERVE = """
local key = KEYS[1]
local now = tonumber(ARGV[1])
local in_flight = tonumber(ARGV[4])
local function num(x) return string.format('%.17g', x) end
local longest = 0
for i = 6, #ARGV, 2 do longest = math.max(longest, tonumber(ARGV[i + 1])) end
redis.call('ZREMRANGEBYSCORE', key, '-inf', '(' .. num(now - longest))
-- Another worker's write whose turn has come is on its way: it ends no earlier than now.
for _, member in ipairs(redis.call('ZRANGEBYSCORE', key, '-inf', num(now))) do
  if string.sub(member, 1, 2) == 'r:' then
    local turn = tonumber(string.match(member, ':([^:]*)$'))
    if turn and turn > now - in_flight then redis.call('ZADD', key, now, member) end
  end
end
local at = math.max(now, tonumber(ARGV[5]))
for i = 6, #ARGV, 2 do
  local count = tonumber(ARGV[i])
  local nth = redis.call('ZREVRANGE', key, count - 1, count - 1, 'WITHSCORES')
  if nth[2] then at = math.max(at, tonumber(nth[2]) + tonumber(ARGV[i + 1])) end
end
local behind = 0
for _, other in ipairs(redis.call('ZRANGEBYSCORE', key, '-inf', num(at))) do
  if string.sub(other, 1, 2) == 'r:' then behind = 1 end
end
local member = 'r:' .. ARGV[2] .. ':' .. num(at)
redis.call('ZADD', key, at, member)
redis.call('PEXPIRE', key, ARGV[3])
return {num(at), member, behind}
"""

# KEYS[1]: the chat's sorted set. ARGV: now, the reservation's member, how long a write
# may be on its way, a process known to be gone (or ''), then count/period pairs. Returns
# {'', ''} when the reservation keeps every rule as the writes before it stand now (those
# done, and those reserved before it); else the moment to ask again, having moved the
# reservation there when it is a matter of spacing, and the process whose write is still
# on its way when that is why. Reserved members carry their first turn in their name,
# which orders them, and the process that took them ("r:<process>.<id>:<turn>"); a write
# of the process known to be gone counts as done when its turn came.
_CONFIRM = """
local key, mine, gone = KEYS[1], ARGV[2], ARGV[4]
local now, in_flight = tonumber(ARGV[1]), tonumber(ARGV[3])
local function num(x) return string.format('%.17g', x) end
local function turn_of(member) return tonumber(string.match(member, ':([^:]*)$')) end
local function process_of(member) return string.match(member, '^r:([^.:]*)%.') or '' end
if not redis.call('ZSCORE', key, mine) then return {'', ''} end
local my_turn = turn_of(mine)
local earlier = {}
local all = redis.call('ZRANGE', key, 0, -1, 'WITHSCORES')
for i = 1, #all, 2 do
  local member, score = all[i], tonumber(all[i + 1])
  if string.sub(member, 1, 2) == 'd:' then
    earlier[#earlier + 1] = score
  elseif member ~= mine then
    local turn = turn_of(member)
    if turn < my_turn or (turn == my_turn and member < mine) then
      local process = process_of(member)
      if gone ~= '' and process == gone then
        redis.call('ZREM', key, member)
        redis.call('ZADD', key, turn, 'd:' .. string.match(member, '^r:([^:]*):'))
        score = turn
      elseif score > now - in_flight then
        return {num(now + 0.05), process}  -- still on its way
      end
      earlier[#earlier + 1] = score
    end
  end
end
table.sort(earlier, function(a, b) return a > b end)
local at = now
for i = 5, #ARGV, 2 do
  local nth = earlier[tonumber(ARGV[i])]
  if nth then at = math.max(at, nth + tonumber(ARGV[i + 1])) end
end
if at <= now then return {'', ''} end
redis.call('ZADD', key, at, mine)
return {num(at), ''}
"""
# Seconds a reserved write may take: a Bot API call gives up by then (python-telegram-bot
# waits 1 s for a pooled connection, 5 to connect, 5 to write and 5 to read), so a turn a
# killed worker left behind holds up the chat's next write no longer than that, or only
# until its process's key has expired (see :mod:`.liveness`).
IN_FLIGHT = 16.0
# How long a settled send is remembered at least: the longest rule's period, and a minute.
SETTLED_MS = int(max(r.period for r in GROUP_RULES + PRIVATE_RULES + BOT_RULES) * 1000) + 60_000


class RedisSendLog:
    """The send log shared through Redis; ``key_for(chat)`` names a chat's sorted set.

    Workers reserve their turns in one script, so two of them never take the same turn;
    and a write another worker has on its way counts as ending no earlier than now, so
    the next turn is spaced from when it will really have reached Telegram.
    """

    def __init__(
        self, redis: Any, key_for: Callable[[str], str], liveness: Liveness | None = None
    ) -> None:
        self._redis = redis
        self._key_for = key_for
        self._liveness = liveness  # without one, turns name no process and run out
        self._prefix = f"{liveness.me}." if liveness is not None else ""
        self._script = redis.register_script(_RESERVE)
        self._confirm = redis.register_script(_CONFIRM)

    async def reserve(
        self, chat: str, rules: Sequence[Rule], now: float, not_before: float | None = None
    ) -> Reservation:
        ttl_ms = int(max(rule.period for rule in rules) * 1000) + 60_000
        args: list[Any] = [repr(now), self._prefix + uuid.uuid4().hex, ttl_ms, IN_FLIGHT]
        args.append(repr(max(now, not_before or now)))
        for rule in rules:
            args += [rule.count, repr(rule.period)]
        at, member, behind = await self._script(keys=[self._key_for(chat)], args=args)
        return Reservation(chat, float(at), text(member), behind=bool(int(behind)))

    async def confirm(
        self, reservation: Reservation, rules: Sequence[Rule], now: float
    ) -> float | None:
        again, writer = await self._confirm_once(reservation, rules, now, gone="")
        if writer and self._liveness is not None and await self._liveness.gone(writer):
            log.info(
                "taking over a turn in %s from process %s, which is gone", reservation.chat, writer
            )
            again, _ = await self._confirm_once(reservation, rules, now, gone=writer)
        return again

    async def _confirm_once(
        self, reservation: Reservation, rules: Sequence[Rule], now: float, gone: str
    ) -> tuple[float | None, str]:
        args: list[Any] = [repr(now), reservation.token, IN_FLIGHT, gone]
        for rule in rules:
            args += [rule.count, repr(rule.period)]
        again, writer = await self._confirm(keys=[self._key_for(reservation.chat)], args=args)
        return (float(text(again)) if text(again) else None), text(writer)

    async def settle(self, reservation: Reservation, done: float) -> None:
        key = self._key_for(reservation.chat)
        settled = "d:" + reservation.token.split(":")[1]
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.zrem(key, reservation.token)
            pipe.zadd(key, {settled: max(done, reservation.at)})
            # Removing the only member deleted the key, and with it the key's expiry.
            pipe.pexpire(key, SETTLED_MS, nx=True)
            await pipe.execute()


class Pacer:
    """Waits for a chat's turn to write, and records when the write was done."""

    def __init__(
        self,
        send_log: SendLog,
        clock: Clock,
        limits: Callable[[ChatRef], Sequence[Rule]] = rules_for,
    ) -> None:
        self._log = send_log
        self._clock = clock
        self._limits = limits

    async def turn(self, chat: str) -> Reservation:
        """Wait for a turn that keeps the chat's rules and the bot-wide one."""
        limits = self._limits(ChatRef.from_key(chat))
        mine = await self._log.reserve(chat, limits, self._clock.now())
        everyone = await self._log.reserve(EVERY_CHAT, BOT_RULES, self._clock.now(), mine.at)
        reservation = replace(mine, at=max(mine.at, everyone.at), bot_wide=everyone)
        await self._clock.sleep_until(reservation.at)
        # Taken behind another worker's write: spaced from when that one reaches Telegram,
        # which was not known when this turn was taken.
        while mine.behind:
            again = await self._log.confirm(mine, limits, self._clock.now())
            if again is None:
                return replace(reservation, at=max(reservation.at, self._clock.now()))
            await self._clock.sleep_until(again)
        return reservation

    async def done(self, reservation: Reservation) -> None:
        now = self._clock.now()
        await self._log.settle(reservation, now)
        if reservation.bot_wide is not None:
            await self._log.settle(reservation.bot_wide, now)


class Budget:
    """The writes one instruction makes to a chat. The first one's turn was waited for
    while the instruction sat in its mailbox; any further write (a retry after a flood
    wait, a message sent again) waits for a turn of its own."""

    def __init__(self, pacer: Pacer | None, chat: str, first: Reservation | None) -> None:
        self._pacer = pacer
        self._chat = chat
        self._unspent = first
        self._held: Reservation | None = None

    async def spend(self) -> None:
        if self._pacer is None:
            return
        if self._unspent is not None:
            self._held, self._unspent = self._unspent, None
            return
        if self._held is not None:
            await self._pacer.done(self._held)
        self._held = await self._pacer.turn(self._chat)

    async def close(self) -> None:
        if self._pacer is None:
            return
        for reservation in (self._held, self._unspent):
            if reservation is not None:
                await self._pacer.done(reservation)
        self._held = self._unspent = None


UNPACED = Budget(None, "", None)
"""For writes that cost no budget."""
