"""Keeping every open page live: one pub/sub connection per worker, subscribed to the
channel of each chat that has a page open here (``SSUBSCRIBE``, sharded, on Redis 7
and later; ``SUBSCRIBE`` on older servers, as the store publishes). Every write of a
game publishes its new version there, whoever made it (a page on this worker or
another, a chat's button, a computer's move on a tick), so a message means: read the
game once and send each of the chat's pages the state it has not seen.

Reads of one chat never overlap: a message that comes while its chat is being read
marks it to be read once more after, so a burst of moves costs a read or two, and the
pages get the newest version, never an older one after it. The worker holds no game of
its own beyond the core's caches: any number of workers serve one table.

A message can still be missed: redis-py takes a dropped pub/sub connection up again by
itself, and what was published meanwhile is gone. So every chat with a page here is also
read every :data:`LOOK_AGAIN` seconds, whatever was heard: a page left behind catches up
within that, at the cost of one read a chat that often.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any, cast

import redis.asyncio as aredis
from redis.exceptions import RedisError

from adapters.web.moves import Core
from adapters.web.page import Page
from adapters.web.views import Models, StateTexts
from bot.model.contract import ChatRef
from bot.storage import keys
from bot.storage.values import StoreUnavailable

log = logging.getLogger(__name__)

RECONNECT_PAUSE = 1.0  # seconds before listening again after the connection failed
POLL = 1.0  # seconds one wait for a message may last on a single server
LOOK_AGAIN = 30.0  # seconds between two reads of every chat with a page here
CLUSTER_POLL = 0.05
"""Seconds one wait for a message may last on a cluster. redis-py's cluster pub/sub holds
a node's connection for the whole wait, and a (un)subscribe on that node waits for it to
end: a page opening would wait that long, and a burst of them each in turn."""


class Live:
    def __init__(
        self,
        redis: aredis.Redis,
        core: Core,
        models: Models,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._redis = redis
        self._core = core
        self._models = models
        self._clock = clock
        self._pages: dict[str, set[Page]] = {}
        self._chats: dict[str, ChatRef] = {}  # channel -> chat
        self._pubsub: Any = None
        self._sharded = True
        self._cluster = False
        self._listening = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None
        self._reading: dict[str, asyncio.Task[None]] = {}  # chat key -> its read
        self._again: set[str] = set()  # chats to read once more after the read under way
        self._subscribing = asyncio.Lock()
        self._leaving: set[asyncio.Task[None]] = set()  # channels being left
        self._closed = False
        self.look_again = LOOK_AGAIN
        self._looked = 0.0  # the event loop's time of the last read of every chat

    async def start(self) -> None:
        """Open the pub/sub connection; sharded channels if Redis has them (a cluster
        that keeps games is Redis 7 or later, and is heard node by node)."""
        self._cluster = isinstance(cast(object, self._redis), aredis.RedisCluster)
        if self._cluster:
            self._sharded = True
        else:
            info = await self._redis.info("server")
            self._sharded = int(str(info.get("redis_version", "0")).split(".")[0]) >= 7
        self._pubsub = self._redis.pubsub()
        self._looked = asyncio.get_running_loop().time()
        self._reader = asyncio.create_task(self._read(), name="web-live")

    async def close(self) -> None:
        # The flag as well as the cancel: a client call may hold on to a cancellation.
        self._closed = True
        self._listening.set()
        tasks = [t for t in (self._reader, *self._reading.values(), *self._leaving) if t]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._pubsub is not None:
            await self._pubsub.aclose()

    def pages(self, chat: ChatRef) -> tuple[Page, ...]:
        return tuple(self._pages.get(chat.key, ()))

    async def join(self, page: Page) -> None:
        """Keep ``page`` live; its chat's channel is subscribed to first if it is the
        chat's first page here."""
        chat = page.viewer.chat
        async with self._subscribing:
            pages = self._pages.setdefault(chat.key, set())
            pages.add(page)
            if len(pages) == 1:
                channel = keys.live(chat)
                self._chats[channel] = chat
                await self._subscribe(channel)
                self._listening.set()

    async def leave(self, page: Page) -> None:
        """Forget ``page``; the chat's channel goes when its last page here does.

        The channel is left by a task of its own, which the page's cancelled handler
        (its socket gone) does not cut short: a cluster's unsubscribe waits for the
        poll under way, and one cut short would keep the worker hearing the chat."""
        chat = page.viewer.chat
        pages = self._pages.get(chat.key)
        if pages is None or page not in pages:
            return
        pages.discard(page)
        if pages:
            return
        del self._pages[chat.key]
        channel = keys.live(chat)
        self._chats.pop(channel, None)
        if not self._chats:
            self._listening.clear()
        leaving = asyncio.create_task(self._unsubscribe(channel), name=f"web-live {chat.key}")
        self._leaving.add(leaving)
        leaving.add_done_callback(self._leaving.discard)
        await asyncio.shield(leaving)

    async def _unsubscribe(self, channel: str) -> None:
        """Leave ``channel`` unless a page of its chat joined meanwhile."""
        async with self._subscribing:
            if channel in self._chats:
                return
            with contextlib.suppress(RedisError, OSError):
                if self._sharded:
                    await self._pubsub.sunsubscribe(channel)
                else:
                    await self._pubsub.unsubscribe(channel)

    async def _subscribe(self, channel: str) -> None:
        if self._sharded:
            await self._pubsub.ssubscribe(channel)
        else:
            await self._pubsub.subscribe(channel)

    async def _read(self) -> None:
        """Hear the channels until closed; a lost connection is opened again, and every
        chat read at once (a move may have been missed meanwhile)."""
        while True:
            await self._listening.wait()
            if self._closed:
                return
            try:
                if self._cluster:
                    hear, wait = self._pubsub.get_sharded_message, CLUSTER_POLL
                else:
                    hear, wait = self._pubsub.get_message, POLL
                message = await hear(ignore_subscribe_messages=True, timeout=wait)
            except (RedisError, OSError, RuntimeError) as exc:
                log.warning("web pages' channel lost, listening again: %s", exc)
                await asyncio.sleep(RECONNECT_PAUSE)
                await self._resubscribe()
                continue
            self._look_again_if_due()
            if message is None or message.get("type") not in ("message", "smessage"):
                continue
            channel = message["channel"]
            chat = self._chats.get(channel.decode() if isinstance(channel, bytes) else channel)
            if chat is not None:
                self.heard(chat)

    async def _resubscribe(self) -> None:
        async with self._subscribing:
            with contextlib.suppress(RedisError, OSError):
                await self._pubsub.aclose()
            self._pubsub = self._redis.pubsub()
            for channel in self._chats:
                with contextlib.suppress(RedisError, OSError):
                    await self._subscribe(channel)
        for chat in list(self._chats.values()):
            self.heard(chat)

    def _look_again_if_due(self) -> None:
        """Read every chat with a page here, if :attr:`look_again` seconds went by since
        the last time (a message missed while the connection was down)."""
        now = asyncio.get_running_loop().time()
        if now - self._looked < self.look_again:
            return
        self._looked = now
        for chat in list(self._chats.values()):
            self.heard(chat)

    def heard(self, chat: ChatRef) -> None:
        """The chat's game changed: read it and bring its pages here up to date."""
        if chat.key in self._reading:
            self._again.add(chat.key)
            return
        task = asyncio.create_task(self._bring_up_to_date(chat), name=f"web-live {chat.key}")
        self._reading[chat.key] = task

    async def _bring_up_to_date(self, chat: ChatRef) -> None:
        try:
            while True:
                self._again.discard(chat.key)
                await self._show(chat)
                if chat.key not in self._again:
                    return
        finally:
            self._reading.pop(chat.key, None)

    async def _show(self, chat: ChatRef) -> None:
        pages = self.pages(chat)
        if not pages:
            return
        try:
            game = await self._core.table_game(chat)
        except StoreUnavailable:
            log.warning("store unavailable: the pages of %s wait for the next move", chat.key)
            return
        if game is None:
            return
        texts = StateTexts(self._models.built(game), self._clock())
        sent = await asyncio.gather(*(page.show(texts) for page in pages), return_exceptions=True)
        for failed in (s for s in sent if isinstance(s, BaseException)):
            log.info("a page of %s could not be sent its state: %s", chat.key, failed)
