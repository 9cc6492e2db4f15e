"""Each channel's messages go out in order, one at a time, in a task of their own,
so that nothing else waits for them: a hand (an interaction webhook, which Discord
limits apart from the channel) is pushed at once even while the channel's edits are
rate-limited.

While a slot's edit waits, a newer version of the same slot replaces it in the
queue: only the newest is sent, never the versions in between. An edit that Discord
turns down for a while (429 after discord.py's own retries, or a server error) is
tried again, with a growing pause, until it or a newer version of its slot is shown;
one it refuses for good (in the delivery layer's words, :class:`NoPermission` or
:class:`Refused`) is logged, handed to ``refused`` (a missing permission keeps the
newest version of the slot for when it comes back), and the next one runs.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Final

import discord

from adapters.delivery.transport import NoPermission, Refused
from adapters.discord.transport import passing
from bot.model.contract import Delete, Document, Notice, Outbound, Response, Show, SlotKind

log = logging.getLogger(__name__)

# Slots addressed to one player: on Discord, his hand and ping, never channel messages.
_PERSONAL = frozenset({SlotKind.HAND, SlotKind.PING})

FIRST_PAUSE: Final = 0.5  # seconds before the first new try of a refused edit
LONGEST_PAUSE: Final = 10.0  # the pause doubles up to this


Send = Callable[[Outbound], Awaitable[None]]
OnRefused = Callable[[Outbound, NoPermission | Refused], None]


class ChannelQueues:
    """Per channel, the messages still to send and the task that sends them."""

    def __init__(self, send: Send, refused: OnRefused) -> None:
        self._send = send
        self._refused = refused
        self._queues: dict[str, list[Outbound]] = {}
        self._workers: dict[str, asyncio.Task[None]] = {}

    def put(self, channel: str, outbound: Outbound) -> None:
        """Queue ``outbound`` for ``channel``; an edit of a slot already waiting replaces
        the older one where it stands."""
        queue = self._queues.setdefault(channel, [])
        older = _waiting(queue, outbound)
        if older is None:
            queue.append(outbound)
        elif _newer(outbound, older):
            queue[queue.index(older)] = outbound
        if channel not in self._workers:
            self._workers[channel] = asyncio.create_task(self._send_queued(channel))

    @property
    def busy(self) -> bool:
        return bool(self._workers)

    async def drain(self) -> None:
        """Wait until every channel's queue is sent (tests, shutdown)."""
        while self._workers:
            await asyncio.gather(*list(self._workers.values()), return_exceptions=True)

    async def _send_queued(self, channel: str) -> None:
        queue = self._queues[channel]
        try:
            while queue:
                await self._deliver(queue, queue.pop(0))
        finally:
            del self._workers[channel]
            if not queue:
                self._queues.pop(channel, None)

    async def _deliver(self, queue: list[Outbound], outbound: Outbound) -> None:
        pause = FIRST_PAUSE
        while True:
            try:
                await self._send(outbound)
                return
            except (NoPermission, Refused) as exc:
                log.warning("Discord refused %s: %s", type(outbound).__name__, exc)
                self._refused(outbound, exc)
                return
            except discord.HTTPException as exc:
                if not (isinstance(outbound, Show) and passing(exc)):
                    log.warning("Discord refused %s: %s", type(outbound).__name__, exc)
                    return
                log.info("Discord put off %s (%s); trying again", outbound.slot.key, exc.status)
            except Exception:  # one failure (Redis, a bad screen) must not stop the rest
                log.exception("could not carry out %s", type(outbound).__name__)
                return
            await asyncio.sleep(pause)
            pause = min(pause * 2, LONGEST_PAUSE)
            if _waiting(queue, outbound) is not None:
                return  # a newer version of the slot is next: it is shown instead


def channel_bound(outbound: Outbound) -> str | None:
    """The channel an outbound goes to by the channel's own routes, if it does."""
    if isinstance(outbound, Show | Delete):
        return None if outbound.slot.kind in _PERSONAL else outbound.slot.chat.key
    if isinstance(outbound, Notice | Response | Document):
        return outbound.chat.key
    return None


def _waiting(queue: list[Outbound], outbound: Outbound) -> Show | None:
    """The edit of the same slot already waiting in ``queue``, if ``outbound`` is an
    edit (a table posted anew is a message of its own, never merged)."""
    if not isinstance(outbound, Show) or outbound.renew:
        return None
    for waiting in queue:
        if (
            isinstance(waiting, Show)
            and not waiting.renew
            and waiting.slot.key == outbound.slot.key
        ):
            return waiting
    return None


def _newer(show: Outbound, older: Outbound) -> bool:
    return (
        isinstance(show, Show)
        and isinstance(older, Show)
        and (show.version >= older.version or show.version <= 0)
    )
