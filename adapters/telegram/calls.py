"""One Bot API call to a chat, as the carrier makes it: in its turn of the send budget,
waiting out flood control however long it lasts, retrying network errors, and following
a group that became a supergroup."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from functools import partial
from typing import TypeVar

from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter, TimedOut

from adapters.delivery.clock import Clock
from adapters.delivery.limiter import UNPACED, SendTurns
from adapters.delivery.transport import ChatUnreachable
from adapters.telegram.conversion import telegram_chat_id
from adapters.telegram.refusals import retry_seconds
from bot.model.contract import ChatRef

log = logging.getLogger(__name__)

T = TypeVar("T")

ATTEMPTS = 5  # calls per instruction before giving up on network errors (never on flood waits)


class Caller:
    """Makes the carrier's calls; ``hold_on`` is awaited before each attempt (the
    carrier's check that the screen it shows is still the newest)."""

    def __init__(self, clock: Clock, hold_on: Callable[[], Awaitable[None]]) -> None:
        self.clock = clock
        self._hold_on = hold_on
        self._moved: dict[int, int] = {}  # groups that became supergroups, old id -> new

    def moved(self, old: int, new: int) -> None:
        """Group ``old`` became supergroup ``new``: write there from now on."""
        self._moved[old] = new

    def chat_id(self, chat: ChatRef) -> int:
        chat_id = telegram_chat_id(chat)
        return self._moved.get(chat_id, chat_id)

    async def call(
        self,
        make: Callable[[int], Awaitable[T]],
        chat: ChatRef,
        turns: SendTurns = UNPACED,
        in_chat: bool = True,
    ) -> T:
        """Make a Bot API call to the chat (each attempt in its turn; a deletion's in the
        bot-wide budget alone), waiting out flood control, retrying network errors, and
        following a group that became a supergroup."""
        attempt = 0
        while True:
            attempt += 1
            chat_id = self.chat_id(chat)
            await turns.spend(in_chat)
            await self._hold_on()
            try:
                return await turns.within(partial(make, chat_id))
            except ChatMigrated as err:
                if attempt == ATTEMPTS:
                    raise
                log.info("chat %s is now %s", chat_id, err.new_chat_id)
                self.moved(chat_id, err.new_chat_id)
            except RetryAfter as err:
                # Telegram says when it takes the call again: however long the flood
                # lasts, the call is not given up (a newer screen replaces it meanwhile).
                attempt -= 1
                wait = retry_seconds(err)
                log.info("flood control in %s: waiting %.0f s", chat.key, wait)
                await self.clock.sleep_until(self.clock.now() + wait)
            except Forbidden as err:
                if chat.chat_id.startswith("-"):
                    raise
                # A private chat never started, or the bot blocked.
                raise ChatUnreachable(str(err)) from err
            except (BadRequest, TimedOut):
                raise  # a refused call does not change by repeating it; a sent one may have landed
            except NetworkError as err:
                if attempt == ATTEMPTS:
                    raise
                log.info("network error towards %s (%s); retrying", chat.key, err)
                await self.clock.sleep_until(self.clock.now() + attempt)
