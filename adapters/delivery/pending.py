"""Which game screens are queued and not yet shown, kept in Redis so a killed process
does not take them along.

Every table, picture and hand screen handed to delivery is noted in its table chat's
hash (``slot key -> version``, in the chat's hash slot, expiring after
:data:`PENDING_SECONDS`) and struck off once shown. The chat also goes into one sorted
set per platform, scored by when its table is next to be compared with the store: soon
(:data:`GRACE_SECONDS`) while a screen waits, which lets any process redraw it should
the one that queued it die, and every :data:`IDLE_SECONDS` while its game goes on, so
a table whose update was lost before it was even queued is caught up too. Times are
wall-clock seconds, the same on every process.

Written by hand with small Lua scripts: each step (keep the higher version, strike off
a version only if no newer one was queued meanwhile, take the due chats so that only
one process gets each) has to be atomic, and no library does this.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable
from typing import Any, Protocol, cast

import redis.asyncio as aredis

from bot.model.contract import ChatRef, Show, SlotKind
from bot.storage import keys
from bot.storage.values import run_pipelined, text

PENDING_SECONDS = 24 * 3600  # a screen queued longer than this is not worth drawing
INDEX_SECONDS = 14 * 24 * 3600  # the platform's index outlives any game in it
GRACE_SECONDS = 15.0  # a screen not shown by then is drawn again by whoever looks
IDLE_SECONDS = 60.0  # how often a live table is compared with the store
KEPT = (SlotKind.TABLE, SlotKind.PICTURE, SlotKind.HAND)  # drawn again from the store


def table_chat(show: Show) -> ChatRef:
    """The chat of the game a screen belongs to (a hand's is its table's group)."""
    return show.slot.table or show.slot.chat


class PendingBook(Protocol):
    async def note(self, shows: Iterable[Show]) -> None:
        """The screens are queued: keep them until :meth:`strike_off`."""
        ...

    async def strike_off(self, show: Show) -> None:
        """The screen was shown (or given up on): strike it off unless a newer one waits."""
        ...

    async def waiting(self, chat: ChatRef) -> dict[str, int]:
        """The chat's screens queued and not shown: slot key -> version."""
        ...

    async def forget(self, chat: ChatRef, slot_keys: Iterable[str]) -> None: ...

    async def due(self, limit: int) -> list[ChatRef]:
        """Take up to ``limit`` chats due for a look (each goes to one caller only, and
        is due again after :data:`GRACE_SECONDS` unless :meth:`recheck` says otherwise)."""
        ...

    async def every_chat(self) -> list[ChatRef]:
        """Every chat in the index, and every chat with a game stored: a game whose first
        screen died with its process before it was noted is in no index."""
        ...

    async def recheck(self, chat: ChatRef, seconds: float) -> None:
        """Look at the chat again in ``seconds``."""
        ...

    async def drop(self, chat: ChatRef) -> None:
        """The chat's table is final: no more looks at it."""
        ...


class MemoryPendingBook:
    """One process's pending screens, for tests without Redis."""

    def __init__(self, wall: Callable[[], float] = time.time) -> None:
        self.wall = wall
        self.screens: dict[str, dict[str, int]] = {}
        self.index: dict[str, float] = {}

    async def note(self, shows: Iterable[Show]) -> None:
        now = self.wall()
        for show in shows:
            if show.slot.kind in KEPT:
                chat = table_chat(show).key
                queued = self.screens.setdefault(chat, {})
                queued[show.slot.key] = max(queued.get(show.slot.key, -1), show.version)
                self.index.setdefault(chat, now + GRACE_SECONDS)

    async def strike_off(self, show: Show) -> None:
        queued = self.screens.get(table_chat(show).key, {})
        if queued.get(show.slot.key, show.version + 1) <= show.version:
            del queued[show.slot.key]

    async def waiting(self, chat: ChatRef) -> dict[str, int]:
        return dict(self.screens.get(chat.key, {}))

    async def forget(self, chat: ChatRef, slot_keys: Iterable[str]) -> None:
        for key in slot_keys:
            self.screens.get(chat.key, {}).pop(key, None)

    async def due(self, limit: int) -> list[ChatRef]:
        now = self.wall()
        found = sorted((at, chat) for chat, at in self.index.items() if at <= now)[:limit]
        for _, chat in found:
            self.index[chat] = now + GRACE_SECONDS
        return [ChatRef.from_key(chat) for _, chat in found]

    async def every_chat(self) -> list[ChatRef]:
        return [ChatRef.from_key(chat) for chat in self.index]

    async def recheck(self, chat: ChatRef, seconds: float) -> None:
        self.index[chat.key] = self.wall() + seconds

    async def drop(self, chat: ChatRef) -> None:
        self.index.pop(chat.key, None)


