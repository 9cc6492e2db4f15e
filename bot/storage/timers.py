"""Turn deadlines in sorted sets, claimed atomically by whichever process sees them first.

The deadlines are spread over :data:`bot.storage.keys.TIMER_BUCKETS` buckets in as many cluster
slots, a chat's always in the same one. Each game has at most one deadline. Its member,
``chatkey|game_id|counter``, is also kept in its bucket's hash under the game's
``chatkey|game_id`` field, so scheduling can remove the game's previous member in the same
script that adds the new one: a replaced deadline can never be claimed. Claiming removes
the member (only one caller can) and is a separate step from the timeout move itself; the
move carries the turn counter, so a late claim changes nothing.

A game's deadline is set in the same round trip as the write of the game, just before it
(see :meth:`bot.storage.store.Store.write_game`). Should the write lose, the deadline names a point
the game never reaches and fires once to do nothing; the writer that won has set its own,
and a game read without being written gets its deadline armed again. Arming adds a
deadline only if it is not there yet and replaces nothing, so doing it too often is
harmless.
"""

from __future__ import annotations

import asyncio

import redis.asyncio as aredis

from bot.model.contract import ChatRef
from bot.storage import keys
from bot.storage.batch import Commands
from bot.storage.values import TimerChange, TimerClaim, text

# KEYS: a sorted set, the hash naming each field's member in it. ARGV: field, member, score.
# The member the field named before leaves the set: a replaced deadline (or held ping, see
# adapters.pings) can never be claimed.
REPLACE_MEMBER = """
local previous = redis.call('HGET', KEYS[2], ARGV[1])
if previous then redis.call('ZREM', KEYS[1], previous) end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
"""

# KEYS: timer set, current-member hash. ARGV: field, member, due.
# A member already set keeps its time; the game's current member is set only if it has none.
_ARM = """
if redis.call('ZSCORE', KEYS[1], ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
if not redis.call('HGET', KEYS[2], ARGV[1]) then redis.call('HSET', KEYS[2], ARGV[1], ARGV[2]) end
return 1
"""

# KEYS: timer set, current-member hash. ARGV: field.
_UNSCHEDULE = """
local previous = redis.call('HGET', KEYS[2], ARGV[1])
if previous then redis.call('ZREM', KEYS[1], previous) end
redis.call('HDEL', KEYS[2], ARGV[1])
"""

# KEYS: timer set, current-member hash. ARGV: now, limit, member prefix ('' for any),
# how many due members of other platforms to look past at most.
# Members this call skips stay in place, so the next page starts after them.
_CLAIM = """
local claimed, skipped = {}, 0
local limit, prefix, look_past = tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4])
while #claimed < limit and skipped <= look_past do
  local page = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', skipped, 100)
  if #page == 0 then break end
  for _, member in ipairs(page) do
    if #claimed >= limit then break end
    if string.sub(member, 1, #prefix) == prefix then
      redis.call('ZREM', KEYS[1], member)
      claimed[#claimed + 1] = member
      local field = string.match(member, '^(.*)|[^|]*$')
      if field and redis.call('HGET', KEYS[2], field) == member then
        redis.call('HDEL', KEYS[2], field)
      end
    else
      skipped = skipped + 1
    end
  end
end
return claimed
"""

# KEYS: timer set, current-member hash. ARGV: field. Takes the game's deadline off the set
# and returns {member, due}, or false when it has none.
_TAKE = """
local previous = redis.call('HGET', KEYS[2], ARGV[1])
if not previous then return false end
local due = redis.call('ZSCORE', KEYS[1], previous)
redis.call('ZREM', KEYS[1], previous)
redis.call('HDEL', KEYS[2], ARGV[1])
if not due then return false end
return {previous, due}
"""

LOOK_PAST = 1000
"""How many due deadlines of other platforms one claim looks past before giving up."""


class TimerSet:
    """The timer half of the store (see :class:`bot.storage.store.Store`)."""

    def __init__(self, redis: aredis.Redis) -> None:
        self._schedule = redis.register_script(REPLACE_MEMBER)
        self._arm = redis.register_script(_ARM)
        self._unschedule = redis.register_script(_UNSCHEDULE)
        self._claim = redis.register_script(_CLAIM)
        self._take = redis.register_script(_TAKE)

    def queue(self, batch: Commands, chat: ChatRef, game_id: str, change: TimerChange) -> None:
        """Add ``change`` of the game's deadline to ``batch`` (by script digest only: if the
        server forgot the script, :meth:`change` makes it again)."""
        timers = keys.chat_timers(chat)
        field = keys.timer_field(chat, game_id)
        if change.counter is None:
            batch.evalsha(self._unschedule.sha, 2, *timers, field)
        else:
            member = keys.timer_member(chat, game_id, change.counter)
            batch.evalsha(self._schedule.sha, 2, *timers, field, member, repr(float(change.due)))

    async def change(self, chat: ChatRef, game_id: str, change: TimerChange) -> None:
        if change.counter is None:
            await self.unschedule(chat, game_id)
        else:
            await self.schedule(chat, game_id, change.counter, change.due)

    async def schedule(self, chat: ChatRef, game_id: str, counter: int, due: float) -> None:
        member = keys.timer_member(chat, game_id, counter)
        await self._schedule(
            keys=list(keys.chat_timers(chat)),
            args=[keys.timer_field(chat, game_id), member, repr(float(due))],
        )

    async def arm(self, chat: ChatRef, game_id: str, counter: int, due: float) -> bool:
        member = keys.timer_member(chat, game_id, counter)
        added = await self._arm(
            keys=list(keys.chat_timers(chat)),
            args=[keys.timer_field(chat, game_id), member, repr(float(due))],
        )
        return bool(added)

    async def unschedule(self, chat: ChatRef, game_id: str) -> None:
        await self._unschedule(
            keys=list(keys.chat_timers(chat)), args=[keys.timer_field(chat, game_id)]
        )

    async def claim_due(self, now: float, platform: str | None, limit: int) -> list[TimerClaim]:
        """Up to ``limit`` due deadlines from each bucket, earliest first within a bucket;
        the buckets are asked all at once."""
        prefix = "" if platform is None else platform + ":"
        share = max(limit, 0)
        buckets = [keys.timers(b) for b in range(keys.TIMER_BUCKETS)]
        replies = await asyncio.gather(
            *(
                self._claim(keys=list(bucket), args=[repr(float(now)), share, prefix, LOOK_PAST])
                for bucket in buckets
            )
        )
        claims = []
        for member in (m for reply in replies for m in reply):
            parsed = keys.parse_timer_member(text(member))
            if parsed is not None:
                claims.append(TimerClaim(*parsed))
        return claims

    async def move(self, old: ChatRef, new: ChatRef, game_id: str) -> bool:
        """Give the game's deadline in chat ``old`` to chat ``new``; ``False`` if it had none.

        The two chats' deadlines may be in different buckets, so this takes two steps; a
        deadline lost between them is armed again by the next read of the game."""
        claim = await self._take(
            keys=list(keys.chat_timers(old)), args=[keys.timer_field(old, game_id)]
        )
        if not claim:
            return False
        member, due = text(claim[0]), float(claim[1])
        counter = keys.parse_timer_member(member)
        if counter is None:
            return False
        await self.schedule(new, game_id, counter[2], due)
        return True
