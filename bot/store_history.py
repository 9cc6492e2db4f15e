"""The finished matches a chat keeps for ``history``: the newest :data:`KEPT` of them,
each for the chat's history time (``HISTORY_DAYS``).

Two keys of the chat's hash slot hold them: a hash from match id to the match as kept
(a :class:`bot.history.KeptMatch`, as JSON, its game packed), and a sorted set of the
ids by when each ended. One script adds a match and drops, in the same call, the ones
past the newest :data:`KEPT` or older than the history time, and renews both keys'
expiry: a chat that plays no match for that long keeps nothing. Adding the same match
again changes nothing, so the step that adds it may be retried.
"""

from __future__ import annotations

from typing import Final

import redis.asyncio as aredis

from bot import keys
from bot.contract import ChatRef
from bot.store_connect import guarded
from bot.store_types import text

KEPT: Final = 50
"""Finished matches a chat keeps at most."""

DEFAULT_DAYS: Final = 180.0

# KEYS: the hash, the order. ARGV: match id, the match as kept, when it ended, how many to
# keep, the oldest end kept, the keys' TTL. Drops what falls out, with its other fields
# (``id>…``, such as its players' reviews).
_KEEP: Final = """
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
local gone = redis.call('ZRANGE', KEYS[2], 0, -(tonumber(ARGV[4]) + 1))
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', '(' .. ARGV[5])) do
  gone[#gone + 1] = id
end
if #gone > 0 then
  local dropped = {}
  for _, id in ipairs(gone) do
    dropped[id] = true
    redis.call('ZREM', KEYS[2], id)
  end
  for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
    local id = string.match(field, '^([^>]*)')
    if dropped[id] then redis.call('HDEL', KEYS[1], field) end
  end
end
redis.call('EXPIRE', KEYS[1], ARGV[6])
redis.call('EXPIRE', KEYS[2], ARGV[6])
return #gone
"""


class MatchHistory:
    """A chat's kept matches; ``ttl`` is how long one is kept, in seconds."""

    def __init__(self, redis: aredis.Redis, ttl: int) -> None:
        self._redis = redis
        self.ttl = ttl
        self._keep = redis.register_script(_KEEP)

    @guarded
    async def keep(self, chat: ChatRef, match_id: str, ended: float, kept: str) -> None:
        """Keep a finished match (``kept``: its JSON) as of ``ended`` (Unix seconds)."""
        if ">" in match_id:
            raise ValueError(f"a match id may not contain '>': {match_id!r}")
        cutoff = ended - self.ttl
        await self._keep(
            keys=[keys.history(chat), keys.history_order(chat)],
            args=[match_id, kept, repr(ended), KEPT, repr(cutoff), self.ttl],
        )

    @guarded
    async def newest(self, chat: ChatRef, count: int, now: float) -> list[str]:
        """The chat's kept matches (their JSON), newest first, at most ``count`` and none
        older than the history time."""
        ids = await self._redis.zrevrangebyscore(
            keys.history_order(chat), "+inf", repr(now - self.ttl), start=0, num=count
        )
        if not ids:
            return []
        found = await self._redis.hmget(keys.history(chat), [text(i) for i in ids])  # type: ignore[arg-type]
        return [text(raw) for raw in found if raw is not None]

    @guarded
    async def one(self, chat: ChatRef, field: str) -> str | None:
        """A kept match by its id (or another of its fields, ``id>…``)."""
        raw = await self._redis.hget(keys.history(chat), field)
        return text(raw) if raw is not None else None

    @guarded
    async def add_field(self, chat: ChatRef, match_id: str, name: str, value: str) -> bool:
        """Keep ``value`` beside a kept match as its field ``id>name``; ``False`` when
        the match is no longer kept."""
        key = keys.history(chat)
        if not await self._redis.hexists(key, match_id):
            return False
        await self._redis.hset(key, f"{match_id}>{name}", value)
        return True
