"""Telegram's transport for the delivery layer (:class:`adapters.delivery.transport.Transport`):
carrying out a slot's screen (Show) or its deletion (Delete) with the Bot API, and the
one-off messages through the :class:`.sending.Sender`.

Telegram's answers are folded into what they mean for a slot: "message is not
modified" is a success, a table message someone deleted is sent again, a flood
wait is waited out and the call repeated, a 403 from a private chat means the
user cannot be reached (:class:`adapters.delivery.transport.ChatUnreachable`), and the
other refusals reach the deliverer in its words (:func:`.refusals.in_delivery_terms`).

A table posted anew (``renew``, at the start of a deal) is sent first and
its older message deleted after, or cut to its heading where Telegram no longer
lets a bot delete it. A slot's screen held up past half its hold (a flood wait) is
held again before each write, and dropped if a newer one was claimed meanwhile, or
queued behind it: only the newest version of a message is ever sent. A
slot's new message whose id the store could not take is deleted at once: the screen
is sent again when the store answers, and no copy is left that no record names. A
picture sent on its own above a text too long for its caption is recorded likewise, and
the slot's picture recorded before it deleted.

New messages and deletions as such, and the one-off messages with no slot (notices,
responses, files, answers to button presses), are the :class:`.sending.Sender`'s, which
the carrier holds as :attr:`Carrier.sender`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from contextvars import ContextVar

from telegram import Bot, InputMediaPhoto, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest, TelegramError

from adapters.delivery.clock import Clock
from adapters.delivery.limiter import UNPACED, Budget, SendTurns
from adapters.delivery.outbox import Once
from adapters.delivery.slots import HOLD_SECONDS, Claim, SlotBook
from adapters.delivery.transport import STORE_DOWN, Sent
from adapters.telegram.budget import TELEGRAM
from adapters.telegram.calls import Caller
from adapters.telegram.conversion import private_chat
from adapters.telegram.pins import Pinner
from adapters.telegram.refusals import (
    in_delivery_terms,
    is_message_gone,
    is_not_modified,
    is_other_kind,
)
from adapters.telegram.render import Renderer
from adapters.telegram.sending import (
    CAPTION_LIMIT,
    NO_PREVIEW,
    PICTURE_NAME,
    Sender,
)
from bot.model.contract import Answer, ChatRef, Delete, Screen, Show, Slot, SlotKind, UserRef

log = logging.getLogger(__name__)

BUSY_POLL = 0.02  # seconds between looks at a slot another worker is showing
PICTURE_TOPIC = "picture|"  # the slot book's record of a slot's picture sent on its own


class _Overtaken(Exception):
    """A newer version of the slot being shown was claimed while this one waited."""


class _Superseded(Exception):
    """A newer version of the slot being shown was queued while this one waited."""


_SHOWING: ContextVar[tuple[Show, float] | None] = ContextVar("showing", default=None)
"""The screen this task is showing and when it last held its slot."""


class Carrier:
    """Telegram's transport: its calls, in its send rules (:data:`.budget.TELEGRAM`)."""

    def __init__(
        self,
        bot: Bot,
        renderer: Renderer,
        book: SlotBook,
        clock: Clock,
        budget: Budget = TELEGRAM,
    ) -> None:
        self.bot = bot
        self.budget = budget
        self.renderer = renderer
        self.book = book
        self.clock = clock
        # Whether a newer version of a screen is queued behind it (the deliverer says):
        # one that waited out a flood is then never sent before the newest.
        self.newer_queued: Callable[[Show], bool] = lambda show: False
        self.calls = Caller(clock, self._hold_on)
        self._call = self.calls.call
        self.pins = Pinner(bot, book, clock, self._call)
        self.sender = Sender(bot, renderer, book, clock, self.calls)

    @staticmethod
    def private_chat(user: UserRef) -> ChatRef:
        return private_chat(user)

    async def answer(self, query_id: str, answer: Answer) -> None:
        await self.sender.answer(query_id, answer)

    async def send_once(self, item: Once, turns: SendTurns = UNPACED, sent: Sent = None) -> None:
        with in_delivery_terms():
            await self.sender.send_once(item, turns, sent)

    async def show(self, show: Show, turns: SendTurns = UNPACED) -> None:
        with in_delivery_terms():
            await self._show(show, turns)

    async def delete(self, delete: Delete, turns: SendTurns = UNPACED) -> None:
        """Delete the slot's message; as of a version, claiming the slot first (waiting
        while another worker shows it) and leaving it vacant at that version, so a screen
        drawn before, still on its way, is not shown after, nor a later one deleted."""
        with in_delivery_terms():
            await self._delete(delete, turns)

    async def _show(self, show: Show, turns: SendTurns) -> None:
        slot = show.slot
        claim = await self._claim(slot, show.version)
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
        if showing is not None and self.newer_queued(showing[0]):
            raise _Superseded
        if showing is None or self.clock.now() - showing[1] < HOLD_SECONDS / 2:
            return
        show, _ = showing
        now = self.clock.now()
        if not await self.book.hold(show.slot, show.version, now):
            raise _Overtaken
        _SHOWING.set((show, now))

    async def _claim(self, slot: Slot, version: int) -> Claim:
        """Claim the slot, waiting while another worker is showing it."""
        while True:
            claim = await self.book.claim(slot, version, self.clock.now())
            if not claim.busy:
                return claim
            await asyncio.sleep(BUSY_POLL)

    async def _show_claimed(self, show: Show, message_id: int | None, turns: SendTurns) -> None:
        slot = show.slot
        if message_id is not None and show.notify:
            # An edit notifies no one, so a notifying screen is a new message. A ping
            # replaces the old one; a hand leaves its older message as it was drawn.
            if slot.kind is not SlotKind.HAND:
                await self.sender.delete_message(slot.chat, message_id, turns)
            message_id = None
        if message_id is not None and show.renew:
            sent = await self._send_placed(show, turns, notify=False)
            deleted = await self.sender.delete_message(slot.chat, message_id, turns)
            if not deleted:
                await self._stub(slot.chat, message_id, show.screen, turns)
            if show.pin:
                gone = message_id if deleted else None
                await self.pins.pin(slot.chat, sent.message_id, turns, gone)
            return
        if message_id is not None and await self._edit(slot.chat, message_id, show, turns):
            return
        sent = await self._send_placed(show, turns, notify=show.notify)
        if show.pin:
            await self.pins.pin(slot.chat, sent.message_id, turns)

    async def _send_placed(self, show: Show, turns: SendTurns, *, notify: bool) -> Message:
        """Send the slot's screen as a new message and record it as the slot's. When the
        store cannot take the record, the message is deleted before the error goes on:
        the screen is sent again once the store is back, and a copy no record names
        would stay above it for good, one more table the players see."""
        slot = show.slot
        sent = await self.sender.send(
            slot.chat,
            show.screen,
            turns,
            notify=notify,
            on_picture=lambda message_id: self._place_picture(slot, message_id, turns),
        )
        try:
            await self.book.place(slot, sent.message_id, show.version)
        except STORE_DOWN:
            try:
                await self.sender.delete_message(slot.chat, sent.message_id, turns)
            except TelegramError as err:
                log.warning("message %s in %s is left unrecorded: %s", sent.message_id, slot, err)
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
            await self.sender.delete_message(slot.chat, message_id, turns)
            raise
        if earlier is not None and earlier.message_id != message_id:
            await self.sender.delete_message(slot.chat, earlier.message_id, turns)

    async def _stub(self, chat: ChatRef, message_id: int, screen: Screen, turns: SendTurns) -> None:
        """Cut a message that could not be deleted to the screen's first line, with no
        buttons, so only the newest copy of the screen can be pressed."""
        stub = Show(Slot(SlotKind.TABLE, chat), Screen(screen.lines[:1]))
        try:
            await self._edit(chat, message_id, stub, turns)
        except BadRequest as err:
            log.info("could not cut message %s in %s to a stub: %s", message_id, chat.key, err)

    async def _delete(self, delete: Delete, turns: SendTurns) -> None:
        slot, version = delete.slot, delete.version
        if version is None:
            message_id = await self.book.message_of(slot)
            if message_id is not None:
                await self.sender.delete_message(slot.chat, message_id, turns)
            await self.book.forget(slot)
            return
        claim = await self._claim(slot, version)
        if not claim.fresh:
            return  # a newer screen of the slot is shown: not this deletion's to remove
        try:
            if claim.message_id is not None:
                await self.sender.delete_message(slot.chat, claim.message_id, turns)
        except BaseException:
            await self.book.release(slot)
            raise
        await self.book.vacate(slot, version)  # which releases it too

    async def _edit(self, chat: ChatRef, message_id: int, show: Show, turns: SendTurns) -> bool:
        """Edit the slot's message (a picture's by replacing the photo, as
        ``editMessageMedia`` does); False when it is gone and must be sent again."""
        rendered = self.renderer.render(show.screen, chat)
        picture = show.screen.picture
        try:
            if picture is not None:
                # Bytes, not an InputFile: only then is the photo sent as an attachment.
                media = InputMediaPhoto(
                    picture,
                    filename=PICTURE_NAME,
                    caption=rendered.text if len(rendered.text) <= CAPTION_LIMIT else None,
                    parse_mode=ParseMode.HTML,
                )
                await self._call(
                    lambda chat_id: self.bot.edit_message_media(
                        media, chat_id=chat_id, message_id=message_id, reply_markup=rendered.markup
                    ),
                    chat,
                    turns,
                )
                return True
            await self._call(
                lambda chat_id: self.bot.edit_message_text(
                    rendered.text,
                    chat_id=chat_id,
                    message_id=message_id,
                    parse_mode=ParseMode.HTML,
                    reply_markup=rendered.markup,
                    link_preview_options=NO_PREVIEW,
                ),
                chat,
                turns,
            )
        except BadRequest as err:
            if is_not_modified(err):
                return True
            if is_message_gone(err):
                log.info("message %s in %s is gone; sending it again", message_id, chat.key)
                return False
            if is_other_kind(err):
                # Text cannot become a photo by an edit, nor a photo text: replace it.
                await self.sender.delete_message(chat, message_id, turns)
                return False
            raise
        return True
