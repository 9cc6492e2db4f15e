"""Turn pings held back in a chat's mailbox: a ping is not sent at once but held until it
falls due, and dropped when its player moves first. The deliverer only queues the
holding and the dropping, in the order the core produced them and never behind a chat's
send budget; when a ping falls due, and where it waits meanwhile, is the platform's
ping policy (:class:`PingHolder`, over :mod:`adapters.pings`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.model.contract import Show, Slot


@dataclass(frozen=True, slots=True)
class Hold:
    """A turn ping to hold back until ``due`` instead of sending it."""

    ping: Show
    due: float


@dataclass(frozen=True, slots=True)
class Drop:
    """The ping held for ``slot``, if any, is not to be sent: its player has moved."""

    slot: Slot


class PingHolder(Protocol):
    """A platform's held turn pings."""

    def hold_of(self, ping: Show, now: float) -> Hold:
        """How long ``ping`` (a turn ping, naming its player) is held from ``now``."""
        ...

    async def carry(self, item: Hold | Drop) -> None:
        """Hold the ping, or drop the one held for the slot."""
        ...

    async def release(self, now: float) -> list[Show]:
        """The held pings due by ``now`` that this process won, to be sent."""
        ...
