"""The bot's memory in Redis: games by compare-and-set, event streams, scoreboards,
settings, turn timers and the versions adapters last rendered.

Every public method turns a lost or refused connection into :class:`StoreUnavailable`.
Keys come from :mod:`bot.keys` only.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, ParamSpec, TypeVar

import redis.asyncio as aredis
import redis.exceptions
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff

from bot import keys
from bot.contract import ChatRef, UserRef
from bot.store_moves import move_chat_keys
from bot.store_scores import ScoreBook
from bot.store_timers import TimerSet
from bot.store_types import (
    MatchRow,
    Scoreboard,
    ScoreRow,
    StatRow,
    StoreBusy,
    Stored,
    StoreUnavailable,
    TimerClaim,
    text,
)

__all__ = [
    "MatchRow",
    "ScoreRow",
    "Scoreboard",
    "StatRow",
    "Store",
    "StoreBusy",
    "StoreUnavailable",
    "Stored",
    "TimerClaim",
    "connect",
]

EVENTS_CAP = 10_000
"""Approximate length cap of a game's event stream; no match comes near it."""

_P = ParamSpec("_P")
_R = TypeVar("_R")
T = TypeVar("T")

_UNAVAILABLE = (
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    # A replica promoted during a failover refuses writes until clients reconnect.
    redis.exceptions.ReadOnlyError,
    OSError,
)


def _guarded(method: Callable[_P, Awaitable[_R]]) -> Callable[_P, Coroutine[Any, Any, _R]]:
    @functools.wraps(method)
    async def guarded(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return await method(*args, **kwargs)
        except _UNAVAILABLE as exc:
            raise StoreUnavailable(str(exc) or type(exc).__name__) from exc

    return guarded


# KEYS: game hash. ARGV: expected version, document JSON, TTL.
# Returns the new version, or 0 when the stored version is not the expected one.
_SAVE = """
local version = tonumber(redis.call('HGET', KEYS[1], 'v')) or 0
if version ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'v', version + 1, 'doc', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return version + 1
"""

# KEYS: game hash, last-game key. ARGV: expected version, TTL, keep as last (1/0).
_CLEAR = """
local current = redis.call('HMGET', KEYS[1], 'v', 'doc')
if not current[2] or (tonumber(current[1]) or 0) ~= tonumber(ARGV[1]) then return 0 end
if ARGV[3] == '1' then redis.call('SET', KEYS[2], current[2], 'EX', ARGV[2]) end
redis.call('DEL', KEYS[1])
return 1
"""

# KEYS: rendered-version key. ARGV: version, TTL.
_MARK_RENDERED = """
if tonumber(ARGV[1]) <= (tonumber(redis.call('GET', KEYS[1])) or -1) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return 1
"""


def connect(url: str, *, timeout: float = 5.0) -> aredis.Redis:
    """A client for ``url`` that gives up on a dead server within about ``timeout`` seconds.

    A failed command is tried once more on a fresh connection, which is what a pooled
    connection needs after the server restarted.
    """
    return aredis.Redis.from_url(
        url,
        decode_responses=True,
        socket_timeout=timeout,
        socket_connect_timeout=timeout,
        retry=Retry(ExponentialBackoff(cap=0.2, base=0.05), 1),
    )


def _dump(doc: dict[str, Any]) -> str:
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False)


def _load(raw: bytes | str) -> dict[str, Any]:
    doc = json.loads(raw)
    if not isinstance(doc, dict):
        raise ValueError("a stored game document is not a JSON object")
    return doc


