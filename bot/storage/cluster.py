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
``aclose()`` the client calls on itself from inside an operation disconnects none: each
connection is marked to reconnect when it is next taken or given back, by the task that
holds it, and the cluster's layout is read again before the next command, as redis-py
means it to.
``aclose()`` called from outside any operation closes the client as usual.

The library itself still disconnects a node's idle connections when a command on that
node times out or loses its connection, from a task that does not own them: one another
task takes from the pool in between is closed under it while it waits to write, and its
writer is gone (the ``writelines`` error above; a timeout under load is enough). So a
connection here checks its writer once it gets to write, and a closed one raises
``ConnectionError``, which the client retries on a fresh connection and the store reports
as unavailable: nothing was sent, so trying again is safe.

Two of these reach past redis-py's public API, as no public one does the same: the
connection's write (``_send_packed_command`` and its ``_writer``) and a node's idle
connections (``ClusterNode._free``). They were checked against the redis-py versions in
:data:`CHECKED_REDIS_PY`; ``tests/bot/test_store_cluster_internals.py`` fails on any other
version, or where those members are gone, so an upgrade is read against them first.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import Any

from redis.asyncio.cluster import ClusterPipeline, RedisCluster
from redis.asyncio.connection import Connection, SSLConnection
from redis.exceptions import ConnectionError as RedisConnectionError

CHECKED_REDIS_PY = ("8.1", "8.2")
"""The redis-py releases (major.minor) whose private members this module was read against."""

_INSIDE: ContextVar[bool] = ContextVar("inside_cluster_operation", default=False)
"""Whether this task runs within an operation that holds a place already (the library
calls its own commands and ``aclose()`` from inside one)."""


class _CheckedConnection(Connection):
    """A connection that will not write through a writer another task has closed."""

    async def _send_packed_command(self, command: Iterable[bytes]) -> None:
        # Runs in a task of its own (the write's timeout), after the caller's checks.
        writer = self._writer
        if writer is None or writer.is_closing():
            raise RedisConnectionError("the connection was closed before the command was sent")
        writer.writelines(command)
        await writer.drain()


class _CheckedSSLConnection(_CheckedConnection, SSLConnection):
    """The same over TLS (a ``rediss://`` URL): SSLConnection's own options and
    handshake, the checked write."""


class WaitingCluster(RedisCluster):
    """A cluster client whose operations queue for one of ``permits`` places."""

    def __init__(self, *args: Any, permits: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._permits = asyncio.Semaphore(permits)
        # The client fixes its nodes' connection class; the nodes it finds later take
        # theirs from these arguments, the ones it starts from were made already. Over
        # TLS the class must take the TLS options the client passes each connection.
        given = self.connection_kwargs.get("connection_class", Connection)
        checked = _CheckedSSLConnection if issubclass(given, SSLConnection) else _CheckedConnection
        self.connection_kwargs["connection_class"] = checked
        for node in self.nodes_manager.startup_nodes.values():
            node.connection_class = checked

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
        # Every connection is disconnected by the task that takes it next, never under
        # another: disconnecting the idle ones here raced with tasks taking them meanwhile.
        self._initialize = True
        for node in self.get_nodes():
            node.update_active_connections_for_reconnect()
            for connection in node._free:
                connection.mark_for_reconnect()  # type: ignore[no-untyped-call]


class _WaitingPipeline(ClusterPipeline):
    async def execute(self, raise_on_error: bool = True, allow_redirections: bool = True) -> Any:
        client = self.cluster_client
        assert isinstance(client, WaitingCluster)
        async with client.operation():
            return await super().execute(raise_on_error, allow_redirections)
