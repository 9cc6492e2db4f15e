"""The terminal table on a fakeredis store, with a clock the table's waits move."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import fakeredis
import pytest

from bot.storage.store import Store
from tests.adapters.console.terminal import Clock, Terminal


@pytest.fixture
async def store() -> AsyncIterator[Store]:
    store = Store(fakeredis.FakeAsyncRedis(server=fakeredis.FakeServer(), decode_responses=True))
    try:
        yield store
    finally:
        await store.close()


@pytest.fixture
def terminal(store: Store, tmp_path: Path) -> Terminal:
    return Terminal(store, Clock(), tmp_path)
