"""How a queued message is written as data, where Telegram's held pings read it from
(:mod:`.heldpings` keeps each ping whole this way): the outbox itself is the delivery
layer's, :mod:`adapters.delivery.outbox`."""

from __future__ import annotations

from adapters.delivery.outbox import decode, encode

__all__ = ["decode", "encode"]
