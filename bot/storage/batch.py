"""Writes of different games made in the same turn of the event loop go to Redis together,
in one round trip, on a connection the batch keeps for itself.

Most of what a game's write costs this process is the client's work for a call, not the
write's own commands; a batch pays that once for every write in it. Presses of many games
come in together when the process is busy, and their writes then share a round trip. A
write made alone waits only for the end of the turn it was made in; one made while a batch
is on its way goes with the next, sent as soon as that answer is in.

The batch sends its commands and reads their replies through a redis-py connection of its
own, not through a redis-py pipeline: under callgrind a pipeline of one command cost
389,000 instructions a round trip (a connection from the pool and back, its retry and
observability hooks, the reply callbacks, the ``asyncio.wait_for`` task that bounds each
send) and the connection itself 145,000, with the whole round trip bounded by one
``asyncio.timeout`` instead. It packs the commands with hiredis itself, as redis-py does
with hiredis installed, but without redis-py's look at each argument on the way (a move
with listing hands fell from 3.11 to 3.03 million instructions under callgrind).

What the pool and the pipeline did for a write is done here: a round trip that loses its
connection is tried once more on a fresh one (what a connection needs after the server
restarted), and one that gets no answer within the client's socket timeout gives up
(``redis.exceptions.TimeoutError``), the connection dropped.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import hiredis
import redis.asyncio as aredis
import redis.exceptions
from redis.asyncio.connection import AbstractConnection


class Commands:
    """The commands one caller adds to a batch, in their order."""

    def __init__(self) -> None:
        self.sent: list[tuple[Any, ...]] = []

    def evalsha(self, sha: str, numkeys: int, *keys_and_args: Any) -> None:
        self.sent.append(("EVALSHA", sha, numkeys, *keys_and_args))


Queue = Callable[[Commands], None]
"""Adds one caller's commands to the batch."""

_RETRIED = (redis.exceptions.ConnectionError, OSError)
"""A round trip that fails so, the connection lost, is tried once more on a fresh one."""


class Batch:
    """Sends the commands callers queue in one turn of the event loop as one round trip,
    one round trip at a time."""

    def __init__(self, redis: aredis.Redis) -> None:
        pool = redis.connection_pool
        kwargs = pool.connection_kwargs
        self._timeout: float | None = kwargs.get("socket_timeout")
        # Bounded here, round trip by round trip, not send by send (see the module's doc).
        self._connection: AbstractConnection = pool.connection_class(
            **{**kwargs, "socket_timeout": None}
        )
        self._waiting: list[tuple[Queue, asyncio.Future[list[Any]]]] = []
        self._sender: asyncio.Task[None] | None = None  # the loop holds tasks weakly

    async def send(self, queue: Queue) -> list[Any]:
        """The replies to the commands ``queue`` adds, in their order; a command that
        failed has its exception as its reply. A failure of the whole round trip (a lost
        connection) is raised to every caller in it."""
        done: asyncio.Future[list[Any]] = asyncio.get_running_loop().create_future()
        self._waiting.append((queue, done))
        if self._sender is None:
            # The task's first step comes after everything already due in this turn, so
            # the writes made until then go with this one.
            self._sender = asyncio.create_task(self._send_all())
        return await done

    async def close(self) -> None:
        await self._connection.disconnect()

    async def _send_all(self) -> None:
        try:
            while self._waiting:
                waiting, self._waiting = self._waiting, []
                await self._execute(waiting)
        finally:
            self._sender = None

    async def _execute(self, waiting: list[tuple[Queue, asyncio.Future[list[Any]]]]) -> None:
        commands: list[tuple[Any, ...]] = []
        spans = []
        for queue, _done in waiting:
            added = Commands()
            queue(added)
            spans.append((len(commands), len(commands) + len(added.sent)))
            commands += added.sent
        try:
            try:
                replies = await self._round_trip(commands)
            except _RETRIED:
                replies = await self._round_trip(commands)
        except asyncio.CancelledError:
            for _queue, done in waiting:
                done.cancel()
            raise
        except Exception as exc:
            for _queue, done in waiting:
                if not done.done():
                    done.set_exception(exc)
            return
        for (start, end), (_queue, done) in zip(spans, waiting, strict=True):
            if not done.done():  # its caller may have been cancelled meanwhile
                done.set_result(replies[start:end])

    async def _round_trip(self, commands: list[tuple[Any, ...]]) -> list[Any]:
        """The replies to ``commands``, sent at once; the connection is dropped on any
        failure but a command's own error, so the next round trip starts afresh."""
        connection = self._connection
        replies: list[Any] = []
        try:
            async with asyncio.timeout(self._timeout):
                packed = b"".join(map(hiredis.pack_command, commands))
                await connection.send_packed_command(packed, check_health=False)
                for _command in commands:
                    try:
                        replies.append(await connection.read_response())
                    except redis.exceptions.ResponseError as error:
                        replies.append(error)
        except TimeoutError:
            await connection.disconnect(nowait=True)
            raise redis.exceptions.TimeoutError("no answer from Redis in time") from None
        except BaseException:
            await connection.disconnect(nowait=True)
            raise
        return replies
