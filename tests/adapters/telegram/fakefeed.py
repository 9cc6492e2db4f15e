"""How updates reach the bot from the fake server: fetched with getUpdates (a long poll),
or posted to webhook workers in turn (each update to one, or to several at once as when
Telegram posts it again)."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterator
from typing import Any

import aiohttp

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


class UpdateFeed:
    def __init__(self) -> None:
        self.pushed = 0  # updates users caused so far
        self.hook_posts: list[tuple[str, int]] = []  # (worker URL, HTTP status)
        self._ids = itertools.count(1)
        self._queued: list[dict[str, Any]] = []
        self._arrived = asyncio.Event()
        self._hooks: Iterator[str] | None = None
        self._secret = ""
        self._copies = 1
        self._posting: set[asyncio.Task[None]] = set()

    def push(self, update: dict[str, Any]) -> dict[str, Any]:
        update["update_id"] = next(self._ids)
        self.pushed += 1
        if self._hooks is None:
            self._queued.append(update)
            self._arrived.set()
        else:
            for _ in range(self._copies):
                url = next(self._hooks)
                task = asyncio.get_running_loop().create_task(self._post(update, url))
                self._posting.add(task)
                task.add_done_callback(self._posting.discard)
        return update

    def deliver_to(self, urls: list[str], secret: str, copies: int = 1) -> None:
        """Post each update to the next ``copies`` of ``urls`` in turn."""
        self._hooks = itertools.cycle(urls)
        self._secret = secret
        self._copies = copies

    def pending(self) -> int:
        """Updates not yet fetched by the bot, or still being posted to it."""
        return len(self._queued) + len(self._posting)

    def close(self) -> None:
        self._arrived.set()  # ends a waiting long poll

    async def fetch(self, offset: int, timeout: float) -> list[dict[str, Any]]:
        """getUpdates: confirm what came before ``offset``, wait up to ``timeout`` for more."""
        self._queued = [u for u in self._queued if u["update_id"] >= offset]
        if not self._queued and timeout:
            self._arrived.clear()
            try:
                await asyncio.wait_for(self._arrived.wait(), timeout)
            except TimeoutError:
                return []
        return self._queued[:100]

    async def _post(self, update: dict[str, Any], url: str) -> None:
        async with (
            aiohttp.ClientSession() as session,
            session.post(url, json=update, headers={SECRET_HEADER: self._secret}) as response,
        ):
            self.hook_posts.append((url, response.status))
