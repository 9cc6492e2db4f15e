"""A send log that goes on while the store is down.

Sends are paced by a log in Redis that every worker shares. While Redis cannot be
reached, that log cannot be read, yet people must still be told at once that the table
is unavailable: so a turn is then taken in this process's own log, which keeps
Telegram's limits for this process alone, and the shared log is used again as soon as
it answers. A turn taken in the shared log whose confirmation or settling fails is let
go (its entry expires there by itself).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from adapters.telegram.carry import STORE_DOWN
from adapters.telegram.limiter import MemorySendLog, Reservation, Rule, SendLog

log = logging.getLogger(__name__)


class OutageSendLog:
    """``shared`` while it answers, this process's own log while it does not."""

    def __init__(self, shared: SendLog) -> None:
        self._shared = shared
        self._own = MemorySendLog()
        self._taken_here: set[str] = set()  # tokens of the turns taken in the own log

    async def reserve(
        self, chat: str, rules: Sequence[Rule], now: float, not_before: float | None = None
    ) -> Reservation:
        try:
            return await self._shared.reserve(chat, rules, now, not_before)
        except STORE_DOWN as err:
            log.warning("the shared send log is down (%s); pacing %s in this process", err, chat)
        reservation = await self._own.reserve(chat, rules, now, not_before)
        self._taken_here.add(reservation.token)
        return reservation

    async def confirm(
        self, reservation: Reservation, rules: Sequence[Rule], now: float
    ) -> float | None:
        if reservation.token in self._taken_here:
            return await self._own.confirm(reservation, rules, now)
        try:
            return await self._shared.confirm(reservation, rules, now)
        except STORE_DOWN:
            return None

    async def claim(
        self, reservation: Reservation, rules: Sequence[Rule], now: float
    ) -> Reservation | float:
        if reservation.token in self._taken_here:
            return await self._own.claim(reservation, rules, now)
        try:
            return await self._shared.claim(reservation, rules, now)
        except STORE_DOWN as err:
            log.info("could not claim a send in the shared log (%s)", err)
            return reservation

    async def settle(self, reservation: Reservation, done: float) -> None:
        if reservation.token in self._taken_here:
            self._taken_here.discard(reservation.token)
            await self._own.settle(reservation, done)
            return
        try:
            await self._shared.settle(reservation, done)
        except STORE_DOWN as err:
            log.info("could not settle a send in the shared log (%s)", err)
