"""Discord's transport for the delivery layer (:class:`adapters.delivery.transport.Transport`):
what goes to a channel — its slots (the table, the lobby, the summaries), shown by the
shared :class:`adapters.delivery.showing.SlotShower` over :class:`.transport.DiscordMessages`,
and its one-off messages and files — each write in its turn of Discord's send budget
(:data:`.budget.DISCORD`).

A player's hand and ping are not the deliverer's: a hand is edited through its
interaction's webhook, which Discord limits apart from the channel, and is pushed at once
(:mod:`adapters.discord.deliver`), so it never waits behind a channel's edits.

A message for one person alone outside an interaction (a ``Response`` with ``to``, which
an interaction's ephemeral reply did not carry) goes to his direct messages with the bot:
its chat is :func:`direct_chat`, never a channel named by his user id.
"""

from __future__ import annotations

import io
from collections.abc import Callable

import discord

from adapters.delivery.clock import Clock
from adapters.delivery.limiter import UNPACED, Budget, SendTurns
from adapters.delivery.outbox import Once
from adapters.delivery.showing import SlotShower
from adapters.delivery.slots import SlotBook
from adapters.delivery.transport import Sent
from adapters.discord.budget import DISCORD
from adapters.discord.render import PLATFORM, render
from adapters.discord.transport import DiscordMessages, channel_of, in_delivery_terms
from bot.model.contract import Answer, ChatRef, Delete, Document, Show, UserRef

DIRECT = "@"  # a direct-messages chat's id: this mark, then the user's id


def direct_chat(user: UserRef) -> ChatRef:
    """The chat of ``user``'s direct messages with the bot."""
    return ChatRef(PLATFORM, DIRECT + user.user_id)


class DiscordCarrier:
    """Discord's transport: a channel's slots and one-off messages, in its send rules;
    ``shown`` and ``deleted`` are told of each slot shown or deleted."""

    def __init__(
        self,
        client: discord.Client,
        book: SlotBook,
        clock: Clock,
        shown: Callable[[Show], None],
        deleted: Callable[[Delete], None],
        budget: Budget = DISCORD,
    ) -> None:
        self.client = client
        self.budget = budget
        # Set by the deliverer: a screen held up (a 429 waited out) is never sent before
        # a newer version queued behind it.
        self.newer_queued: Callable[[Show], bool] = lambda show: False
        self.messages = DiscordMessages(client)
        self.shower = SlotShower(self.messages, book, clock, lambda show: self.newer_queued(show))
        self._shown = shown
        self._deleted = deleted

    @staticmethod
    def private_chat(user: UserRef) -> ChatRef:
        return direct_chat(user)

    async def answer(self, query_id: str, answer: Answer) -> None:
        """A press is answered by its interaction's response (:mod:`.adapter`), never here."""
        return None

    async def show(self, show: Show, turns: SendTurns = UNPACED) -> None:
        await self.shower.show(show, turns)
        self._shown(show)

    async def delete(self, delete: Delete, turns: SendTurns = UNPACED) -> None:
        await self.shower.delete(delete, turns)
        self._deleted(delete)

    async def send_once(self, item: Once, turns: SendTurns = UNPACED, sent: Sent = None) -> None:
        """A notice, a response or a file, as a new message of its chat."""
        with in_delivery_terms():
            channel = await self._channel(item.chat)
            if isinstance(item, Document):
                upload = discord.File(io.BytesIO(item.data), filename=item.filename)
                caption = discord.utils.escape_markdown(item.caption) if item.caption else None
                await self.messages.write(turns, lambda: channel.send(content=caption, file=upload))
            else:
                kwargs = render(item.screen).send_kwargs()
                await self.messages.write(turns, lambda: channel.send(**kwargs))
        if sent is not None:
            await sent()

    async def _channel(self, chat: ChatRef) -> discord.abc.Messageable:
        """The channel a chat stands for; a person's direct messages are opened first."""
        if chat.chat_id.startswith(DIRECT):
            user = discord.Object(int(chat.chat_id.removeprefix(DIRECT)))
            return await self.client.create_dm(user)
        return self.client.get_partial_messageable(channel_of(chat))
