"""A stand-in for the core that answers with prepared instructions and records what
it was asked, for tests of the adapter's own rules."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection

from bot.model.contract import ChatRef, Inbound, Outbound
from bot.table.redraw import Drawn


class ScriptedCore:
    def __init__(self, answer: Callable[[Inbound], list[Outbound]] | None = None) -> None:
        self.inbounds: list[Inbound] = []
        self.answer = answer or (lambda inbound: [])
        self.ticks: list[list[Outbound]] = []
        self.delay = 0.0  # seconds the core takes to answer
        self.drawn: Drawn | None = None  # what the store holds, as redrawn

    async def handle(self, inbound: Inbound) -> list[Outbound]:
        self.inbounds.append(inbound)
        if self.delay:
            await asyncio.sleep(self.delay)
        return self.answer(inbound)

    async def tick(self, platform: str) -> list[Outbound]:
        assert platform == "dc"
        return self.ticks.pop(0) if self.ticks else []

    def tables_on_demand(self, platform: str) -> None:
        assert platform == "dc"

    async def redraw(self, chat: ChatRef, slot_keys: Collection[str] = ()) -> Drawn | None:
        return self.drawn
