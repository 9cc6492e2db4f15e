"""Telegram's transport for the delivery layer (:class:`adapters.delivery.transport.Transport`):
its messages (:class:`TelegramMessages`), which the shared
:class:`adapters.delivery.showing.SlotShower` shows slots through, and the one-off
messages through the :class:`.sending.Sender`.

Telegram's answers are folded into what they mean for a slot: "message is not modified"
is an edit done, a message someone deleted (or too old to edit) is gone and sent again,
a photo edited into text or the reverse is of the other kind, a flood wait is waited out
and the call repeated (:mod:`.calls`), a 403 from a private chat means the user cannot be
reached (:class:`adapters.delivery.transport.ChatUnreachable`), and the other refusals
reach the delivery layer in its words (:func:`.refusals.in_delivery_terms`). A screen's
picture with a text too long for its caption goes as a photo and then the text.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from telegram import Bot, InputMediaPhoto
from telegram.constants import ParseMode
from telegram.error import BadRequest

from adapters.delivery.clock import Clock
from adapters.delivery.limiter import UNPACED, Budget, SendTurns
from adapters.delivery.outbox import Once
from adapters.delivery.showing import SlotShower
from adapters.delivery.slots import SlotBook
from adapters.delivery.transport import Edited, NewMessage, Sent
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
from adapters.telegram.sending import CAPTION_LIMIT, NO_PREVIEW, PICTURE_NAME, Sender
from bot.model.contract import Answer, ChatRef, Delete, Screen, Show, UserRef


async def _no_hold() -> None:
    return None


class TelegramMessages:
    """A slot's messages with the Bot API (:class:`adapters.delivery.transport.Messages`)."""

    def __init__(self, bot: Bot, renderer: Renderer, book: SlotBook, clock: Clock) -> None:
        self.bot = bot
        self.renderer = renderer
        self.hold_on: Callable[[], Awaitable[None]] = _no_hold
        self.calls = Caller(clock, lambda: self.hold_on())
        self._call = self.calls.call
        self.pins = Pinner(bot, book, clock, self._call)
        self.sender = Sender(bot, renderer, book, clock, self.calls)

    async def send(self, message: NewMessage, turns: SendTurns) -> int:
        with in_delivery_terms():
            sent = await self.sender.send(message, turns)
        return sent.message_id

    async def delete_message(self, chat: ChatRef, message_id: int, turns: SendTurns) -> bool:
        with in_delivery_terms():
            return await self.sender.delete_message(chat, message_id, turns)

    async def pin(
        self, chat: ChatRef, message_id: int, turns: SendTurns, gone: int | None = None
    ) -> None:
        with in_delivery_terms():
            await self.pins.pin(chat, message_id, turns, gone)

    async def edit(
        self, chat: ChatRef, message_id: int, screen: Screen, turns: SendTurns
    ) -> Edited:
        """``editMessageText``, or for a picture ``editMessageMedia``, which replaces the photo."""
        with in_delivery_terms():
            try:
                await self._edit(chat, message_id, screen, turns)
            except BadRequest as err:
                if is_not_modified(err):
                    return Edited.DONE
                if is_message_gone(err):
                    return Edited.GONE
                if is_other_kind(err):
                    return Edited.OTHER_KIND
                raise
        return Edited.DONE

    async def _edit(self, chat: ChatRef, message_id: int, screen: Screen, turns: SendTurns) -> None:
        rendered = self.renderer.render(screen, chat)
        picture = screen.picture
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
            return
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


class Carrier:
    """Telegram's transport: its messages and calls, in its send rules
    (:data:`.budget.TELEGRAM`)."""

    def __init__(
        self,
        bot: Bot,
        renderer: Renderer,
        book: SlotBook,
        clock: Clock,
        budget: Budget = TELEGRAM,
    ) -> None:
        self.budget = budget
        # Whether a newer version of a screen is queued behind it (the deliverer says):
        # one that waited out a flood is then never sent before the newest.
        self.newer_queued: Callable[[Show], bool] = lambda show: False
        self.messages = TelegramMessages(bot, renderer, book, clock)
        self.calls = self.messages.calls
        self.sender = self.messages.sender
        self.slots = SlotShower(self.messages, book, clock, lambda show: self.newer_queued(show))

    @staticmethod
    def private_chat(user: UserRef) -> ChatRef:
        return private_chat(user)

    async def answer(self, query_id: str, answer: Answer) -> None:
        await self.sender.answer(query_id, answer)

    async def send_once(self, item: Once, turns: SendTurns = UNPACED, sent: Sent = None) -> None:
        with in_delivery_terms():
            await self.sender.send_once(item, turns, sent)

    async def show(self, show: Show, turns: SendTurns = UNPACED) -> None:
        await self.slots.show(show, turns)

    async def delete(self, delete: Delete, turns: SendTurns = UNPACED) -> None:
        await self.slots.delete(delete, turns)
