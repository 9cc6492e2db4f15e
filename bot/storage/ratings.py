"""Ratings in Redis: per chat and game, and per game across every chat.

Each holds a hash of rating lines (player key -> :func:`bot.model.ratings.encode`) and a
sorted set of the same players by ordinal, for the leaderboards. A chat's pair lives
in the chat's slot, so the write that ends a match updates it (see
:func:`chat_rating_writes`): the chat's ratings move exactly when the match is counted.
Across every chat, a game's ratings are spread over
:data:`~bot.storage.keys.RATING_BUCKETS` small hashes (Redis keeps a small hash in its compact
encoding, so a player costs a few dozen bytes instead of a few hundred), and the
leaderboard keeps only the best :data:`LEADERS_KEPT` players, with their lines beside it.
All of a game's keys and each match's marker share one hash tag; one script sets the
marker and updates them, so a match moves the global ratings at most once however often
it is retried. A finished match waits for that script in its chat's rating queue, with each
person's own results (``/stats``), written by the write that ends it, so it moves them
at least once too: the process that ended it settles it, or a later tick sweeps the
chats noted (before the ending write) in a global index. The script also compares each
player's line with the one the update was worked out from and refuses when another match
moved it in between; the update is then worked out again, so two matches sharing a
player never overwrite each other.
A leaderboard is one script call: the top of the sorted set and those
players' lines together.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Any

import redis.asyncio as aredis

from bot.model.contract import ChatRef, UserRef
from bot.model.ratings import Rating, Result, decode, encode, rate_result
from bot.storage import keys
from bot.storage.game import MatchWrite
from bot.storage.values import MatchRow, text

log = logging.getLogger(__name__)

RATED_MATCH_TTL = 90 * 86400
"""How long a match counted in the global ratings is remembered."""
SETTLE_TRIES = 20
"""Times a match's global update is worked out again when other matches moved its players."""
LEADERS_KEPT = 500
"""Players the global leaderboard of a game keeps (a board shows far fewer)."""

# KEYS: marker, leaders set, leader rows, then each player's bucket. ARGV: marker TTL,
# leaders kept, retention TTL, then key, line seen before ('*': not checked, '': none),
# new line and ordinal for each player (in the order of the buckets). 0: counted
# already, -1: a player's line changed since it was read (nothing written), 1: written.
# Every key written starts its retention period again.
_RECORD_GLOBAL = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
for i = 4, #ARGV, 4 do
  local seen = ARGV[i + 1]
  if seen ~= '*' then
    local now = redis.call('HGET', KEYS[4 + (i - 4) / 4], ARGV[i]) or ''
    if now ~= seen then return -1 end
  end
end
redis.call('SET', KEYS[1], '1', 'EX', ARGV[1])
local kept = tonumber(ARGV[2])
for i = 4, #ARGV, 4 do
  local player, line = ARGV[i], ARGV[i + 2]
  redis.call('HSET', KEYS[4 + (i - 4) / 4], player, line)
  redis.call('ZADD', KEYS[2], ARGV[i + 3], player)
  redis.call('HSET', KEYS[3], player, line)
end
for i = 2, #KEYS do redis.call('EXPIRE', KEYS[i], ARGV[3]) end
local dropped = redis.call('ZRANGE', KEYS[2], 0, -(kept + 1))
if #dropped > 0 then
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -(kept + 1))
  redis.call('HDEL', KEYS[3], unpack(dropped))
end
return 1
"""

# KEYS: the rating queue index. ARGV: chat key, the score it was seen with. Drops the chat
# unless a match has queued an update there since.
_DROP_NOTE = """
local noted = redis.call('ZSCORE', KEYS[1], ARGV[1])
if noted and tonumber(noted) == tonumber(ARGV[2]) then
  return redis.call('ZREM', KEYS[1], ARGV[1])