# KEYS[1]: the chat's pending hash. ARGV: TTL, then slot key and version pairs; each
# version is kept unless a higher one is queued already.
_NOTE = """
for i = 2, #ARGV, 2 do
  local queued = tonumber(redis.call('HGET', KEYS[1], ARGV[i]))
  if not queued or queued < tonumber(ARGV[i + 1]) then
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
  end
end
redis.call('EXPIRE', KEYS[1], ARGV[1])
"""
# KEYS[1]: the chat's pending hash. ARGV: slot key, version shown.
_STRIKE_OFF = """
local queued = tonumber(redis.call('HGET', KEYS[1], ARGV[1]))
if queued and queued <= tonumber(ARGV[2]) then redis.call('HDEL', KEYS[1], ARGV[1]) end
"""
# KEYS[1]: the platform's index. ARGV: now, how many, when they are due again.
_DUE = """
local found = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
for _, chat in ipairs(found) do redis.call('ZADD', KEYS[1], 'XX', ARGV[3], chat) end
return found
"""


class RedisPendingBook:
    """The pending screens of one platform's chats in Redis."""

    def __init__(self, redis: Any, platform: str, wall: Callable[[], float] = time.time) -> None:
        self._redis = redis
        self._wall = wall
        self._index = keys.tables_to_check(platform)
        self._games = keys.games_pattern(platform)
        self._note = redis.register_script(_NOTE)
        self._cluster = isinstance(cast(object, redis), aredis.RedisCluster)
        self._strike_off = redis.register_script(_STRIKE_OFF)
        self._due = redis.register_script(_DUE)

    async def note(self, shows: Iterable[Show]) -> None:
        now = self._wall()
        by_chat: dict[str, list[Show]] = {}
        for show in shows:
            if show.slot.kind in KEPT:
                by_chat.setdefault(table_chat(show).key, []).append(show)
        if not by_chat:
            return
        notes = {chat: self._note_args(chat, queued) for chat, queued in by_chat.items()}
        # One round trip: the index and a script per chat (in the chat's slot), pipelined
        # with the script sent by its digest; on a cluster, whose client pipelines no
        # script, the scripts go out beside the pipeline.
        async with self._redis.pipeline(transaction=False) as pipe:
            self._index_chats(pipe, by_chat, now)
            if self._cluster:
                await asyncio.gather(
                    pipe.execute(), *(self._note(keys=k, args=a) for k, a in notes.values())
                )
                return
            await run_pipelined(pipe, self._note, list(notes.values()))

    @staticmethod
    def _note_args(chat: str, queued: list[Show]) -> tuple[list[str], list[Any]]:
        pairs = [part for show in queued for part in (show.slot.key, show.version)]
        return [keys.pending_screens(ChatRef.from_key(chat))], [PENDING_SECONDS, *pairs]

    def _index_chats(self, pipe: Any, chats: Iterable[str], now: float) -> None:
        """The chats are due for a look soon, unless they were already."""
        pipe.zadd(self._index, dict.fromkeys(chats, now + GRACE_SECONDS), nx=True)
        pipe.expire(self._index, INDEX_SECONDS)

    async def strike_off(self, show: Show) -> None:
        if show.slot.kind in KEPT:
            pending = keys.pending_screens(table_chat(show))
            await self._strike_off(keys=[pending], args=[show.slot.key, show.version])

    async def waiting(self, chat: ChatRef) -> dict[str, int]:
        raw = await self._redis.hgetall(keys.pending_screens(chat))
        return {text(k): int(text(v)) for k, v in raw.items()}

    async def forget(self, chat: ChatRef, slot_keys: Iterable[str]) -> None:
        names = list(slot_keys)
        if names:
            await self._redis.hdel(keys.pending_screens(chat), *names)

    async def due(self, limit: int) -> list[ChatRef]:
        now = self._wall()
        found = await self._due(
            keys=[self._index], args=[repr(now), limit, repr(now + GRACE_SECONDS)]
        )
        return [ChatRef.from_key(text(chat)) for chat in found]

    async def every_chat(self) -> list[ChatRef]:
        found = {text(chat) for chat in await self._redis.zrange(self._index, 0, -1)}
        async for key in self._redis.scan_iter(match=self._games, count=1000):
            found.add(keys.chat_of_game(text(key)).key)
        return [ChatRef.from_key(chat) for chat in sorted(found)]

    async def recheck(self, chat: ChatRef, seconds: float) -> None:
        await self._redis.zadd(self._index, {chat.key: self._wall() + seconds})

    async def drop(self, chat: ChatRef) -> None:
        await self._redis.zrem(self._index, chat.key)
