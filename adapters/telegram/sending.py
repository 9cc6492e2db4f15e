"""New messages, and deletions, with the Bot API: what has no slot of its own.

A screen goes out as a new message: a photo captioned with its text, or, when the
text is too long for a caption, the photo and then the text. The carrier sends a
slot's screens this way before it records them (:mod:`adapters.telegram.carry`); the
one-off instructions are nothing more than such a message: a notice, a file, a
button press answered, and a response to a command.

A response is a new message replying to the command. The bot's previous response on
the same topic (the last ``/scores``) is deleted then, once it has been up for
:data:`READ_SECONDS`, so a busy chat does not fill up with them.
"""

from __future__ import annotations

import logging

from telegram import Bot, InputFile, LinkPreviewOptions, Message, ReplyParameters
from telegram.constants import ParseMode
from telegram.error import BadRequest, TelegramError

from adapters.delivery.clock import Clock
from adapters.delivery.limiter import UNPACED, SendTurns
from adapters.delivery.outbox import Once
from adapters.delivery.slots import SlotBook
from adapters.delivery.transport import STORE_DOWN, NewMessage, Sent
from adapters.telegram.calls import Caller
from adapters.telegram.conversion import telegram_thread_id
from adapters.telegram.render import Renderer, alert_text
from bot.model.contract import Answer, ChatRef, Document, Notice, Response

log = logging.getLogger(__name__)

NO_PREVIEW = LinkPreviewOptions(is_disabled=True)
CAPTION_LIMIT = 1024  # characters Telegram takes in a photo's caption
PICTURE_NAME = "table.png"
READ_SECONDS = 60.0  # an older response stays at least this long before it is tidied away


class Sender:
    """Sends and deletes messages through ``calls`` (the carrier's, so each write waits
    for its turn and through flood waits), and carries out the one-off instructions."""

    def __init__(
        self, bot: Bot, renderer: Renderer, book: SlotBook, clock: Clock, calls: Caller
    ) -> None:
        self.bot = bot
        self.renderer = renderer
        self.book = book
        self.clock = clock
        self._call = calls.call

    async def answer(self, query_id: str, answer: Answer) -> None:
        """Answer a button press; a failure is logged, never raised: the press has been
        handled already, and an answer is only worth giving at once, so nothing waits
        for a flood wait or retries it."""
        try:
            await self.bot.answer_callback_query(
                query_id, text=alert_text(answer.text) or None, show_alert=answer.alert
            )
        except TelegramError as err:
            log.warning("could not answer callback %s: %s", query_id, err)

    async def send_once(self, item: Once, turns: SendTurns = UNPACED, sent: Sent = None) -> None:
        """Carry out a one-off message; ``sent`` is awaited as soon as Telegram has taken it."""
        if isinstance(item, Notice):
            await self.notice(item, turns, sent)
        elif isinstance(item, Response):
            await self.respond(item, turns, sent)
        else:
            await self.document(item, turns, sent)

    async def notice(self, notice: Notice, turns: SendTurns = UNPACED, sent: Sent = None) -> None:
        """A new message; ``sent`` is awaited as soon as Telegram has taken it."""
        await self.send(NewMessage(notice.chat, notice.screen, notify=True), turns)
        if sent is not None:
            await sent()

    async def respond(
        self, response: Response, turns: SendTurns = UNPACED, sent: Sent = None
    ) -> None:
        """A new message replying to the command (``sent`` is awaited as soon as Telegram
        has taken it, before anything else is done); then the previous response on the
        same topic is deleted if it has been up long enough to be read."""
        chat = response.chat
        reply_to = int(response.reply_to) if response.reply_to else None
        replying = NewMessage(chat, response.screen, notify=True, reply_to=reply_to)
        message = await self.send(replying, turns)
        if sent is not None:
            await sent()
        if not response.topic:
            return
        now = self.clock.now()
        try:
            previous = await self.book.swap_response(chat, response.topic, message.message_id, now)
        except STORE_DOWN as err:  # sent: only the tidying of the older one is skipped
            log.info("could not remember the response in %s (%s)", chat.key, err)
            return
        if previous is not None and now - previous.at >= READ_SECONDS:
            await self.delete_message(chat, previous.message_id, turns)

    async def document(
        self, document: Document, turns: SendTurns = UNPACED, sent: Sent = None
    ) -> None:
        chat = document.chat
        await self._call(
            lambda chat_id: self.bot.send_document(
                chat_id,
                InputFile(document.data, filename=document.filename),
                caption=document.caption or None,
                message_thread_id=telegram_thread_id(chat),
            ),
            chat,
            turns,
        )
        if sent is not None:
            await sent()

    async def send(self, message: NewMessage, turns: SendTurns) -> Message:
        """Send the message's screen: a photo captioned with its text, or, when the text
        is too long for a caption, the photo and then the text (``on_picture`` is told
        the photo's message id in between)."""
        chat, screen, notify = message.chat, message.screen, message.notify
        reply_to, on_picture = message.reply_to, message.on_picture
        rendered = self.renderer.render(screen, chat)
        replying = (
            ReplyParameters(reply_to, allow_sending_without_reply=True)
            if reply_to is not None
            else None
        )
        if screen.picture is not None and len(rendered.text) <= CAPTION_LIMIT:
            picture = screen.picture
            return await self._call(
                lambda chat_id: self.bot.send_photo(
                    chat_id,
                    InputFile(picture, filename=PICTURE_NAME),
                    caption=rendered.text,
                    parse_mode=ParseMode.HTML,
                    reply_markup=rendered.markup,
                    message_thread_id=telegram_thread_id(chat),
                    disable_notification=not notify,
                ),
                chat,
                turns,
            )
        if screen.picture is not None:  # too much text for a caption: the picture goes first
            picture = screen.picture
            photo = await self._call(
                lambda chat_id: self.bot.send_photo(
                    chat_id,
                    InputFile(picture, filename=PICTURE_NAME),
                    message_thread_id=telegram_thread_id(chat),
                    disable_notification=True,
                ),
                chat,
                turns,
            )
            if on_picture is not None:
                await on_picture(photo.message_id)
        return await self._call(
            lambda chat_id: self.bot.send_message(
                chat_id,
                rendered.text,
                parse_mode=ParseMode.HTML,
                reply_markup=rendered.markup,
                message_thread_id=telegram_thread_id(chat),
                disable_notification=not notify,
                link_preview_options=NO_PREVIEW,
                reply_parameters=replying,
            ),
            chat,
            turns,
        )

    async def delete_message(self, chat: ChatRef, message_id: int, turns: SendTurns) -> bool:
        """Delete a message; False when Telegram refused (already deleted, or too old for
        a bot to delete): either way it is not ours to show any more."""
        try:
            await self._call(
                lambda chat_id: self.bot.delete_message(chat_id, message_id),
                chat,
                turns,
                in_chat=False,
            )
        except BadRequest as err:
            log.info("could not delete message %s in %s: %s", message_id, chat.key, err)
            return False
        return True