end
return 0
"""

# KEYS: leaders set, ratings hash. ARGV: how many. The leaders and their lines, and
# how many players the board holds.
_LEADERS = """
local ids = redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1)
if #ids == 0 then return {ids, {}, 0} end
return {ids, redis.call('HMGET', KEYS[2], unpack(ids)), redis.call('ZCARD', KEYS[1])}
"""


class RatingContention(Exception):
    """Other matches kept moving a match's players' global ratings under every retry."""


def rating_queue_write(
    chat: ChatRef,
    match_id: str,
    variant: str,
    names: Mapping[str, str],
    result: Result,
    rows: Sequence[MatchRow] = (),
) -> MatchWrite:
    """The write that queues a match's global update and each person's own results
    (``rows``) in the chat's rating queue, made by the write that ends the match, so both
    survive the process that ends it (see :func:`chat_rating_writes` for its expiry)."""
    packed = json.dumps(
        {
            "v": variant,
            "n": dict(names),
            "r": [[rank, [list(m) for m in side]] for rank, side in result],
            "u": [
                [r.user.platform, r.user.user_id, r.user.name, int(r.won), r.points] for r in rows
            ],
        },
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return MatchWrite("HSET", (keys.rating_queue(chat),), (match_id, packed))


Queued = tuple[str, Mapping[str, str], Result, Sequence[MatchRow]]
"""A match waiting in a chat's rating queue: its game, the names its players go by, its result,
and each person's own results."""

RecordResults = Callable[[str, str, Sequence[MatchRow], ChatRef], Awaitable[None]]
"""Counts a settled match in its players' own results: its id, its game, the rows, and
the chat whose rating queue held it."""


def _unpack(raw: bytes | str) -> Queued:
    found = json.loads(raw)
    result: Result = tuple(
        (int(rank), tuple((str(key), bool(won)) for key, won in side)) for rank, side in found["r"]
    )
    rows = tuple(
        MatchRow(UserRef(str(platform), str(user_id), str(name)), bool(won), int(points))
        for platform, user_id, name, won, points in found.get("u", ())
    )
    return str(found["v"]), {str(k): str(v) for k, v in found["n"].items()}, result, rows


def chat_rating_writes(
    chat: ChatRef, variant: str, updated: Mapping[str, Rating], retention: int
) -> tuple[MatchWrite, ...]:
    """The chat's ratings after a match, as writes of the step that ends it; they and
    the chat's rating queue start their retention period again."""
    kept: tuple[str, ...] = (keys.rating_queue(chat),)
    if updated:
        kept += (keys.chat_ratings(chat, variant), keys.chat_leaders(chat, variant))
    expiries = tuple(MatchWrite("EXPIRE", (key,), (retention,)) for key in kept)
    if not updated:
        return expiries
    lines = tuple(v for key, rating in updated.items() for v in (key, encode(rating)))
    ranks = tuple(v for key, rating in updated.items() for v in (rating.ordinal, key))
    return (
        MatchWrite("HSET", (keys.chat_ratings(chat, variant),), lines),
        MatchWrite("ZADD", (keys.chat_leaders(chat, variant),), ranks),
        *expiries,
    )


