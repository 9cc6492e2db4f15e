"""Time for the adapter, injectable so tests check rate limits without waiting."""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class Clock(Protocol):
    """Wall-clock seconds (shared by every process that serves one Redis)."""

    def now(self) -> float: ...

    async def sleep_until(self, moment: float) -> None: ...


class SystemClock:
    def now(self) -> float:
        return time.time()

    async def sleep_until(self, moment: float) -> None:
        delay = moment - time.time()
        if delay > 0:
            await asyncio.sleep(delay)
