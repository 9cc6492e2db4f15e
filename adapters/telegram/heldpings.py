"""Telegram's turn pings held back in Redis, by the policy both platforms follow (see
:mod:`adapters.pings`: when a ping falls due, and its deletion once its player has
moved): a ping is kept whole (as :mod:`adapters.delivery.outbox` writes a queued message)
in its bucket, so that any worker drops it when his move comes, and any sends it when it
falls due. It is the delivery layer's :class:`adapters.delivery.holding.PingHolder` for
Telegram."""

from __future__ import annotations

import logging
from typing import Any

from adapters.delivery.holding import Drop, Hold
from adapters.delivery.outbox import decode, encode
from adapters.pings import HeldPing, HeldPings, falls_due
from adapters.telegram.conversion import PLATFORM
from bot.model.contract import Show
from bot.storage.connect import REDIS_ERRORS

log = logging.getLogger(__name__)


class TelegramPings:
    """Held turn pings of Telegram chats, in Redis."""

    def __init__(self, redis: Any) -> None:
        self._held = HeldPings(redis, PLATFORM)

    @staticmethod
    def hold_of(ping: Show, now: float) -> Hold:
        """How long ``ping`` (a turn ping, naming its player) is held from ``now``."""
        return Hold(ping, falls_due(ping, now))

    async def carry(self, item: Hold | Drop) -> None:
        if isinstance(item, Drop):
            await self._held.drop(item.slot.chat, item.slot.key)
            return
        slot = item.ping.slot
        assert slot.user is not None
        await self._held.hold(
            HeldPing(slot.chat, slot.key, slot.user.user_id, encode(item.ping)), item.due
        )

    async def release(self, now: float) -> list[Show]:
        """The held pings to send now (:meth:`claim_due`); none while the store is down."""
        try:
            return await self.claim_due(now)
        except REDIS_ERRORS as err:
            log.warning("cannot send the held pings while the store is down (%s)", err)
            return []

    async def claim_due(self, now: float) -> list[Show]:
        """The held pings due by ``now`` that this process won, to be sent."""
        due: list[Show] = []
        for held in await self._held.claim_due(now):
            try:
                ping = decode(held.content)
            except Exception as err:
                log.warning(
                    "dropping a held ping of %s that cannot be read: %s", held.chat.key, err
                )
                continue
            if isinstance(ping, Show):
                due.append(ping)
        return due
