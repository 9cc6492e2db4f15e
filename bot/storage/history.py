"""The finished matches a chat keeps for ``history``: the newest :data:`KEPT` of them,
each for the chat's history time (``HISTORY_DAYS``).

Two keys of the chat's hash slot hold them: a hash from match id to the match as kept
(a :class:`bot.storage.kept_match.KeptMatch`, as JSON, its game packed), and a sorted set of the
ids by when each ended. The write that finishes a match keeps it, in the same script
(:data:`KEEP_MATCH`), and drops the ones past the newest :data:`KEPT` or older than the
history time, renewing both keys' expiry: a chat that plays no match for that long
keeps nothing. Keeping the same match again changes nothing.
"""

from __future__ import annotations

from typing import Final

import redis.asyncio as aredis

from bot.model.contract import ChatRef
from bot.storage import keys
from bot.storage.connect import guarded
from bot.storage.values import text

KEPT: Final = 50
"""Finished matches a chat keeps at most."""

DEFAULT_DAYS: Final = 180.0

# keep_match(hash, order, match id, the match as kept, when it ended, how many to keep, the
# oldest end kept, the keys' TTL): keeps the match and drops what falls out, with its
# other fields (``id>…``, such as its players' reviews). The write that finishes a match
# runs it in its ending (see :mod:`bot.storage.game`); :meth:`MatchHistory.keep` alone.
KEEP_MATCH: Final = """
local function keep_match(hash, order, id, kept, ended, count, oldest, ttl)
  redis.call('HSET', hash, id, kept)
  redis.call('ZADD', order, ended, id)
  local gone = redis.call('ZRANGE', order, 0, -(tonumber(count) + 1))
  for _, old in ipairs(redis.call('ZRANGEBYSCORE', order, '-inf', '(' .. oldest)) do
    gone[#gone + 1] = old
  end
  if #gone > 0 then
    local dropped = {}
    for _, old in ipairs(gone) do
      dropped[old] = true
      redis.call('ZREM', order, old)
    end
    for _, field in ipairs(redis.call('HKEYS', hash)) do
      if dropped[string.match(field, '^([^>]*)')] then redis.call('HDEL', hash, field) end
    end
  end
  redis.call('EXPIRE', hash, ttl)
  redis.call('EXPIRE', order, ttl)
end
"""

_KEEP: Final = (
    KEEP_MATCH
    + """
keep_match(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6])
"""
)


def keep_values(match_id: str, ended: float, kept: str, ttl: int) -> tuple[str | int, ...]:
    """What :data:`KEEP_MATCH` takes after its two keys, for a match kept ``ttl`` seconds."""
    if ">" in match_id:
        raise ValueError(f"a match id may not contain '>': {match_id!r}")
    return (match_id, kept, repr(ended), KEPT, repr(ended - ttl), ttl)


class MatchHistory:
    """A chat's kept matches; ``ttl`` is how long one is kept, in seconds."""

    def __init__(self, redis: aredis.Redis, ttl: int) -> None:
        self._redis = redis
        self.ttl = ttl
        self._keep = redis.register_script(_KEEP)

    @guarded
    async def keep(self, chat: ChatRef, match_id: str, ended: float, kept: str) -> None:
        """Keep a finished match (``kept``: its JSON) as of ``ended`` (Unix seconds)."""
        await self._keep(
            keys=[keys.history(chat), keys.history_order(chat)],
            args=list(keep_values(match_id, ended, kept, self.ttl)),
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
