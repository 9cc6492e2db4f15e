"""Bringing tables up to what the store says, after a process died or the store was down.

A table screen is derived from the stored game, so nothing needs to be kept of it but
which chats to look at (:mod:`adapters.delivery.pending`). Looking at a chat, the core
draws its table as stored; it is queued again when the slot book shows an older
version, or when a screen of it was queued and never shown. The same goes for the
hands and picture still waiting. A table whose game has ended and whose final version
is shown needs no more looks.

A process looks at every chat on start, those in the index and those with a game stored
(whatever a process died with is then redrawn, a new game's first table too), and,
on every timer poll, at the chats due: those whose screens have waited longer than a
live process takes to show them, and every live table once a minute. Looking at a chat,
it also sends the one-off messages a process that is gone left in the chat's outbox
(:mod:`adapters.delivery.outbox`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Collection, Sequence

from adapters.delivery.outbox import Entry, RedisOutbox
from adapters.delivery.pending import GRACE_SECONDS, IDLE_SECONDS, PendingBook
from adapters.delivery.slots import SlotBook
from adapters.delivery.transport import STORE_DOWN as CARRIER_STORE_DOWN
from bot.model.contract import ChatRef, Outbound, Show, SlotKind
from bot.storage.values import StoreUnavailable
from bot.table.redraw import Drawn

log = logging.getLogger(__name__)

BATCH = 50  # chats looked at in one poll at most
Redraw = Callable[[ChatRef, Collection[str]], Awaitable[Drawn | None]]
STORE_DOWN = (StoreUnavailable, *CARRIER_STORE_DOWN)


class CatchUp:
    """Looks at chats and queues what they miss (``submit`` hands it to delivery)."""

    def __init__(
        self,
        pending: PendingBook,
        book: SlotBook,
        redraw: Redraw,
        submit: Callable[[Sequence[Outbound]], None],
        outbox: RedisOutbox | None = None,
        resend: Callable[[Sequence[Entry]], None] | None = None,
    ) -> None:
        self._pending = pending
        self._book = book
        self._redraw = redraw
        self._submit = submit
        self._outbox = outbox
        self._resend = resend
        self.caught_up = 0  # chats that were behind and have had their screens queued
        self.resent = 0  # one-off messages taken over from processes that were gone

    async def on_start(self) -> int:
        """Look at every chat known to have a table: what a dead process left is redrawn,
        and a table whose last update died before it was queued."""
        return await self._look_at(await self._pending.every_chat(), versions=True)

    async def poll(self) -> int:
        """Look at the chats due; the number that were behind."""
        return await self._look_at(await self._pending.due(BATCH), versions=False)

    async def _look_at(self, chats: list[ChatRef], *, versions: bool) -> int:
        behind = 0
        for chat in chats:
            try:
                behind += await self.look(chat, versions=versions)
            except STORE_DOWN:
                raise
            except Exception:
                log.exception("could not bring the table of %s up to date", chat.key)
        return behind

    async def look(self, chat: ChatRef, *, versions: bool = True) -> bool:
        """Queue the chat's screens that are behind the store (those queued and never shown,
        and with ``versions`` the table if the slot book has an older version than the
        store: a write that left the table as it was is redrawn too, at the cost of one
        edit that changes nothing), and the one-off messages of processes gone; True if
        any was."""
        resent, outbox_again = await self._take_over(chat)
        waiting = await self._pending.waiting(chat)
        drawn = await self._redraw(chat, waiting.keys())
        if drawn is None:
            await self._pending.forget(chat, waiting)
            await self._look_again(chat, None, outbox_again)
            return resent
        late = [show for show in drawn.screens if await self._behind(show, waiting, versions)]
        drawable = {show.slot.key for show in drawn.screens}
        # Screens of an earlier game, or of a player who can no longer be written to.
        await self._pending.forget(chat, [key for key in waiting if key not in drawable])
        if late:
            log.info(
                "%s is behind the store; drawing it again at version %s", chat.key, drawn.version
            )
            self.caught_up += 1
            self._submit(late)
        table_again = GRACE_SECONDS if late else IDLE_SECONDS if drawn.live else None
        await self._look_again(chat, table_again, outbox_again)
        return bool(late) or resent

    async def _take_over(self, chat: ChatRef) -> tuple[bool, float | None]:
        """Send what processes gone left in the chat's outbox: whether there was any, and
        when to look again for what others still hold."""
        if self._outbox is None or self._resend is None:
            return False, None
        taken = await self._outbox.take_over(chat)
        if taken.entries:
            count = len(taken.entries)
            log.info("taking over %d queued messages for %s from gone processes", count, chat.key)
            self.resent += count
            self._resend(taken.entries)
        return bool(taken.entries), taken.look_again

    async def _look_again(self, chat: ChatRef, *seconds: float | None) -> None:
        """Look at the chat again at the soonest of ``seconds``; never, if none is given."""
        due = [s for s in seconds if s is not None]
        if due:
            await self._pending.recheck(chat, min(due))
        else:
            await self._pending.drop(chat)

    async def _behind(self, show: Show, waiting: dict[str, int], versions: bool) -> bool:
        if show.slot.key in waiting:
            return True
        if not versions or show.slot.kind is not SlotKind.TABLE:
            return False
        shown = await self._book.version_of(show.slot)
        return shown is None or shown < show.version
