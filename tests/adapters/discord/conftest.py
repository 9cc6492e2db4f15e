"""Fixtures for the Discord adapter: the fake API on loopback with discord.py's REST
base pointed at it, and a real Redis (the core tests' fixtures, imported)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import discord
import pytest
import redis.asyncio as aredis

from bot.storage.store import Store
from tests.adapters.discord.fake_api import FakeDiscord
from tests.adapters.discord.gateway import Person
from tests.adapters.discord.harness import Bot
from tests.bot.conftest import redis_client, redis_url  # noqa: F401  (shared fixtures)

ALICE = Person(5_100_000_000_000_000_001, "Alice", admin=True)
BOB = Person(5_100_000_000_000_000_002, "Bob")
CAROL = Person(5_100_000_000_000_000_003, "Carol")


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    # Every REST call discord.py makes (webhooks included) is built on this base.
    monkeypatch.setattr(discord.http.Route, "BASE", server.base_url)
    try:
        yield server
    finally:
        await server.close()


@pytest.fixture
async def store(redis_client: aredis.Redis) -> Store:  # noqa: F811
    return Store(redis_client)


@pytest.fixture
async def bot(fake: FakeDiscord, redis_client: aredis.Redis) -> AsyncIterator[Bot]:  # noqa: F811
    """A bot process on the real core (tests of the adapter's own rules override it)."""
    from tests.adapters.discord.matches import boot_bot  # it imports the people above

    running = await boot_bot(fake, redis_client)
    try:
        yield running
    finally:
        await running.close()
