"""Which bot processes are running, so that what a killed one held is taken over at once.

A slot's hold and a turn in a chat's send log name the process that took them. Each
process renews a key of its own (:func:`bot.storage.keys.process_alive`, a few seconds' TTL)
while it runs and deletes it when it stops; a hold or a turn naming a process whose key
is gone was left by a process that died, and the next process to want it need not wait
out the hold or the longest a platform's call may take. A process whose loop stalls longer
than the key lives is taken for dead too: the slot's version check still keeps an older
screen from replacing a newer one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from typing import Any

from bot.storage import keys
from bot.storage.connect import REDIS_ERRORS
from bot.storage.values import StoreUnavailable

log = logging.getLogger(__name__)

ALIVE_SECONDS = 4.0  # how long a process's key outlives its last renewal
BEAT_SECONDS = 1.0  # how often a running process renews it


class Liveness:
    """This process's key, and what is known of the others'."""

    def __init__(self, redis: Any, process_id: str | None = None) -> None:
        self._redis = redis
        self.me = process_id or uuid.uuid4().hex[:12]
        self._beating: asyncio.Task[None] | None = None

    async def beat(self) -> None:
        """Renew this process's key."""
        await self._redis.set(keys.process_alive(self.me), "1", px=int(ALIVE_SECONDS * 1000))

    async def gone(self, process_id: str) -> bool:
        """Whether the process that took a hold or a turn is no longer running (an unnamed
        one, from a book or a log without liveness, is never taken for gone: it runs out)."""
        if not process_id or process_id == self.me:
            return False
        return not await self._redis.exists(keys.process_alive(process_id))

    async def start(self) -> None:
        """Renew the key from now on, every :data:`BEAT_SECONDS`."""
        await self._try_beat()
        self._beating = asyncio.create_task(self._beat_on(), name="liveness")

    async def stop(self) -> None:
        """Stop renewing, and say at once that this process is gone."""
        if self._beating is not None:
            self._beating.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._beating
            self._beating = None
        with contextlib.suppress(*REDIS_ERRORS, StoreUnavailable):
            await self._redis.delete(keys.process_alive(self.me))

    async def _beat_on(self) -> None:
        while True:
            await asyncio.sleep(BEAT_SECONDS)
            await self._try_beat()

    async def _try_beat(self) -> None:
        try:
            await self.beat()
        except (*REDIS_ERRORS, StoreUnavailable) as err:
            log.warning("could not renew this process's key (%s)", err)
