"""An in-memory stand-in for the store's side of delivery, for scripted tests."""

from __future__ import annotations


class MemoryLedger:
    def __init__(self) -> None:
        self.shown: dict[str, int] = {}

    async def mark_shown(self, slot_key: str, version: int) -> bool:
        if version <= self.shown.get(slot_key, -1):
            return False
        self.shown[slot_key] = version
        return True
