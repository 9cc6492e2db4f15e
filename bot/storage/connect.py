"""How the store reaches Redis: a client that waits for a free connection rather than
failing a burst of presses, on one server or a Redis Cluster, and :func:`guarded`,
which turns a lost or refused connection into :class:`StoreUnavailable`
(:func:`unreachable` says which errors are that) and which lets no cancellation be
lost under it. Replies are parsed by hiredis where
it is installed, and from redis-py 8.2 on commands are packed by it too, both chosen by
redis-py itself."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, ParamSpec, TypeVar, cast

import redis.asyncio as aredis
import redis.exceptions
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff

from bot.storage.cluster import WaitingCluster
from bot.storage.values import StoreUnavailable

_P = ParamSpec("_P")
_R = TypeVar("_R")

_UNAVAILABLE = (
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    # A replica promoted during a failover refuses writes until clients reconnect.
    redis.exceptions.ReadOnlyError,
    # A cluster whose master of a slot is down, with no replica taken over yet.
    redis.exceptions.ClusterDownError,
    redis.exceptions.SlotNotCoveredError,
    OSError,
)

REDIS_ERRORS = (redis.exceptions.RedisError, redis.exceptions.RedisClusterException, OSError)
"""Everything a Redis client raises: the cluster client's own errors are no
``RedisError``."""


def unreachable(exc: BaseException) -> bool:
    """Whether ``exc`` says Redis could not be reached or did not answer, rather than that
    it was asked something wrong. The cluster client wraps the connection error of a
    cluster none of whose nodes answers in a ``RedisClusterException`` ("cannot be
    connected"), which it also raises for a command that cannot go to one node."""
    if isinstance(exc, _UNAVAILABLE):
        return True
    cause = exc.__cause__
    if isinstance(exc, redis.exceptions.RedisClusterException) and cause is not None:
        return unreachable(cause)
    return False


def guarded(method: Callable[_P, Awaitable[_R]]) -> Callable[_P, Coroutine[Any, Any, _R]]:
    """``method`` raising :class:`StoreUnavailable` where Redis could not be reached."""

    @functools.wraps(method)
    async def guarded(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        task = asyncio.current_task()
        cancels = task.cancelling() if task is not None else 0
        try:
            result = await method(*args, **kwargs)
        except REDIS_ERRORS as exc:
            if not unreachable(exc):
                raise
            raise StoreUnavailable(str(exc) or type(exc).__name__) from exc
        if task is not None and task.cancelling() > cancels:
            raise asyncio.CancelledError(LOST_CANCEL)
        return result

    return guarded


LOST_CANCEL = "a cancellation redis-py's write dropped"
"""redis-py bounds each command's write with :func:`asyncio.wait_for`, which on Python
3.11 returns the write's result and drops a cancellation that comes as the write ends
(CPython gh-86296, fixed in 3.12): a task cancelled then would go on, and a loop over the
store would never stop. :func:`guarded` sees that the task was asked to stop during the
call and stops it then."""


POOL_SIZE = 64
"""Connections a process keeps to Redis at most. A burst of presses beyond it waits for a
free connection instead of failing."""


def connect(
    url: str, *, timeout: float = 5.0, pool_size: int = POOL_SIZE, cluster: bool = False
) -> aredis.Redis:
    """A client for ``url`` that gives up on a dead server within about ``timeout`` seconds
    (``cluster``: for the Redis Cluster that ``url`` is a node of).

    A failed command is tried once more on a fresh connection, which is what a pooled
    connection needs after the server restarted. Its pool makes a caller wait while all
    ``pool_size`` connections are busy (redis-py's default pool refuses him instead), so
    a burst of presses queues and none fails for it. The wait is not bounded: every
    connection in use is given back within ``timeout`` even when the server is gone.
    """
    if cluster:
        return _cluster(url, timeout, pool_size)
    pool = aredis.BlockingConnectionPool.from_url(
        url,
        max_connections=pool_size,
        timeout=None,
        decode_responses=True,
        socket_timeout=timeout,
        socket_connect_timeout=timeout,
        retry=Retry(ExponentialBackoff(cap=0.2, base=0.05), 1),
    )
    return aredis.Redis.from_pool(pool)


def _cluster(url: str, timeout: float, pool_size: int) -> aredis.Redis:
    # At most ``pool_size`` commands at once, each holding at most one connection of a
    # node: fewer than a node's ``max_connections``, so none is refused for want of one.
    client = WaitingCluster.from_url(
        url,
        permits=pool_size,
        max_connections=pool_size + 16,
        decode_responses=True,
        socket_timeout=timeout,
        socket_connect_timeout=timeout,
        retry=Retry(ExponentialBackoff(cap=0.2, base=0.05), 1),
    )
    # The cluster client takes the same commands for keys in one hash slot, which is all
    # the store and the adapters send it (every script and pipeline stays in a chat's slot
    # or a timer bucket's); it is not a subclass of the plain client, hence the cast.
    return cast(aredis.Redis, client)
