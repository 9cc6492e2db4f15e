"""Telegram's held turn pings (:class:`.heldpings.TelegramPings`) as the delivery layer
holds them (:class:`adapters.delivery.holding.PingHolder`): the same holds and drops,
in the shared layer's words."""

from __future__ import annotations

from adapters.delivery.holding import Drop, Hold
from adapters.telegram import heldpings
from adapters.telegram.heldpings import TelegramPings
from bot.model.contract import Show


class TelegramPingHolder:
    def __init__(self, pings: TelegramPings) -> None:
        self.pings = pings

    def hold_of(self, ping: Show, now: float) -> Hold:
        held = self.pings.hold_of(ping, now)
        return Hold(held.ping, held.due)

    async def carry(self, item: Hold | Drop) -> None:
        if isinstance(item, Drop):
            await self.pings.carry(heldpings.Drop(item.slot))
        else:
            await self.pings.carry(heldpings.Hold(item.ping, item.due))

    async def release(self, now: float) -> list[Show]:
        return await self.pings.release(now)
