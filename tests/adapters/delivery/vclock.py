"""A clock that moves only when someone waits, so rate limits are checked in no time."""

from __future__ import annotations

import asyncio
import time


class VirtualClock:
    """Seconds on a made-up wall clock. ``sleep_until`` jumps there at once.

    The bot and the fake server read the same clock, so the moments the server records
    are the moments the bot believed it was sending at.
    """

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start
        self.waited = 0.0  # total time jumped over by sleepers

    def now(self) -> float:
        return self._now

    def wall(self) -> float:
        return self._now

    async def sleep_until(self, moment: float) -> None:
        if moment > self._now:
            self.waited += moment - self._now
            self._now = moment
        await asyncio.sleep(0)

    def advance(self, seconds: float) -> None:
        self._now += seconds


class ScaledClock:
    """Wall-clock seconds that pass ``speed`` times faster than real ones: waits are
    real (so moves made meanwhile pile up), only shorter."""

    def __init__(self, speed: float = 40.0, start: float = 1_700_000_000.0) -> None:
        self.speed = speed
        self._start = start
        self._origin = time.monotonic()

    def now(self) -> float:
        return self._start + (time.monotonic() - self._origin) * self.speed

    def wall(self) -> float:
        return self.now()

    async def sleep_until(self, moment: float) -> None:
        delay = (moment - self.now()) / self.speed
        await asyncio.sleep(max(0.0, delay))
