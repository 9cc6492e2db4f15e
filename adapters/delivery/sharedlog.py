"""The send log shared through Redis, so that several webhook workers serving one bot
share each chat's budget and the bot-wide one (see :mod:`adapters.delivery.limiter`).

Each chat's log is a sorted set changed only by the scripts below, so two workers never
take the same turn. The scripts are written here rather than taken from a rate-limiting
library: those count requests when they are allowed, while these also follow a write
from its turn through leaving to its answer, which is what a platform's limits see.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from adapters.delivery.limiter import Reservation, Rule
from adapters.delivery.liveness import Liveness
from bot.storage.values import text

log = logging.getLogger(__name__)

# KEYS[1]: the chat's sorted set of write moments. ARGV: now, a fresh id, ttl ms, how
# long a write may be on its way, the earliest moment wanted, then count/period pairs.
# Writes are forgotten by the time now (a turn wanted later must not drop writes of the
# last second that other turns are spaced from). Members are "r:<id>:<turn>"
# while reserved, "s:<id>:<moment>" once claimed on its way, and "d:<id>" once done.
# Returns the turn and the member, as strings (Lua numbers would come back cut to
# integers).
_RESERVE = """
local key = KEYS[1]
local now = tonumber(ARGV[1])
local in_flight = tonumber(ARGV[4])
local function num(x) return string.format('%.17g', x) end
local longest = 0
for i = 6, #ARGV, 2 do longest = math.max(longest, tonumber(ARGV[i + 1])) end
-- Another worker's write whose turn has come is on its way: it ends no earlier than now.
-- One that has left stays on its way until it is answered, however long that takes, when
-- it names its process (see _CLAIM).
for _, member in ipairs(redis.call('ZRANGEBYSCORE', key, '-inf', num(now))) do
  local kind = string.sub(member, 1, 2)
  if kind == 'r:' or kind == 's:' then
    local turn = tonumber(string.match(member, ':([^:]*)$'))
    local named = kind == 's:' and string.match(member, '^s:[^.:]*%.')
    if named or (turn and turn > now - in_flight) then redis.call('ZADD', key, now, member) end
  end
end
redis.call('ZREMRANGEBYSCORE', key, '-inf', '(' .. num(now - longest))
local at = math.max(now, tonumber(ARGV[5]))
for i = 6, #ARGV, 2 do
  local count = tonumber(ARGV[i])
  local nth = redis.call('ZREVRANGE', key, count - 1, count - 1, 'WITHSCORES')
  if nth[2] then at = math.max(at, tonumber(nth[2]) + tonumber(ARGV[i + 1])) end
end
-- Behind any turn reserved before it (the bot-wide log holds a queue of thousands: the
-- first one answers, read a page at a time).
local behind, offset, page = 0, 0, {}
repeat
  page = redis.call('ZRANGEBYSCORE', key, '-inf', num(at), 'LIMIT', offset, 64)
  for _, other in ipairs(page) do
    if string.sub(other, 1, 2) == 'r:' then behind = 1 break end
  end
  offset = offset + 64
