"""Scoreboards per chat and game, and each user's results across chats.

A chat's board is a sorted set of user keys (the score orders by matches won, then by win
rate) beside a hash of JSON rows ``{name, played, won, points}``. Every match is counted
once: a marker key named after the match id is set in the same script that updates the
board. A user's own results live under the user's hash tag, in another cluster slot than
the chat, so they carry a marker of their own; recording a match again completes whatever
part a lost connection left undone and counts nothing twice.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any, cast

import redis.asyncio as aredis

from bot.model.contract import ChatRef, UserRef
from bot.storage import keys
from bot.storage.game import MatchWrite
from bot.storage.privacy import GRACE
from bot.storage.values import MatchRow, Scoreboard, ScoreRow, StatRow, run_pipelined, text

MATCH_MARKER_TTL = 90 * 86400
"""How long a counted match id is remembered (far longer than any retry can come late)."""

# KEYS: marker, stats hash, chats set, language. ARGV: marker TTL, variant, won (0/1),
# points, the chat's key ('' for none), retention TTL, the grace his set of chats gets
# beyond it. Every key of the user's that holds something of him starts its retention
# period again.
_RECORD_USER = """
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) then return 0 end
local raw = redis.call('HGET', KEYS[2], ARGV[2])
local row = raw and cjson.decode(raw) or {played = 0, won = 0, points = 0}
row.played = row.played + 1
row.won = row.won + tonumber(ARGV[3])
row.points = row.points + tonumber(ARGV[4])
redis.call('HSET', KEYS[2], ARGV[2], cjson.encode(row))
if ARGV[5] ~= '' then redis.call('SADD', KEYS[3], ARGV[5]) end
for i = 2, 4 do redis.call('EXPIRE', KEYS[i], ARGV[6]) end
redis.call('EXPIRE', KEYS[3], ARGV[6] + ARGV[7])
return 1
"""


def board_writes(
    chat: ChatRef, variant: str, rows: Sequence[MatchRow], retention: int
) -> tuple[MatchWrite, ...]:
    """A finished match's rows on the chat's board of its game, made by the write that
    ends the game (see :class:`bot.storage.game.Ending`); the board's retention period
    starts again."""
    board = (keys.scores(chat, variant), keys.players(chat, variant))
    rows_written = tuple(
        MatchWrite("board", board, (row.user.key, row.user.name, int(row.won), row.points))
        for row in rows
    )
    return rows_written + tuple(MatchWrite("EXPIRE", (key,), (retention,)) for key in board)


def _numbers(raw: bytes | str | None) -> dict[str, Any]:
    return {} if raw is None else dict(json.loads(raw))


class ScoreBook:
    """The scoreboard half of the store (see :class:`bot.storage.store.Store`)."""

    def __init__(self, redis: aredis.Redis, retention: int) -> None:
        self._redis = redis
        self._retention = retention
        self._record_user = redis.register_script(_RECORD_USER)
        self._cluster = isinstance(cast(object, redis), aredis.RedisCluster)

    async def record_user_results(
        self,
        match_id: str,
        variant: str,
        rows: Sequence[MatchRow],
        chat: ChatRef | None,
        now: float,
    ) -> None:
        """Count a finished match in each player's own results, once per player, in one
        round trip (on a cluster, whose client pipelines no script, one request to each
        player's node, all at once), note ``chat`` as one whose boards hold him, and
        ``now`` as when he last played (see :mod:`bot.storage.privacy`)."""
        played = {row.user.key: now for row in rows}
        calls: list[tuple[list[str], list[str | int]]] = [
            (
                [
                    keys.user_match(row.user, match_id),
                    keys.user_stats(row.user),
                    keys.user_chats(row.user),
                    keys.user_lang(row.user),
                ],
                [
                    MATCH_MARKER_TTL,
                    variant,
                    int(row.won),
                    row.points,
                    chat.key if chat is not None else "",
                    self._retention,
                    GRACE,
                ],
            )
            for row in rows
        ]
        if self._cluster:
            await asyncio.gather(
                *(self._record_user(keys=k, args=a) for k, a in calls),
                self._played(played),
            )
            return
        async with self._redis.pipeline(transaction=False) as pipe:
            if played:
                pipe.zadd(keys.last_played(), played)
                pipe.expire(keys.last_played(), self._retention + GRACE)
            await run_pipelined(pipe, self._record_user, calls)

    async def _played(self, played: dict[str, float]) -> None:
        if played:
            await self._redis.zadd(keys.last_played(), played)
            await self._redis.expire(keys.last_played(), self._retention + GRACE)

    async def chat_players(self, chat: ChatRef, variants: Sequence[str]) -> dict[str, str]:
        """Everyone on the chat's boards of ``variants``: user key -> the name he last
        played under."""
        async with self._redis.pipeline(transaction=False) as pipe:
            for variant in variants:
                pipe.hgetall(keys.players(chat, variant))
            boards: list[dict[Any, Any]] = await pipe.execute()
        return {
            text(key): str(_numbers(raw).get("name", ""))
            for board in boards
            for key, raw in board.items()
        }

    async def scoreboard(
        self, chat: ChatRef, variant: str, top: int, me: UserRef | None
    ) -> Scoreboard:
        ranking, rows_key = keys.scores(chat, variant), keys.players(chat, variant)
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.zrevrange(ranking, 0, max(top, 0) - 1)
            pipe.zcard(ranking)
            if me is not None:
                pipe.zrevrank(ranking, me.key)
            replies = await pipe.execute()
        leaders = [text(member) for member in replies[0]]
        my_rank: int | None = replies[2] if me is not None else None
        wanted = leaders + ([me.key] if me is not None and my_rank is not None else [])
        raw_rows = await self._redis.hmget(rows_key, wanted) if wanted else []
        board = [
            _score_row(rank, user_key, raw)
            for rank, (user_key, raw) in enumerate(zip(wanted, raw_rows, strict=True), 1)
        ]
        mine = None
        if me is not None and my_rank is not None:
            mine = _score_row(my_rank + 1, me.key, raw_rows[-1])
        return Scoreboard(variant, tuple(board[: len(leaders)]), mine, int(replies[1]))

    async def user_stats(self, user: UserRef) -> list[StatRow]:
        raw = await self._redis.hgetall(keys.user_stats(user))
        rows = []
        for variant, row_json in raw.items():
            row = _numbers(row_json)
            rows.append(StatRow(text(variant), row["played"], row["won"], row["points"]))
        return sorted(rows, key=lambda row: row.variant)


def _score_row(rank: int, user_key: str, raw: bytes | str | None) -> ScoreRow:
    row = _numbers(raw)
    return ScoreRow(
        rank=rank,
        user_key=user_key,
        name=str(row.get("name", user_key)),
        played=int(row.get("played", 0)),
        won=int(row.get("won", 0)),
        points=int(row.get("points", 0)),
    )