class RatingBook:
    """The ratings half of the store (see :class:`bot.storage.store.Store`)."""

    def __init__(self, redis: aredis.Redis, retention: int, record_results: RecordResults) -> None:
        self._redis = redis
        self._retention = retention
        self._record_results = record_results
        self._record_global = redis.register_script(_RECORD_GLOBAL)
        self._leaders = redis.register_script(_LEADERS)
        self._drop_note = redis.register_script(_DROP_NOTE)

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
        return _decoded(names, raw)

    async def before_end(
        self, chat: ChatRef, variant: str, names: Mapping[str, str], noted: float
    ) -> tuple[dict[str, Rating], dict[str, Rating]]:
        """What the write that ends a match needs first, in one round trip: the players'
        ratings in the chat and across every chat, and the chat noted (as of ``noted``)
        as one whose rating queue may hold a global update (before the ending write, so a process
        killed after that write leaves the chat to be swept)."""
        wanted = list(names)
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.zadd(keys.rating_queues(), {chat.key: noted})
            if wanted:
                pipe.hmget(keys.chat_ratings(chat, variant), wanted)
            for key in wanted:
                pipe.hget(keys.ratings(variant, key), key)
            replies = await pipe.execute()
        if not wanted:
            return {}, {}
        return _decoded(names, replies[1]), _decoded(names, replies[2:])

    async def record_global(
        self, match_id: str, variant: str, updated: Mapping[str, Rating]
    ) -> bool:
        """Move the global ratings for a match; ``False`` if it had moved them already."""
        if not updated:
            return False
        return await self._record(match_id, variant, updated, {}) == 1

    async def _record(
        self,
        match_id: str,
        variant: str,
        updated: Mapping[str, Rating],
        seen: Mapping[str, str],
    ) -> int:
        """The script's answer: 1 written, 0 counted already, -1 a line in ``seen``
        (player -> line read, '' for none; players not in it are not checked) changed."""
        args: list[str | float | int] = [RATED_MATCH_TTL, LEADERS_KEPT, self._retention]
        for key, rating in updated.items():
            args += [key, seen.get(key, "*"), encode(rating), rating.ordinal]
        marker = keys.rated_match(variant, match_id)
        script_keys = [marker, keys.leaders(variant), keys.leader_rows(variant)]
        script_keys += [keys.ratings(variant, key) for key in updated]
        return int(await self._record_global(keys=script_keys, args=args))

    async def settle(
        self,
        chat: ChatRef,
        match_id: str,
        noted: float | None = None,
        queued: Queued | None = None,
    ) -> bool:
        """Count a match waiting in the chat's rating queue in its players' own results and move
        the global ratings for it, then take it out: ``False`` if none was waiting or it
        had moved them already. The players' lines are compared and set in one script,
        and read again when another match moved one of them in between, so two matches
        never overwrite each other.
        ``queued``: the match as the rating queue holds it, when the caller knows (it is not
        read back; a match counted already is refused by the script's marker)."""
        queue = keys.rating_queue(chat)
        if queued is None:
            raw = await self._redis.hget(queue, match_id)
            if raw is None:
                return False
            queued = _unpack(raw)
        variant, names, result, rows = queued
        # Each person's own results first: they do not wait on the global ratings.
        await self._record_results(match_id, variant, rows, chat)
        answer = 0
        for _ in range(SETTLE_TRIES):
            seen = await self._lines(variant, list(names))
            current = {k: _named(decode(seen[k] or None, names[k]), names[k]) for k in names}
            answer = await self._record(match_id, variant, rate_result(result, current), seen)
            if answer >= 0:
                break
        else:
            raise RatingContention(f"the ratings of match {match_id} kept changing")
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.hdel(queue, match_id)
            pipe.exists(queue)
            _taken, left = await pipe.execute()
        if noted is not None and not left:
            await self._drop_note(keys=[keys.rating_queues()], args=[chat.key, repr(noted)])
        return answer == 1

    async def _lines(self, variant: str, players: list[str]) -> dict[str, str]:
        """Each player's global rating line ('' for a new player)."""
        async with self._redis.pipeline(transaction=False) as pipe:
            for key in players:
                pipe.hget(keys.ratings(variant, key), key)
            raw = await pipe.execute()
        return {
            key: text(line) if line is not None else ""
            for key, line in zip(players, raw, strict=True)
        }

    async def sweep(self, before: float, limit: int = 50) -> int:
        """Settle what chats noted before ``before`` still hold in their rating queues (left by
        a process stopped between a match's end and its global update); drop the chats
        left empty. How many matches moved the ratings."""
        index = keys.rating_queues()
        noted: list[Any] = await self._redis.zrangebyscore(
            index, "-inf", before, 0, limit, withscores=True, score_cast_func=text
        )
        moved = 0
        for raw_chat, score in noted:
            chat = ChatRef.from_key(text(raw_chat))
            for match_id in await self._redis.hkeys(keys.rating_queue(chat)):
                try:
                    moved += await self.settle(chat, text(match_id))
                except RatingContention:
                    log.warning("global ratings busy: %s waits for the next sweep", chat.key)
            if not await self._redis.exists(keys.rating_queue(chat)):
                await self._drop_note(keys=[index], args=[chat.key, score])
        return moved

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


def _decoded(names: Mapping[str, str], lines: Sequence[bytes | str | None]) -> dict[str, Rating]:
    """The ratings read for the players ``names`` maps, in its order (``None``: a new
    player, at the model's prior)."""
    return {
        key: _named(decode(line, name), name)
        for (key, name), line in zip(names.items(), lines, strict=True)
    }


def _named(rating: Rating, name: str) -> Rating:
    """``rating`` under the name the player goes by now."""
    from dataclasses import replace

    return rating if rating.name == name else replace(rating, name=name)
