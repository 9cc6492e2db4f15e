"""What the delivery layer asks of a chat platform: its :class:`Transport`, the
:class:`Messages` it shows slots through, and its answers in words every platform shares.

The deliverer (:mod:`adapters.delivery.deliver`) hands a transport each instruction in
its turn of the send budget, with the :class:`.limiter.SendTurns` any further write of
it waits for. The transport shows a slot's screen or deletes it (a platform's
:class:`.showing.SlotShower` over its :class:`Messages` claims the slot's version in the
shared slot book, edits the message or sends a new one), and sends a one-off message or
file. A platform's edit answers :class:`Edited` ("not modified" is done, a message that
is gone is sent again); a "retry after N seconds" is waited out by the platform's calls
before the same write, holding on (:attr:`Messages.hold_on`) first; what the deliverer
must act on reaches it as one of the errors below.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from adapters.delivery.limiter import Budget, SendTurns
from adapters.delivery.outbox import Once
from bot.model.contract import Answer, ChatRef, Delete, Screen, Show, UserRef
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


class Edited(Enum):
    """What an edit of a slot's message came to."""

    DONE = "done"  # edited, or the platform said it shows that already ("not modified")
    GONE = "gone"  # the message is gone (deleted, or too old to edit): sent anew
    OTHER_KIND = "other kind"  # a picture cannot become text by an edit, nor text a picture


@dataclass(frozen=True, slots=True)
class NewMessage:
    """A message to send: ``screen`` in ``chat``, notifying its members or not, in reply to
    the message ``reply_to``; a picture the platform sends as a message of its own above
    the text is told to ``on_picture`` first."""

    chat: ChatRef
    screen: Screen
    notify: bool = False
    reply_to: int | None = None
    on_picture: Callable[[int], Awaitable[None]] | None = None


class Messages(Protocol):
    """A platform's messages, as slots are shown through them; each write waits for its
    turn in ``turns``, and raises :class:`ChatUnreachable`, :class:`NoPermission` or
    :class:`Refused` when the platform refuses it."""

    hold_on: Callable[[], Awaitable[None]]
    """Set by the slot shower: awaited before each attempt of a write (after a "retry
    after" waited out), which raises if the screen is no longer the newest."""

    async def send(self, message: NewMessage, turns: SendTurns) -> int:
        """Send the message, its id returned."""
        ...

    async def edit(
        self, chat: ChatRef, message_id: int, screen: Screen, turns: SendTurns
    ) -> Edited:
        """Edit the message to show ``screen``."""
        ...

    async def delete_message(self, chat: ChatRef, message_id: int, turns: SendTurns) -> bool:
        """Delete the message; False when the platform would not (already deleted, or too
        old for a bot to delete): either way it is not the slot's to show any more."""
        ...

    async def pin(
        self, chat: ChatRef, message_id: int, turns: SendTurns, gone: int | None = None
    ) -> None:
        """Pin the message, unpinning the one pinned before unless that one was ``gone``."""
        ...


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
