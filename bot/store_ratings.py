"""Ratings in Redis: per chat and game, and per game across every chat.

Each holds a hash of rating lines (player key -> :func:`bot.ratings.encode`) and a
sorted set of the same players by ordinal, for the leaderboards. A chat's pair lives
in the chat's slot, so the write that ends a match updates it (see
:func:`chat_rating_writes`): the chat's ratings move exactly when the match is counted.
Across every chat, a game's ratings are spread over
:data:`~bot.keys.RATING_BUCKETS` small hashes (Redis keeps a small hash in its compact
encoding, so a player costs a few dozen bytes instead of a few hundred), and the
leaderboard keeps only the best :data:`LEADERS_KEPT` players, with their lines beside it.
All of a game's keys and each match's marker share one hash tag; one script sets the
marker and updates them, so a match moves the global ratings at most once however often
it is retried. A leaderboard is one script call: the top of the sorted set and those
players' lines together.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import redis.asyncio as aredis

from bot import keys
from bot.contract import ChatRef
from bot.ratings import Rating, decode, encode
from bot.store_game import MatchWrite
from bot.store_types import text

RATED_MATCH_TTL = 90 * 86400
"""How long a match counted in the global ratings is remembered."""
LEADERS_KEPT = 500
"""Players the global leaderboard of a game keeps (a board shows far fewer)."""

# KEYS: marker, leaders set, leader rows, then each player's bucket. ARGV: marker TTL,
# leaders kept, then key, line, ordinal for each player (in the order of the buckets).
_RECORD_GLOBAL = """
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) then return 0 end
local kept = tonumber(ARGV[2])
for i = 3, #ARGV, 3 do
  local player, line = ARGV[i], ARGV[i + 1]
  redis.call('HSET', KEYS[4 + (i - 3) / 3], player, line)
  redis.call('ZADD', KEYS[2], ARGV[i + 2], player)
  redis.call('HSET', KEYS[3], player, line)
end
local dropped = redis.call('ZRANGE', KEYS[2], 0, -(kept + 1))
if #dropped > 0 then
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -(kept + 1))
  redis.call('HDEL', KEYS[3], unpack(dropped))
end
return 1
"""

# KEYS: leaders set, ratings hash. ARGV: how many. The leaders and their lines, and
# how many players the board holds.
_LEADERS = """
local ids = redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1)
if #ids == 0 then return {ids, {}, 0} end
return {ids, redis.call('HMGET', KEYS[2], unpack(ids)), redis.call('ZCARD', KEYS[1])}
"""


def chat_rating_writes(
    chat: ChatRef, variant: str, updated: Mapping[str, Rating]
) -> tuple[MatchWrite, ...]:
    """The chat's ratings after a match, as writes of the step that ends it."""
    if not updated:
        return ()
    lines = tuple(v for key, rating in updated.items() for v in (key, encode(rating)))
    ranks = tuple(v for key, rating in updated.items() for v in (rating.ordinal, key))
    return (
        MatchWrite("HSET", (keys.chat_ratings(chat, variant),), lines),
        MatchWrite("ZADD", (keys.chat_leaders(chat, variant),), ranks),
    )


class RatingBook:
    """The ratings half of the store (see :class:`bot.store.Store`)."""

    def __init__(self, redis: aredis.Redis) -> None:
        self._redis = redis
        self._record_global = redis.register_script(_RECORD_GLOBAL)
        self._leaders = redis.register_script(_LEADERS)

    async def ratings(
        self, chat: ChatRef | None, variant: str, names: Mapping[str, str]
    ) -> dict[str, Rating]:
        """The current ratings of the players ``names`` maps (key -> name shown), in the
        chat (``None``: across every chat); a new player starts at the model's prior."""
        wanted = list(names)
        if not wanted:
            return {}
        if chat is not None:
            raw = await self._redis.hmget(keys.chat_ratings(chat, variant), wanted)
        else:
            async with self._redis.pipeline(transaction=False) as pipe:
                for key in wanted:
                    pipe.hget(keys.ratings(variant, key), key)
                raw = await pipe.execute()
        return {
            key: _named(decode(line, names[key]), names[key])
            for key, line in zip(wanted, raw, strict=True)
        }

    async def record_global(
        self, match_id: str, variant: str, updated: Mapping[str, Rating]
    ) -> bool:
        """Move the global ratings for a match; ``False`` if it had moved them already."""
        if not updated:
            return False
        args: list[str | float | int] = [RATED_MATCH_TTL, LEADERS_KEPT]
        for key, rating in updated.items():
            args += [key, encode(rating), rating.ordinal]
        marker = keys.rated_match(variant, match_id)
        script_keys = [marker, keys.leaders(variant), keys.leader_rows(variant)]
        script_keys += [keys.ratings(variant, key) for key in updated]
        return bool(await self._record_global(keys=script_keys, args=args))

    async def leaders(
        self, chat: ChatRef | None, variant: str, top: int
    ) -> tuple[list[tuple[str, Rating]], int]:
        """The ``top`` players by ordinal (in the chat, or across every chat), with how
        many the board holds: one script call."""
        if chat is not None:
            board = [keys.chat_leaders(chat, variant), keys.chat_ratings(chat, variant)]
        else:
            board = [keys.leaders(variant), keys.leader_rows(variant)]
        ids, lines, count = await self._leaders(keys=board, args=[top])
        rows = [(text(i), decode(line)) for i, line in zip(ids, lines, strict=True) if line]
        return rows, int(count)

    async def player(self, key: str, variants: Sequence[str]) -> dict[str, Rating]:
        """A player's global rating in each game he has played, by game."""
        async with self._redis.pipeline(transaction=False) as pipe:
            for variant in variants:
                pipe.hget(keys.ratings(variant, key), key)
            replies: Iterable[bytes | str | None] = await pipe.execute()
        return {
            variant: decode(line)
            for variant, line in zip(variants, replies, strict=True)
            if line is not None
        }


def _named(rating: Rating, name: str) -> Rating:
    """``rating`` under the name the player goes by now."""
    from dataclasses import replace

    return rating if rating.name == name else replace(rating, name=name)
