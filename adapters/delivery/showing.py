"""Showing a slot's screen (Show) or deleting it (Delete) as the slot book allows,
through a platform's :class:`.transport.Messages`.

A slot's version is claimed in the slot book first, and an older version than the one
shown is dropped. A slot's message is edited in place; what the platform answers an edit
with is folded into what it means for the slot (:class:`.transport.Edited`): "not
modified" counts as shown, a message that is gone is sent anew, a message of the other
kind (a picture for text, or the reverse) is deleted and sent anew. An edit notifies no
one, so a notifying screen (a ping) is a new message.

A table posted anew (``renew``, at the start of a deal) is sent first and its older
message deleted after, or cut to its heading where the platform no longer lets a bot
delete it, so that only the newest copy of it can be pressed. A slot's screen held up
past half its hold (a "retry after N seconds" the transport waits out) is held again
before each write, and dropped if a newer one was claimed meanwhile, or queued behind
it: only the newest version of a message is ever sent. A slot's new message whose id the
store could not take is deleted at once: the screen is sent again when the store
answers, and no copy is left that no record names. A picture sent on its own above a
text too long for its caption is recorded likewise, and the slot's picture recorded
before it deleted.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from contextvars import ContextVar

from adapters.delivery.clock import Clock
from adapters.delivery.limiter import SendTurns
from adapters.delivery.slots import HOLD_SECONDS, Claim, SlotBook
from adapters.delivery.transport import (
    STORE_DOWN,
    Edited,
    Messages,
    NewMessage,
    NoPermission,
    Refused,
)
from bot.model.contract import ChatRef, Delete, Screen, Show, Slot, SlotKind

log = logging.getLogger(__name__)

BUSY_POLL = 0.02  # seconds between looks at a slot another worker is showing
PICTURE_TOPIC = "picture|"  # the slot book's record of a slot's picture sent on its own


class _Overtaken(Exception):
    """A newer version of the slot being shown was claimed while this one waited."""


class _Superseded(Exception):
    """A newer version of the slot being shown was queued while this one waited."""


_SHOWING: ContextVar[tuple[Show, float] | None] = ContextVar("showing", default=None)
"""The screen this task is showing and when it last held its slot."""


class SlotShower:
    """Shows and deletes slots' messages through ``messages``, recording them in ``book``;
    ``newer_queued`` says whether a newer version of a screen waits behind it."""

    def __init__(
        self,
        messages: Messages,
        book: SlotBook,
        clock: Clock,
        newer_queued: Callable[[Show], bool],
    ) -> None:
        self.messages = messages
        self.book = book
        self.clock = clock
        self._newer_queued = newer_queued
        messages.hold_on = self._hold_on

    async def show(self, show: Show, turns: SendTurns) -> None:
        slot = show.slot
        claim = await self.claim(slot, show.version)
        if not claim.fresh:
            log.debug("not showing version %s in %s: a newer one is shown", show.version, slot)
            return
        showing = _SHOWING.set((show, self.clock.now()))
        overtaken = False
        try:
            await self._show_claimed(show, claim.message_id, turns)
        except _Overtaken:
            log.debug("version %s in %s was overtaken while it waited", show.version, slot)
            overtaken = True  # the newer version's worker holds the slot: not ours to free
        except _Superseded:
            log.debug("version %s in %s: a newer one is queued behind it", show.version, slot)
        finally:
            _SHOWING.reset(showing)
            if not overtaken:
                await self.book.release(slot)

    async def _hold_on(self) -> None:
        """Before a write of a slot's screen held up past half its hold, hold the slot
        again, or raise :class:`_Overtaken` if a newer version was claimed meanwhile."""
        showing = _SHOWING.get()
        if showing is not None and self._newer_queued(showing[0]):
            raise _Superseded
        if showing is None or self.clock.now() - showing[1] < HOLD_SECONDS / 2:
            return
        show, _ = showing
        now = self.clock.now()
        if not await self.book.hold(show.slot, show.version, now):
            raise _Overtaken
        _SHOWING.set((show, now))

    async def claim(self, slot: Slot, version: int, patience: float | None = None) -> Claim:
        """Claim the slot, waiting while another worker is showing it; with ``patience``,
        no longer than that many seconds (the claim then comes back busy)."""
        waited = 0.0
        while True:
            claim = await self.book.claim(slot, version, self.clock.now())
            if not claim.busy or (patience is not None and waited >= patience):
                return claim
            await asyncio.sleep(BUSY_POLL)
            waited += BUSY_POLL

    async def _show_claimed(self, show: Show, message_id: int | None, turns: SendTurns) -> None:
        slot = show.slot
        if message_id is not None and show.notify:
            # An edit notifies no one, so a notifying screen is a new message. A ping
            # replaces the old one; a hand leaves its older message as it was drawn.
            if slot.kind is not SlotKind.HAND:
                await self.messages.delete_message(slot.chat, message_id, turns)
            message_id = None
        if message_id is not None and show.renew:
            sent = await self._send_placed(show, turns, notify=False)
            deleted = await self.retire(slot.chat, message_id, show.screen, turns)
            if show.pin:
                gone = message_id if deleted else None
                await self.messages.pin(slot.chat, sent, turns, gone)
            return
        if message_id is not None and await self._edit(slot.chat, message_id, show.screen, turns):
            return
        sent = await self._send_placed(show, turns, notify=show.notify)
        if show.pin:
            await self.messages.pin(slot.chat, sent, turns)

    async def _send_placed(self, show: Show, turns: SendTurns, *, notify: bool) -> int:
        """Send the slot's screen as a new message and record it as the slot's. When the
        store cannot take the record, the message is deleted before the error goes on:
        the screen is sent again once the store is back, and a copy no record names
        would stay above it for good, one more table the players see."""
        slot = show.slot
        placed = NewMessage(
            slot.chat,
            show.screen,
            notify,
            on_picture=lambda message_id: self._place_picture(slot, message_id, turns),
        )
        sent = await self.messages.send(placed, turns)
        try:
            await self.book.place(slot, sent, show.version)
        except STORE_DOWN:
            try:
                await self.messages.delete_message(slot.chat, sent, turns)
            except (NoPermission, Refused) as err:
                log.warning("message %s in %s is left unrecorded: %s", sent, slot, err)
            raise
        return sent

    async def _place_picture(self, slot: Slot, message_id: int, turns: SendTurns) -> None:
        """Record the picture sent as a message of its own above the slot's text (too long
        for a caption), and delete the one recorded before: a screen sent again, by
        another process after this one was killed between its picture and its text, or
        as the photo and text it was replaced by, leaves one picture, not one more. Should
        the store not take the record, the picture is deleted, as a slot's message is."""
        try:
            earlier = await self.book.swap_response(
                slot.chat, PICTURE_TOPIC + slot.key, message_id, self.clock.now()
            )
        except STORE_DOWN:
            await self.messages.delete_message(slot.chat, message_id, turns)
            raise
        if earlier is not None and earlier.message_id != message_id:
            await self.messages.delete_message(slot.chat, earlier.message_id, turns)

    async def retire(
        self, chat: ChatRef, message_id: int, screen: Screen, turns: SendTurns
    ) -> bool:
        """Delete the message a screen was shown in before it was posted anew, or cut it
        to the screen's first line where the platform will not delete it (False then)."""
        deleted = await self.messages.delete_message(chat, message_id, turns)
        if not deleted:
            await self._stub(chat, message_id, screen, turns)
        return deleted

    async def _stub(self, chat: ChatRef, message_id: int, screen: Screen, turns: SendTurns) -> None:
        """Cut a message that could not be deleted to the screen's first line, with no
        buttons, so only the newest copy of the screen can be pressed."""
        try:
            await self._edit(chat, message_id, Screen(screen.lines[:1]), turns)
        except Refused as err:
            log.info("could not cut message %s in %s to a stub: %s", message_id, chat.key, err)

    async def delete(self, delete: Delete, turns: SendTurns) -> None:
        """Delete the slot's message; as of a version, claiming the slot first (waiting
        while another worker shows it) and leaving it vacant at that version, so a screen
        drawn before, still on its way, is not shown after, nor a later one deleted."""
        slot, version = delete.slot, delete.version
        if version is None:
            message_id = await self.book.message_of(slot)
            if message_id is not None:
                await self.messages.delete_message(slot.chat, message_id, turns)
            await self.book.forget(slot)
            return
        claim = await self.claim(slot, version)
        if not claim.fresh:
            return  # a newer screen of the slot is shown: not this deletion's to remove
        try:
            if claim.message_id is not None:
                await self.messages.delete_message(slot.chat, claim.message_id, turns)
        except BaseException:
            await self.book.release(slot)
            raise
        await self.book.vacate(slot, version)  # which releases it too

    async def _edit(self, chat: ChatRef, message_id: int, screen: Screen, turns: SendTurns) -> bool:
        """Edit the slot's message; False when it is gone and must be sent again."""
        edited = await self.messages.edit(chat, message_id, screen, turns)
        if edited is Edited.GONE:
            log.info("message %s in %s is gone; sending it again", message_id, chat.key)
            return False
        if edited is Edited.OTHER_KIND:
            # Text cannot become a picture by an edit, nor a picture text: replace it.
            await self.messages.delete_message(chat, message_id, turns)
            return False
        return True
