"""The store's client for a Redis Cluster: redis-py's asyncio cluster client, made to wait
for a connection as the single-server pool does and not to cut connections in use.

Written around redis-py 8.1's ``RedisCluster`` for two things it does under load. A node
whose pool holds ``max_connections`` refuses the next command (``MaxConnectionsError``)
instead of waiting for one. And a pipeline that meets a connection error (that refusal
included) calls ``aclose()`` before it retries, as a command does on ``CLUSTERDOWN`` or
after some ``MOVED`` replies: that disconnects every connection of the client, those
other tasks are in the middle of using too. They fail with ``'NoneType' object has no
attribute 'writelines'`` or a lost connection, some after the server ran their command.

So here every command and pipeline takes one of ``permits`` places first (fewer than a
node's connections: one operation holds at most one connection of each node), and an
``aclose()`` the client calls on itself from inside an operation disconnects only the
idle connections; the busy ones are marked to reconnect when they are given back, and
the cluster's layout is read again before the next command, as redis-py means it to.
``aclose()`` called from outside any operation closes the client as usual.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import Any

from redis.asyncio.cluster import ClusterPipeline, RedisCluster

_INSIDE: ContextVar[bool] = ContextVar("inside_cluster_operation", default=False)
"""Whether this task runs within an operation that holds a place already (the library
calls its own commands and ``aclose()`` from inside one)."""


class WaitingCluster(RedisCluster):
    """A cluster client whose operations queue for one of ``permits`` places."""

    def __init__(self, *args: Any, permits: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._permits = asyncio.Semaphore(permits)

    @asynccontextmanager
    async def operation(self) -> AsyncIterator[None]:
        """Hold a place for one command or pipeline (at once if this task holds one)."""
        if _INSIDE.get():
            yield
            return
        async with self._permits:
            token = _INSIDE.set(True)
            try:
                yield
            finally:
                _INSIDE.reset(token)

    async def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        async with self.operation():
            return await super().execute_command(*args, **kwargs)

    def pipeline(
        self, transaction: Any | None = None, shard_hint: Any | None = None
    ) -> ClusterPipeline:
        super().pipeline(transaction, shard_hint)  # refuses what a cluster cannot do
        # redis-py builds its own ClusterPipeline the same way; its stubs call it abstract.
        return _WaitingPipeline(self, transaction)  # type: ignore[abstract]

    async def aclose(self) -> None:
        if not _INSIDE.get():
            await super().aclose()
            return
        self._initialize = True
        for node in self.get_nodes():
            node.update_active_connections_for_reconnect()
            await node.disconnect_free_connections()


class _WaitingPipeline(ClusterPipeline):
    async def execute(self, raise_on_error: bool = True, allow_redirections: bool = True) -> Any:
        client = self.cluster_client
        assert isinstance(client, WaitingCluster)
        async with client.operation():
            return await super().execute(raise_on_error, allow_redirections)
