"""The bot's memory in Redis: games by compare-and-set, their moves and deals, turn
timers and the versions adapters last showed; the chats' scoreboards, ratings and
settings come from :class:`bot.storage.records.Records`.

Every public method turns a lost or refused connection into :class:`StoreUnavailable`
(:mod:`bot.storage.connect` makes the client and the guard); a game is written by
:meth:`Store.write_game` alone, and may be read whole as one document
(:mod:`bot.storage.documents`). Keys come from :mod:`bot.storage.keys` only.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, cast

import redis.asyncio as aredis
import redis.exceptions

from bot.model.contract import ChatRef
from bot.storage import keys
from bot.storage.batch import Batch, Commands
from bot.storage.chat_move import move_chat_keys
from bot.storage.connect import connect, guarded
from bot.storage.documents import load_doc, pack, whole
from bot.storage.game import (
    READ,
    SET_ASIDE,
    SET_SNAPSHOT_ASIDE,
    WRITE,
    Ending,
    GameRead,
    GameWrite,
    MatchWrite,
    Written,
    parse_read,
    parse_written,
    read_args,
    write_keys_args,
)
from bot.storage.history import DEFAULT_DAYS as HISTORY_DAYS
from bot.storage.history import MatchHistory
from bot.storage.records import Records
from bot.storage.timers import TimerSet
from bot.storage.values import (
    MatchRow,
    Scoreboard,
    ScoreRow,
    StatRow,
    StoreBusy,
    Stored,
    StoreUnavailable,
    TimerChange,
    TimerClaim,
    text,
)

__all__ = [
    "Ending",
    "GameRead",
    "GameWrite",
    "MatchRow",
    "MatchWrite",
    "ScoreRow",
    "Scoreboard",
    "StatRow",
    "Store",
    "StoreBusy",
    "StoreUnavailable",
    "Stored",
    "TimerChange",
    "TimerClaim",
    "Written",
    "connect",
    "pack",
]

SET_ASIDE_TTL = 30 * 86400
"""How long a game that could not be read is kept for a person to look at."""


class Store(Records):
    """Everything the core keeps in Redis.

    A chat has at most one current game: a JSON document written only by a compare-and-set
    on its version number, so two processes (or two quick presses) can never both apply a
    change. Games, their moves and deals and shown versions expire after
    ``idle_ttl`` seconds without a write; what is kept of a player (his results, ratings,
    name and language), ``retention`` seconds after his last match. ``clock`` is the time
    source of whoever works with this store (deadlines are given to it as plain numbers),
    so tests can replace it.
    """

    def __init__(
        self,
        redis: aredis.Redis,
        *,
        idle_ttl: int = 7 * 86400,
        retention: int = 365 * 86400,
        clock: Callable[[], float] = time.time,
        history_ttl: int = round(HISTORY_DAYS * 86400),
    ) -> None:
        super().__init__(redis, retention, clock)
        self.history = MatchHistory(redis, history_ttl)
        self._cluster = isinstance(cast(object, redis), aredis.RedisCluster)
        self._idle_ttl = idle_ttl
        self._read = redis.register_script(READ)
        self._write = redis.register_script(WRITE)
        self._set_aside = redis.register_script(SET_ASIDE)
        self._set_snapshot_aside = redis.register_script(SET_SNAPSHOT_ASIDE)
        self._timers = TimerSet(redis)
        self._batch = None if self._cluster else Batch(redis)  # a cluster's writes go alone
        self._telling = False  # whether writes tell web pages: see tell_pages
        self._publish = ""  # the command they tell with, once the server has said its version

    async def tell_pages(self) -> None:
        """From now on every write of a game publishes its new version on the chat's
        channel (:func:`bot.storage.keys.live`), where the web table listens: sharded
        (``SPUBLISH``, in the chat's slot) on Redis 7 and later, plain on older servers
        (the embedded one). Should Redis not answer now, the first write asks it."""
        self._telling = True
        await self._publish_command()

    async def _publish_command(self) -> str:
        """The command that tells web pages of a write, asked of the server once."""
        if self._publish or not self._telling:
            return self._publish
        if self._cluster:  # a cluster that keeps games is Redis 7 or later
            self._publish = "SPUBLISH"
        else:
            info = await self._redis.info("server")
            major = int(str(info.get("redis_version", "0")).split(".")[0])
            self._publish = "SPUBLISH" if major >= 7 else "PUBLISH"
        return self._publish

    @property
    def idle_ttl(self) -> int:
        return self._idle_ttl

    @guarded
    async def ping(self) -> None:
        """Raise :class:`StoreUnavailable` unless Redis answers."""
        await self._redis.ping()

    # -- the chat's current game ------------------------------------------------------

    @guarded
    async def read_game(
        self, chat: ChatRef, game_id: str | None = None, moves: int = 0, deals: int = 0
    ) -> GameRead | None:
        """The chat's game in one script call. A caller that holds game ``game_id`` up to
        ``moves`` moves and ``deals`` deals gets only the ones after those (if the chat
        still has that game; else all of them)."""
        reply = await self._run(
            self._read, self._game_keys(chat)[:3], read_args(game_id, moves, deals)
        )
        return parse_read(reply)

    @guarded
    async def write_game(
        self,
        chat: ChatRef,
        write: GameWrite,
        timer: TimerChange | None = None,
    ) -> Written:
        """Write the chat's game by compare-and-set (see :class:`GameWrite`). On a conflict
        nothing of the game is written, and the answer carries the game as it is now,
        read in the same round trip (only what the writer does not hold of it, as
        :meth:`read_game` would send it). ``timer`` changes the game's deadline
        in the same round trip, just before the write: should the write lose, the deadline
        names a point the game never reaches and fires once to do nothing.

        The write goes out in one pipeline with the writes of other games made in the same
        turn of the event loop (:mod:`bot.storage.batch`). On a cluster, whose client
        pipelines no script, the deadline and the write are sent together as two requests
        instead, to the nodes that hold them."""
        publish = await self._publish_command() if self._telling else ""
        live = (publish, keys.live(chat)) if publish else ("", "")
        keys_, args = write_keys_args(self._game_keys(chat), write, self._idle_ttl, live)
        if self._batch is None:
            return await self._write_on_cluster(chat, write, timer, keys_, args)

        # As bytes: redis-py packs a bytes argument for much less than a text one.
        sent = [a.encode() if isinstance(a, str) else a for a in (*keys_, *args)]

        def queue(batch: Commands) -> None:
            if timer is not None:
                self._timers.queue(batch, chat, write.game_id, timer)
            batch.evalsha(self._write.sha, len(keys_), *sent)

        replies = await self._batch.send(queue)  # with other games' writes of this turn
        if timer is not None and isinstance(replies[0], redis.exceptions.NoScriptError):
            await self._timers.change(chat, write.game_id, timer)
        reply = replies[-1]
        if isinstance(reply, redis.exceptions.NoScriptError):
            reply = await self._run(self._write, keys_, args)
        if isinstance(reply, Exception):
            raise reply
        return parse_written(reply)

    async def _write_on_cluster(
        self,
        chat: ChatRef,
        write: GameWrite,
        timer: TimerChange | None,
        keys_: list[str],
        args: list[Any],
    ) -> Written:
        written = self._run(self._write, keys_, args)
        if timer is None:
            return parse_written(await written)
        _changed, reply = await asyncio.gather(
            self._timers.change(chat, write.game_id, timer), written
        )
        return parse_written(reply)

    async def _run(self, script: Any, keys_: list[str], args: list[Any]) -> Any:
        # The script is sent by its digest alone; a restarted server that forgot it gets
        # it again, once. Off a cluster it goes with the batch of this turn's writes, for
        # less of the client's work than a call of its own (bot/storage/batch.py).
        try:
            if self._batch is None:
                return await self._redis.evalsha(script.sha, len(keys_), *keys_, *args)
            [reply] = await self._batch.send(
                lambda batch: batch.evalsha(script.sha, len(keys_), *keys_, *args)
            )
            if isinstance(reply, Exception):
                raise reply
            return reply
        except redis.exceptions.NoScriptError:
            await self._redis.script_load(script.script)
            return await self._redis.evalsha(script.sha, len(keys_), *keys_, *args)

    @staticmethod
    def _game_keys(chat: ChatRef) -> list[str]:
        return [keys.game(chat), keys.moves(chat), keys.deals(chat), keys.last_game(chat)]

    @guarded
    async def set_aside(self, chat: ChatRef, version: int, game_id: str) -> bool:
        """Move the chat's game at ``version`` out of the way, whole, under its own key
        for :data:`SET_ASIDE_TTL` (a game this version cannot read); the chat is then
        free. ``False`` if the game is no longer at that version."""
        names = [*self._game_keys(chat)[:3], keys.set_aside(chat, game_id)]
        return bool(await self._run(self._set_aside, names, [version, SET_ASIDE_TTL]))

    @guarded
    async def set_snapshot_aside(self, chat: ChatRef, game_id: str, snapshot: str) -> bool:
        """Move the snapshot of the chat's game that cannot be read out of the way, under
        its own key for :data:`SET_ASIDE_TTL`; the game goes on without it. ``False`` if
        the game no longer holds that snapshot."""
        names = [keys.game(chat), keys.snapshot_aside(chat, game_id)]
        return bool(await self._run(self._set_snapshot_aside, names, [snapshot, SET_ASIDE_TTL]))

    async def load(self, chat: ChatRef) -> Stored | None:
        """The chat's game as one document (its deals and moves inside), and its version."""
        read = await self.read_game(chat)
        return None if read is None else Stored(whole(read), read.version)

    @guarded
    async def last_game(self, chat: ChatRef) -> dict[str, Any] | None:
        raw = await self._redis.get(keys.last_game(chat))
        return None if raw is None else load_doc(raw)

    @guarded
    async def last_ended(self, chat: ChatRef) -> tuple[int, dict[str, Any]] | None:
        """The chat's last game and the version it ended at (its final table's), read in
        one round trip; ``None`` unless both are kept and are of the same game."""
        ended, last = await self._redis.mget(keys.last_version(chat), keys.last_game(chat))
        if ended is None or last is None:
            return None
        version, _, game_id = text(ended).partition(":")
        doc = load_doc(last)
        return (int(version), doc) if doc.get("id") == game_id else None

    # -- scoreboards ------------------------------------------------------------------

    # -- turn timers ------------------------------------------------------------------

    @guarded
    async def schedule(self, chat: ChatRef, game_id: str, counter: int, due: float) -> None:
        """Set the game's one deadline (replacing any earlier one) for turn ``counter``."""
        await self._timers.schedule(chat, game_id, counter, due)

    @guarded
    async def arm(self, chat: ChatRef, game_id: str, counter: int, due: float) -> bool:
        """Add the deadline for turn ``counter`` unless it is set already (then its time
        stays), replacing nothing; ``True`` if it was added. Safe to repeat, and to call
        before the write that makes it the game's deadline."""
        return await self._timers.arm(chat, game_id, counter, due)

    @guarded
    async def unschedule(self, chat: ChatRef, game_id: str) -> None:
        await self._timers.unschedule(chat, game_id)

    @guarded
    async def claim_due(
        self, now: float, platform: str | None = None, limit: int = 50
    ) -> list[TimerClaim]:
        """Take up to ``limit`` deadlines due by ``now`` (of chats on ``platform`` only, if
        given) off each timer bucket. Each deadline is returned to exactly one caller."""
        return await self._timers.claim_due(now, platform, limit)

    # -- a chat that changed its id -----------------------------------------------------

    @guarded
    async def move_chat(self, old: ChatRef, new: ChatRef) -> None:
        """Give everything of chat ``old`` to ``new`` (a Telegram group that became a
        supergroup): its game, last game, scoreboards and settings, and a pending turn
        deadline. Run it again if it raised StoreUnavailable."""
        await move_chat_keys(self._redis, old, new)
        # Buttons already sent still name the old chat: a press on one is followed here.
        await self._redis.set(keys.moved_to(old), new.key, ex=self._idle_ttl)
        stored = await self.load(new)
        game_id = stored.doc.get("id") if stored else None
        if isinstance(game_id, str) and game_id:
            await self._timers.move(old, new, game_id)

    @guarded
    async def moved_to(self, chat: ChatRef) -> ChatRef | None:
        """The chat ``chat`` became, if it moved (:meth:`move_chat`)."""
        moved = await self._redis.get(keys.moved_to(chat))
        return ChatRef.from_key(text(moved)) if moved is not None else None

    async def close(self) -> None:
        if self._batch is not None:
            await self._batch.close()
        await self._redis.aclose()
