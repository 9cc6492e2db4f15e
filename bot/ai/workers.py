"""Worker processes that serve the bot's event loop: computers' searches
(:mod:`bot.ai.thinker`) and deals' end pictures (:mod:`bot.table.painter`).

They run in the standard library's ``ProcessPoolExecutor``: the work is pure
processor time in Python or Pillow, which a thread would run under the event
loop's lock. Workers are spawned, not forked (a fork would copy the event loop's
threads and sockets), and each ends with the bot that started it: a bot killed
outright (SIGKILL) has no chance to stop its pool, whose workers would otherwise
wait for work for ever. Workers ignore SIGINT: Ctrl-C at a terminal reaches every
process of its group, and it is the bot's to stop them, not theirs to die of it
(each with a traceback of its own).

A pool that serves a full-screen terminal is started before the screen is taken
(its owner's ``start``): the first spawned process also starts the standard
library's resource tracker, which is handed the process's standard error, and a
screen that captures standard error leaves it none to hand.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Self

BOT_LOOK_SECONDS = 1.0  # how often a worker looks whether the bot that started it is gone


def spawned_pool(workers: int, initializer: Callable[[], None]) -> ProcessPoolExecutor:
    """``workers`` spawned processes, each set up by ``initializer`` (which is to call
    :func:`end_with_the_bot`)."""
    context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(
        workers, mp_context=context, initializer=_set_up, initargs=(initializer,)
    )


def _set_up(initializer: Callable[[], None]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the bot stops its workers
    initializer()


def spawn_all(pool: ProcessPoolExecutor, workers: int) -> None:
    """Have every worker of ``pool`` spawned now (a pool spawns them as work comes)."""
    for _ in range(workers):
        pool.submit(int)


def end_with_the_bot() -> None:
    """In a worker: exit once the process that started it is gone."""
    bot = os.getppid()
    threading.Thread(target=_end_with, args=(bot,), name="end with the bot", daemon=True).start()


def _end_with(bot: int) -> None:
    while os.getppid() == bot:  # a worker whose bot is gone is handed to another parent
        time.sleep(BOT_LOOK_SECONDS)
    os._exit(0)


class Pooled:
    """Owns a pool of workers (``_pool``, started by the subclass), stopped when its
    ``async with`` ends or :meth:`close` is called."""

    _pool: Executor | None = None

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await asyncio.to_thread(self.close)

    def close(self) -> None:
        """Stop the workers (waiting for them to exit)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
