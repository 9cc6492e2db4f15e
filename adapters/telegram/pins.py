"""Pinning the live table, in a group that asked for it (the ``pin`` setting).

A table posted anew is pinned without a notification, and the table pinned before
it (a finished match's, or a deal's that could only be cut to a stub) is unpinned,
so the pinned message is always the table being played. A group where the bot may
not pin refuses the call: the group is told nothing (its admins chose the bot's
rights), and the refusal is remembered for :data:`RETRY_SECONDS`, so the bot does
not ask again at every deal.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from telegram import Bot
from telegram.error import BadRequest, Forbidden, TelegramError

from adapters.delivery.clock import Clock
from adapters.delivery.limiter import SendTurns
from adapters.delivery.slots import SlotBook
from bot.model.contract import ChatRef

log = logging.getLogger(__name__)

PINNED = "~pinned"  # the slot book's topic for the table pinned last
REFUSED = "~pin refused"  # ... and for the last refusal
RETRY_SECONDS = 6 * 3600.0  # a group that refused is asked again after this long
# How the carrier makes a call to a chat: within its budget, through flood waits.
Call = Callable[[Callable[[int], Awaitable[Any]], ChatRef, SendTurns], Awaitable[Any]]


class Pinner:
    def __init__(self, bot: Bot, book: SlotBook, clock: Clock, call: Call) -> None:
        self._bot = bot
        self._book = book
        self._clock = clock
        self._call = call

    async def pin(
        self, chat: ChatRef, message_id: int, turns: SendTurns, gone: int | None = None
    ) -> None:
        """Pin ``message_id`` and unpin the table pinned before it, unless that one was
        ``gone`` (deleted, and so unpinned, by the caller)."""
        now = self._clock.now()
        refused = await self._book.response_on(chat, REFUSED)
        if refused is not None and now - refused.at < RETRY_SECONDS:
            return
        try:
            await self._call(
                lambda chat_id: self._bot.pin_chat_message(
                    chat_id, message_id, disable_notification=True
                ),
                chat,
                turns,
            )
        except (BadRequest, Forbidden) as err:
            log.info("may not pin in %s (%s); asking again in %.0f s", chat.key, err, RETRY_SECONDS)
            await self._book.swap_response(chat, REFUSED, message_id, now)
            return
        except TelegramError as err:
            log.warning("could not pin message %s in %s: %s", message_id, chat.key, err)
            return
        earlier = await self._book.swap_response(chat, PINNED, message_id, now)
        if earlier is None or earlier.message_id in (message_id, gone):
            return
        try:
            await self._call(
                lambda chat_id: self._bot.unpin_chat_message(chat_id, earlier.message_id),
                chat,
                turns,
            )
        except TelegramError as err:
            # Deleted by someone, or unpinned by hand: either way no longer pinned.
            log.info("could not unpin message %s in %s: %s", earlier.message_id, chat.key, err)
