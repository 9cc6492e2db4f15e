"""What the delivery layer asks of a chat platform: its :class:`Transport`, and the
refusals it reports in words every platform shares.

The deliverer (:mod:`adapters.delivery.deliver`) hands a transport each instruction in
its turn of the send budget, with the :class:`.limiter.SendTurns` any further write of
it waits for. The transport shows a slot's screen (claiming the slot's version in the
shared slot book, editing its message or sending a new one), deletes one, and sends a
one-off message or file. What a platform answers is folded into what it means for the
slot where the platform says it ("not modified" counts as shown, a message that is gone
is sent again, a "retry after N seconds" is waited out before the same write); what the
deliverer must act on reaches it as one of the errors below.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

from adapters.delivery.limiter import Budget, SendTurns
from adapters.delivery.outbox import Once
from bot.model.contract import Answer, ChatRef, Delete, Show, UserRef
from bot.storage.connect import REDIS_ERRORS

STORE_DOWN = REDIS_ERRORS  # what the slot book and the other records raise when Redis is down

# Told that a one-off message has gone out, before the transport does anything more: the
# deliverer strikes it off its outbox there, so no later step can leave it to be sent again.
Sent = Callable[[], Awaitable[None]] | None


class ChatUnreachable(Exception):
    """The platform will not let the bot write to a person's chat (never opened, or the
    bot blocked): the core is told, and what else waits for that chat is dropped."""


class NoPermission(Exception):
    """The platform refused a write to a group for want of a right (on Telegram, the bot
    is no longer in the group): refused again, the group's game is stopped."""


class Refused(Exception):
    """The platform refused the instruction, or it failed every attempt: drawing it
    again would fail alike, so it is logged and given up."""


class Transport(Protocol):
    """A platform's side of delivery: its calls, and its answers in this layer's words."""

    budget: Budget
    """The platform's send rules, which every write waits for its turn in."""

    newer_queued: Callable[[Show], bool]
    """Set by the deliverer: whether a newer version of a screen waits behind it, so a
    screen held up (a flood wait) is never sent before the newest."""

    def private_chat(self, user: UserRef) -> ChatRef:
        """Where a message for ``user`` alone goes."""
        ...

    async def answer(self, query_id: str, answer: Answer) -> None:
        """Answer a button press at once (it costs no send budget); never raises."""
        ...

    async def show(self, show: Show, turns: SendTurns) -> None:
        """Show the slot's screen unless a newer version of it is shown: edit the slot's
        message in place, or send a new one and record it in the slot book."""
        ...

    async def delete(self, delete: Delete, turns: SendTurns) -> None:
        """Delete the slot's message (as of the deletion's version, when it has one)."""
        ...

    async def send_once(self, item: Once, turns: SendTurns, sent: Sent) -> None:
        """Send a one-off message or file; ``sent`` is awaited as soon as it has gone."""
        ...