until behind == 1 or #page < 64
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
# KEYS[1]: the chat's sorted set. ARGV: now, the reservation's member, how long a write
# may be on its way, ttl ms, processes known to be gone (comma-separated), then
# count/period pairs. Returns '' and the member the write now has on its way, or the
# moment to ask again and '' (as busy_until in Python) with the processes of writes on
# their way for longer than a Bot API call lasts. Such a write still counts until it is
# answered (a starved event loop takes its time to see the answer, and the platform may have
# seen the write at any moment until then), unless its process is gone; one that names
# no process counts no longer than that.
_CLAIM = """
local key, mine = KEYS[1], ARGV[2]
local now, in_flight = tonumber(ARGV[1]), tonumber(ARGV[3])
local function num(x) return string.format('%.17g', x) end
local gone = {}
for process in string.gmatch(ARGV[5], '[^,]+') do gone[process] = true end
local on_way, answered, long, named = 0, {}, {}, {}
-- Writes on their way and answered are scored at moments that have come (by the clock of
-- the worker that made them, a second at most ahead of this one); the turns reserved after
-- them, thousands in the bot-wide log, are not read.
local all = redis.call('ZRANGEBYSCORE', key, '-inf', num(now + 1), 'WITHSCORES')
for i = 1, #all, 2 do
  local member, score = all[i], tonumber(all[i + 1])
  local kind = string.sub(member, 1, 2)
  if kind == 'd:' and score > now - in_flight then
    answered[#answered + 1] = score
  elseif kind == 's:' and member ~= mine then
    local process = string.match(member, '^s:([^.:]*)%.')
    if tonumber(string.match(member, ':([^:]*)$')) > now - in_flight then
      on_way = on_way + 1
    elseif process and gone[process] then
      redis.call('ZREM', key, member)
    elseif process then
      on_way = on_way + 1
      if not named[process] then long[#long + 1] = process end
      named[process] = true
    end
  end
end
local again = nil
for i = 6, #ARGV, 2 do
  local count, period = tonumber(ARGV[i]), tonumber(ARGV[i + 1])
  local first, recent = nil, 0
  for _, moment in ipairs(answered) do
    if moment > now - period then
      recent = recent + 1
      if not first or moment < first then first = moment end
    end
  end
  if on_way + recent >= count then
    local moment = now + period
    if first then moment = math.min(first, now) + period end
    if not again or moment > again then again = moment end
  end
end
if again then return {num(again), '', long} end
local started = 's:' .. string.match(mine, '^%a:([^:]*)') .. ':' .. num(now)
redis.call('ZREM', key, mine)
redis.call('ZADD', key, now, started)
redis.call('PEXPIRE', key, ARGV[4])
return {'', started, {}}
"""
# Seconds a reserved write may take: a Bot API call gives up by then (python-telegram-bot
# waits 1 s for a pooled connection, 5 to connect, 5 to write and 5 to read), so a turn a
# killed worker left behind holds up the chat's next write no longer than that, or only
# until its process's key has expired (see :mod:`.liveness`).
IN_FLIGHT = 16.0
# How long a send marked done is remembered at least: the longest rule's period (a minute
# in every platform's budget so far; a log given longer rules is told, ``done_ms``), and a
# minute.
DONE_MS = 60_000 + 60_000


class RedisSendLog:
    """The send log shared through Redis; ``key_for(chat)`` names a chat's sorted set.

    Workers reserve their turns in one script, so two of them never take the same turn;
    and a write another worker has on its way counts as ending no earlier than now, so
    the next turn is spaced from when it will really have reached the platform.
    """

    def __init__(
        self,
        redis: Any,
        key_for: Callable[[str], str],
        liveness: Liveness | None = None,
        done_ms: int = DONE_MS,
    ) -> None:
        self._redis = redis
        self._done_ms = done_ms
        self._key_for = key_for
        self._liveness = liveness  # without one, turns name no process and run out
        self._prefix = f"{liveness.me}." if liveness is not None else ""
        self._script = redis.register_script(_RESERVE)
        self._confirm = redis.register_script(_CONFIRM)
        self._claim = redis.register_script(_CLAIM)

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

    async def claim(
        self, reservation: Reservation, rules: Sequence[Rule], now: float
    ) -> Reservation | float:
        again, started, long = await self._claim_once(reservation, rules, now, gone=[])
        gone = [p for p in long if self._liveness is not None and await self._liveness.gone(p)]
        if gone:
            log.info("writes of processes %s, which are gone, no longer count", ", ".join(gone))
            again, started, _ = await self._claim_once(reservation, rules, now, gone)
        if again is not None:
            return again
        return replace(reservation, token=started)

    async def _claim_once(
        self, reservation: Reservation, rules: Sequence[Rule], now: float, gone: list[str]
    ) -> tuple[float | None, str, list[str]]:
        args: list[Any] = [repr(now), reservation.token, IN_FLIGHT, self._done_ms, ",".join(gone)]
        for rule in rules:
            args += [rule.count, repr(rule.period)]
        key = self._key_for(reservation.chat)
        again, started, long = await self._claim(keys=[key], args=args)
        moment = float(text(again)) if text(again) else None
        return moment, text(started), [text(process) for process in long]

    async def mark_done(self, reservation: Reservation, done: float) -> None:
        key = self._key_for(reservation.chat)
        done_entry = "d:" + reservation.token.split(":")[1]
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.zrem(key, reservation.token)
            pipe.zadd(key, {done_entry: max(done, reservation.at)})
            # Removing the only member deleted the key, and with it the key's expiry. Every
            # claim sets this same expiry, so setting it again only lengthens what is left
            # (``NX`` would say "only if none", but Redis before 7.0, the embedded one
            # included, refuses it).
            pipe.pexpire(key, self._done_ms)
            await pipe.execute()

    async def release(self, reservation: Reservation) -> None:
        await self._redis.zrem(self._key_for(reservation.chat), reservation.token)
