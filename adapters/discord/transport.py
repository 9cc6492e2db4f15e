"""A channel's messages over discord.py's public API, as the delivery layer shows slots
through them (:class:`adapters.delivery.transport.Messages`).

Discord's answers are folded into what they mean for a slot: an edit of a message that
is gone (404) asks for it to be sent anew; a deletion Discord refuses (403: the message
is not the bot's to delete, or the right is missing) is ``False``, so the slot shower
cuts the message to a stub instead; a deletion of a message already gone is done. A
write refused for a missing permission is :class:`NoPermission`, any other refusal
:class:`Refused`; a 429 that discord.py gave up waiting out, or a server error, goes up
as it is, for the deliverer to try again later. A table is never pinned on Discord.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Iterator

import discord

from adapters.delivery.limiter import SendTurns
from adapters.delivery.transport import Edited, NewMessage, NoPermission, Refused
from adapters.discord.render import render
from bot.model.contract import ChatRef, Screen


async def _no_hold() -> None:
    return None


def passing(exc: discord.HTTPException) -> bool:
    """Whether Discord refused only for now: rate-limited, or a server error."""
    return exc.status == 429 or exc.status >= 500


@contextlib.contextmanager
def in_delivery_terms() -> Iterator[None]:
    """Discord's refusals as the delivery layer names them; a passing one goes up as is."""
    try:
        yield
    except discord.Forbidden as err:
        raise NoPermission(str(err)) from err
    except discord.HTTPException as err:
        if passing(err):
            raise
        raise Refused(str(err)) from err


def channel_of(chat: ChatRef) -> int:
    """The channel (or thread) a chat stands for."""
    return int(chat.chat_id)


class DiscordMessages:
    """Channel messages with discord.py, each write in its turn of the budget."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self.hold_on: Callable[[], Awaitable[None]] = _no_hold

    def _message(self, chat: ChatRef, message_id: int) -> discord.PartialMessage:
        channel = self.client.get_partial_messageable(channel_of(chat))
        return channel.get_partial_message(message_id)

    async def write(
        self, turns: SendTurns, call: Callable[[], Awaitable[object]], in_chat: bool = True
    ) -> object:
        """Make ``call`` in its turn of the channel's budget (``in_chat``: a message in the
        channel; else counted bot-wide alone, as a deletion is)."""
        await turns.spend(in_chat)
        await self.hold_on()
        return await turns.within(call)

    async def send(self, message: NewMessage, turns: SendTurns) -> int:
        """A new message; its picture is an attachment of it, never a message of its own
        (a reply is a message like any other: a channel's slots reply to nothing)."""
        channel = self.client.get_partial_messageable(channel_of(message.chat))
        kwargs = render(message.screen, notify=message.notify).send_kwargs()
        with in_delivery_terms():
            sent = await self.write(turns, lambda: channel.send(**kwargs))
        assert isinstance(sent, discord.Message)
        return sent.id

    async def edit(
        self, chat: ChatRef, message_id: int, screen: Screen, turns: SendTurns
    ) -> Edited:
        message = self._message(chat, message_id)
        kwargs = render(screen).edit_kwargs()
        with in_delivery_terms():
            try:
                await self.write(turns, lambda: message.edit(**kwargs))
            except discord.NotFound:
                return Edited.GONE
        return Edited.DONE

    async def delete_message(self, chat: ChatRef, message_id: int, turns: SendTurns) -> bool:
        message = self._message(chat, message_id)
        with in_delivery_terms():
            try:
                await self.write(turns, message.delete, in_chat=False)
            except discord.NotFound:
                return True  # gone already: not the slot's to show any more
            except discord.Forbidden:
                return False
        return True

    async def pin(
        self, chat: ChatRef, message_id: int, turns: SendTurns, gone: int | None = None
    ) -> None:
        return None
