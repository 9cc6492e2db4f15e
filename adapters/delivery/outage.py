"""A send log that goes on while the store is down.

Sends are paced by a log in Redis that every worker shares. While Redis cannot be
reached, that log cannot be read, yet people must still be told at once that the table
is unavailable: so a turn is then taken in this process's own log, which keeps
the platform's limits for this process alone, and the shared log is used again as soon as
it answers. A turn taken in the shared log whose confirmation fails is let go (its
entry expires there by itself).

A write leaves counted in the shared log whenever that answers, a turn taken in this
process's log included. One whose turn was taken in the shared log never leaves
uncounted: when its claim is not answered, the error goes up as any other the store
raised (the deliverer keeps the screen and tries again). One whose marking done was not
answered is marked done again before the next claim, and counts as on its way until then.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace

from adapters.delivery.limiter import MemorySendLog, Reservation, Rule, SendLog
from adapters.delivery.transport import STORE_DOWN

log = logging.getLogger(__name__)


class OutageSendLog:
    """``shared`` while it answers, this process's own log while it does not."""

    def __init__(self, shared: SendLog) -> None:
        self._shared = shared
        self._own = MemorySendLog()
        self._taken_here: set[str] = set()  # tokens of the turns taken in the own log
        # Answered (or, with no moment, unused), not yet noted so in the shared log.
        self._unmarked: list[tuple[Reservation, float | None]] = []

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
        own = reservation.token in self._taken_here
        try:
            await self._mark_unmarked()
            if not own:
                return await self._shared.claim(reservation, rules, now)
            # Named as the shared log names a turn, which it need not hold to count it.
            shared = replace(reservation, token=f"r:{reservation.token}:0")
            claimed = await self._shared.claim(shared, rules, now)
        except STORE_DOWN as err:
            if own:
                return await self._own.claim(reservation, rules, now)
            log.warning("the shared send log did not answer a claim (%s)", err)
            raise
        if isinstance(claimed, Reservation):
            self._taken_here.discard(reservation.token)  # counted in the shared log
        return claimed

    async def mark_done(self, reservation: Reservation, done: float) -> None:
        if self._ended_here(reservation):
            await self._own.mark_done(reservation, done)
        else:
            await self._note_shared(reservation, done, "mark a send done")

    async def release(self, reservation: Reservation) -> None:
        if self._ended_here(reservation):
            await self._own.release(reservation)
        else:
            await self._note_shared(reservation, None, "release an unused turn")

    def _ended_here(self, reservation: Reservation) -> bool:
        """Whether the turn was taken in this process's own log, where it ends now."""
        if reservation.token not in self._taken_here:
            return False
        self._taken_here.discard(reservation.token)
        return True

    async def _note_shared(self, reservation: Reservation, done: float | None, what: str) -> None:
        """Note in the shared log how a turn taken there ended (``done`` ``None``: unused),
        now if it answers, else before the next claim."""
        self._unmarked.append((reservation, done))
        try:
            await self._mark_unmarked()
        except STORE_DOWN as err:
            log.warning("could not %s in the shared log (%s); later", what, err)

    async def _mark_unmarked(self) -> None:
        """Mark done what was answered, in order; what the store did not take stays."""
        while self._unmarked:
            reservation, done = self._unmarked.pop(0)  # another task marks the next
            try:
                if done is None:  # no write was made in it
                    await self._shared.release(reservation)
                else:
                    await self._shared.mark_done(reservation, done)
            except STORE_DOWN:
                self._unmarked.insert(0, (reservation, done))
                raise
