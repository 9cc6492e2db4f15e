"""The cluster client reaches into redis-py where no public API serves (bot/storage/cluster.py
says where and why): these fail on a redis-py it was not read against, or one without the
members it uses, so an upgrade cannot change them unnoticed."""

from __future__ import annotations

import inspect

import redis
from redis.asyncio.cluster import ClusterNode
from redis.asyncio.connection import Connection

from bot.storage.cluster import CHECKED_REDIS_PY


def test_redis_py_is_a_release_the_cluster_client_was_read_against() -> None:
    major_minor = ".".join(redis.__version__.split(".")[:2])
    assert major_minor in CHECKED_REDIS_PY, (
        f"redis-py {redis.__version__}: read bot/storage/cluster.py's uses of its private "
        f"members against it, then add {major_minor} to CHECKED_REDIS_PY"
    )


def test_the_private_members_the_cluster_client_uses_are_there() -> None:
    write = inspect.signature(Connection._send_packed_command)
    assert list(write.parameters) == ["self", "command"]
    connection = Connection(host="127.0.0.1", port=1)  # not connected
    assert connection._writer is None
    node = ClusterNode("127.0.0.1", 1)
    assert list(node._free) == []