class Store:
    """Everything the core keeps in Redis.

    A chat has at most one current game: a JSON document written only by a compare-and-set
    on its version number, so two processes (or two quick presses) can never both apply a
    change. Games, their event streams, the game index and rendered versions expire after
    ``idle_ttl`` seconds without a write. ``clock`` is the time source of whoever works
    with this store (deadlines are given to it as plain numbers), so tests can replace it.
    """

    def __init__(
        self,
        redis: aredis.Redis,
        *,
        idle_ttl: int = 7 * 86400,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._redis = redis
        self._idle_ttl = idle_ttl
        self.clock = clock
        self._save = redis.register_script(_SAVE)
        self._clear = redis.register_script(_CLEAR)
        self._mark_rendered = redis.register_script(_MARK_RENDERED)
        self._scores = ScoreBook(redis)
        self._timers = TimerSet(redis)

    @property
    def idle_ttl(self) -> int:
        return self._idle_ttl

    @_guarded
    async def ping(self) -> None:
        """Raise :class:`StoreUnavailable` unless Redis answers."""
        await self._redis.ping()

    # -- the chat's current game ------------------------------------------------------

    @_guarded
    async def load(self, chat: ChatRef) -> Stored | None:
        version, doc = await self._redis.hmget(keys.game(chat), ["v", "doc"])
        if version is None or doc is None:
            return None
        return Stored(_load(doc), int(version))

    @_guarded
    async def save(self, chat: ChatRef, doc: dict[str, Any], expected: int) -> bool:
        """Write ``doc`` as version ``expected + 1`` if the stored version is ``expected``
        (0: only if the chat has no game); ``False`` on a conflict, and nothing written.

        The game index (``doc["id"]`` -> chat) is refreshed in the same round trip, just
        before the document: an index entry for a write that lost is harmless.
        """
        game_id = doc.get("id")
        index = keys.game_index(game_id) if isinstance(game_id, str) and game_id else None
        payload = _dump(doc)
        try:
            return await self._save_pipelined(chat, index, expected, payload)
        except redis.exceptions.NoScriptError:  # a restarted server forgot the script
            await self._redis.script_load(_SAVE)
            return await self._save_pipelined(chat, index, expected, payload)

    async def _save_pipelined(
        self, chat: ChatRef, index: str | None, expected: int, payload: str
    ) -> bool:
        # The script runs through a plain pipeline, not the script object: redis-py would
        # ask the server whether it knows the script before every pipelined call.
        async with self._redis.pipeline(transaction=False) as pipe:
            if index is not None:
                pipe.set(index, chat.key, ex=self._idle_ttl)
            pipe.evalsha(self._save.sha, 1, keys.game(chat), expected, payload, self._idle_ttl)
            replies = await pipe.execute()
        return bool(replies[-1])

    async def update(
        self,
        chat: ChatRef,
        fn: Callable[[Stored | None], Awaitable[tuple[dict[str, Any] | None, T]]],
        retries: int = 20,
    ) -> T:
        """Load the chat's game, let ``fn`` compute a new document and a result, and write
        the document by compare-and-set; on a conflict, call ``fn`` again on the newer
        game. ``fn`` returning ``None`` as the document writes nothing. Returns ``fn``'s
        result; raises :class:`StoreBusy` after ``retries`` conflicts in a row."""
        for _ in range(retries + 1):
            stored = await self.load(chat)
            doc, result = await fn(stored)
            if doc is None:
                return result
            if await self.save(chat, doc, stored.version if stored else 0):
                return result
        raise StoreBusy(f"the game in {chat.key} kept changing under {retries} retries")

    @_guarded
    async def clear(self, chat: ChatRef, expected: int, *, keep_last: bool = True) -> bool:
        """Remove the chat's game if it is at version ``expected``; unless ``keep_last`` is
        false, keep its document as the chat's last game (for export) for ``idle_ttl``."""
        cleared = await self._clear(
            keys=[keys.game(chat), keys.last_game(chat)],
            args=[expected, self._idle_ttl, int(keep_last)],
        )
        return bool(cleared)

    @_guarded
    async def last_game(self, chat: ChatRef) -> dict[str, Any] | None:
        raw = await self._redis.get(keys.last_game(chat))
        return None if raw is None else _load(raw)

    @_guarded
    async def locate(self, game_id: str) -> ChatRef | None:
        """The chat a game id was last saved in (it may hold another game since)."""
        raw = await self._redis.get(keys.game_index(game_id))
        return None if raw is None else ChatRef.from_key(text(raw))

    # -- events -----------------------------------------------------------------------

    @_guarded
    async def append_events(
        self, chat: ChatRef, game_id: str, events: Sequence[dict[str, Any]]
    ) -> None:
        """Add ``events`` to the game's stream, all or none, and refresh its expiry."""
        if not events:
            return
        stream = keys.events(chat, game_id)
        async with self._redis.pipeline(transaction=True) as pipe:
            for event in events:
                pipe.xadd(stream, {"e": _dump(event)}, maxlen=EVENTS_CAP, approximate=True)
            pipe.expire(stream, self._idle_ttl)
            await pipe.execute()

    @_guarded
    async def events(self, chat: ChatRef, game_id: str) -> list[dict[str, Any]]:
        entries = await self._redis.xrange(keys.events(chat, game_id)) or []
        return [_load(fields["e"]) for _id, fields in entries if fields]

    # -- scoreboards ------------------------------------------------------------------

    @_guarded
    async def record_match(
        self, chat: ChatRef, match_id: str, variant: str, rows: Sequence[MatchRow]
    ) -> bool:
        """Count a finished match on the chat's board (per variant and over all games) and
        in each player's own stats. ``False`` if the chat had counted it already; calling
        again after :class:`StoreUnavailable` completes it and counts nothing twice."""
        return await self._scores.record_match(chat, match_id, variant, rows)

    @_guarded
    async def scoreboard(
        self, chat: ChatRef, variant: str | None, top: int = 10, me: UserRef | None = None
    ) -> Scoreboard:
        """The chat's board for one game (``None``: all games together), ranked by matches
        won, then win rate: the first ``top`` rows, and ``me``'s row wherever he ranks."""
        return await self._scores.scoreboard(chat, variant, top, me)

    @_guarded
    async def user_stats(self, user: UserRef) -> list[StatRow]:
        """The user's results per game across every chat, by game name."""
        return await self._scores.user_stats(user)

    # -- settings ---------------------------------------------------------------------

    @_guarded
    async def chat_settings(self, chat: ChatRef) -> dict[str, str]:
        raw = await self._redis.hgetall(keys.settings(chat))
        return {text(name): text(value) for name, value in raw.items()}

    @_guarded
    async def set_chat_setting(self, chat: ChatRef, name: str, value: str) -> None:
        await self._redis.hset(keys.settings(chat), name, value)

    @_guarded
    async def user_lang(self, user: UserRef) -> str | None:
        raw = await self._redis.get(keys.user_lang(user))
        return None if raw is None else text(raw)

    @_guarded
    async def set_user_lang(self, user: UserRef, lang: str) -> None:
        await self._redis.set(keys.user_lang(user), lang)

    # -- turn timers ------------------------------------------------------------------

    @_guarded
    async def schedule(self, chat: ChatRef, game_id: str, counter: int, due: float) -> None:
        """Set the game's one deadline (replacing any earlier one) for turn ``counter``."""
        await self._timers.schedule(chat, game_id, counter, due)

    @_guarded
    async def arm(self, chat: ChatRef, game_id: str, counter: int, due: float) -> bool:
        """Add the deadline for turn ``counter`` unless it is set already (then its time
        stays), replacing nothing; ``True`` if it was added. Safe to repeat, and to call
        before the write that makes it the game's deadline."""
        return await self._timers.arm(chat, game_id, counter, due)

    @_guarded
    async def unschedule(self, chat: ChatRef, game_id: str) -> None:
        await self._timers.unschedule(chat, game_id)

    @_guarded
    async def claim_due(
        self, now: float, platform: str | None = None, limit: int = 50
    ) -> list[TimerClaim]:
        """Take up to ``limit`` deadlines due by ``now`` (of chats on ``platform`` only, if
        given) off the timer set. Each deadline is returned to exactly one caller."""
        return await self._timers.claim_due(now, platform, limit)

    # -- rendered versions ------------------------------------------------------------

    @_guarded
    async def mark_rendered(self, slot_key: str, version: int) -> bool:
        """Record that ``slot_key`` shows ``version``; ``False`` (and nothing recorded) if
        it already showed this version or a newer one."""
        newer = await self._mark_rendered(
            keys=[keys.rendered(slot_key)], args=[version, self._idle_ttl]
        )
        return bool(newer)

    # -- a chat that changed its id -----------------------------------------------------

    @_guarded
    async def move_chat(self, old: ChatRef, new: ChatRef) -> None:
        """Give everything of chat ``old`` to ``new`` (a Telegram group that became a
        supergroup): its game, last game, event streams, scoreboards and settings, the game
        index and a pending turn deadline. Run it again if it raised StoreUnavailable."""
        await move_chat_keys(self._redis, old, new)
        stored = await self.load(new)
        game_id = stored.doc.get("id") if stored else None
        if isinstance(game_id, str) and game_id:
            await self._redis.set(keys.game_index(game_id), new.key, ex=self._idle_ttl)
            await self._timers.move(old, new, game_id)

    async def close(self) -> None:
        await self._redis.aclose()
