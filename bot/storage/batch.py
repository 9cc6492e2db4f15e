"""Writes of different games made in the same turn of the event loop go to Redis together,
in one pipeline.

Most of what a game's write costs this process is redis-py's work for a call (a connection
from the pool, the send, the wait for the reply, giving the connection back), not the
write's own commands; a pipeline pays that once for every write in it. Presses of many
games come in together when the process is busy, and their writes then share a round trip.
A write made alone waits only for the end of the turn it was made in.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import redis.asyncio as aredis
from redis.asyncio.client import Pipeline

Queue = Callable[[Pipeline], None]
"""Adds one caller's commands to the shared pipeline."""


class Batch:
    """Sends the commands callers queue in one turn of the event loop as one pipeline."""

    def __init__(self, redis: aredis.Redis) -> None:
        self._redis = redis
        self._waiting: list[tuple[Queue, asyncio.Future[list[Any]]]] = []
        self._sending: set[asyncio.Task[None]] = set()  # the loop holds tasks weakly

    async def send(self, queue: Queue) -> list[Any]:
        """The replies to the commands ``queue`` adds, in their order; a command that
        failed has its exception as its reply. A failure of the whole pipeline (a lost
        connection) is raised to every caller in it."""
        done: asyncio.Future[list[Any]] = asyncio.get_running_loop().create_future()
        self._waiting.append((queue, done))
        if len(self._waiting) == 1:
            # The task's first step comes after everything already due in this turn, so
            # the writes made until then go with this one.
            task = asyncio.create_task(self._execute())
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)
        return await done

    async def _execute(self) -> None:
        waiting, self._waiting = self._waiting, []
        try:
            async with self._redis.pipeline(transaction=False) as pipe:
                spans = []
                for queue, _done in waiting:
                    start = len(pipe)
                    queue(pipe)
                    spans.append((start, len(pipe)))
                replies = await pipe.execute(raise_on_error=False)
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
