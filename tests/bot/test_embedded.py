"""The embedded Redis: started when no REDIS_URL is set, persisted in the data directory."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
import redis

from bot.app.embedded_redis import EmbeddedRedis, EmbeddedRedisError, redis_url_or_embedded
from bot.views.i18n import translator

pytestmark = pytest.mark.redis


def client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, decode_responses=True)


def test_the_server_answers_on_a_unix_socket_in_the_data_directory(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path) as server:
        assert server.url == f"unix://{tmp_path.resolve()}/redis.sock"
        assert client(server.url).ping()


def test_data_survives_stopping_and_starting_the_server_on_the_same_directory(
    tmp_path: Path,
) -> None:
    with EmbeddedRedis(tmp_path) as server:
        client(server.url).hset("dom:{tg:1}:game", mapping={"v": "3", "doc": "{}"})
    assert (tmp_path / "domino.aof").exists()
    with EmbeddedRedis(tmp_path) as server:
        assert client(server.url).hgetall("dom:{tg:1}:game") == {"v": "3", "doc": "{}"}


def test_a_server_without_persistence_keeps_nothing(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path, persist=False) as server:
        client(server.url).set("k", "v")
    with EmbeddedRedis(tmp_path, persist=False) as server:
        assert client(server.url).get("k") is None


def test_a_server_already_serving_the_directory_is_used_and_left_running(
    tmp_path: Path,
) -> None:
    with EmbeddedRedis(tmp_path) as first:
        client(first.url).set("k", "v")
        second = EmbeddedRedis(tmp_path)
        assert second.start() == first.url
        second.stop()
        assert client(first.url).get("k") == "v"


def test_a_stale_socket_file_does_not_stop_a_start(tmp_path: Path) -> None:
    (tmp_path / "redis.sock").write_text("")
    with EmbeddedRedis(tmp_path) as server:
        assert client(server.url).ping()


def test_a_data_directory_with_a_long_path_gets_its_socket_elsewhere(tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    with EmbeddedRedis(deep) as server:
        assert not server.socket.is_relative_to(deep)
        assert client(server.url).ping()
        assert server.data_file.parent == deep.resolve()


def test_with_no_redis_url_an_embedded_server_is_started_and_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.app.embedded_redis")
    url, server = redis_url_or_embedded(None, tmp_path / "data")
    try:
        assert server is not None and url == server.url
        assert client(url).ping()
        expected = f"no REDIS_URL: using an embedded Redis at {tmp_path / 'data' / 'domino.aof'}"
        assert expected in caplog.messages
    finally:
        assert server is not None
        server.stop()


def test_a_configured_redis_url_is_used_as_it_is(tmp_path: Path) -> None:
    assert redis_url_or_embedded("redis://db:6379/2", tmp_path) == ("redis://db:6379/2", None)
    assert not any(tmp_path.iterdir())


def test_a_server_that_cannot_start_is_reported_with_its_log_in_the_operators_language(
    tmp_path: Path,
) -> None:
    (tmp_path / "domino.aof").write_text("*this is not an append-only file\r\n")
    with pytest.raises(EmbeddedRedisError) as raised:
        EmbeddedRedis(tmp_path).start()
    told = raised.value.told(translator("ru"))
    assert told.startswith(f"встроенный Redis в {tmp_path.resolve()} не запустился:\n")
    assert "append only file" in told.lower()  # the server's own words follow
    assert str(raised.value).startswith(f"the embedded Redis in {tmp_path.resolve()} did not")
