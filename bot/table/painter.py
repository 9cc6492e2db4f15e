"""Deals' end pictures, drawn off the event loop.

A deal's end is drawn once, as its own message in the chat, and takes some
one to two milliseconds of Pillow (``bench/bench_pictures.py``), most of it
holding the interpreter's lock: drawn in a thread of the bot's process, it
took the event loop's place, a quarter of the processor time of a move in
``bench/bench_core.py``. A :class:`Painter` with workers draws in processes of
its own (see :mod:`bot.ai.workers`), which a second core runs beside the loop;
with none, it draws in one thread of this process, which tests and the
terminal table use. The loop words the picture (:class:`TableOrder`) and the
worker only draws it, so a picture is the same wherever it is drawn.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Self

import engine
from bot.ai.workers import Pooled, end_with_the_bot, spawned_pool
from bot.model.contract import Screen
from bot.model.gamedoc import GameDoc
from bot.model.table import TableView, table_view
from bot.picture import learnt_palette
from bot.picture.screens import (
    TableOrder,
    draw_table,
    picture_caption,
    revealed_hands,
    table_order,
)
from bot.views.i18n import Translator
from engine import State


def _ready() -> None:
    """A worker learns the pictures' palette (some 200 ms, drawing the sample tables,
    which also readies the tiles pictures paste) before its first picture is asked."""
    end_with_the_bot()
    learnt_palette()


class Painter(Pooled):
    """Draws table pictures in ``workers`` processes (none: in a thread of this one)."""

    def __init__(self, workers: int = 0) -> None:
        if workers < 0:
            raise ValueError(f"workers must be 0 or more, not {workers}")
        self.workers = workers
        self.asked = 0  # pictures asked of it since it was made

    def start(self) -> None:
        """Start the workers now, so that the first deal's end is not kept waiting
        while they start (they are started on the first picture otherwise)."""
        if self._pool is None:
            if self.workers == 0:
                self._pool = ThreadPoolExecutor(1, thread_name_prefix="painter")
            else:
                self._pool = spawned_pool(self.workers, _ready)
                self._pool.submit(int)  # spawns them and sets them up, without waiting

    async def draw(self, order: TableOrder) -> bytes:
        """The picture ``order`` describes, as PNG bytes."""
        self.asked += 1
        self.start()
        assert self._pool is not None
        return await asyncio.get_running_loop().run_in_executor(self._pool, draw_table, order)

    async def table(
        self,
        translator: Translator,
        doc: GameDoc,
        state: State[Any],
        table: TableView | None = None,
    ) -> Screen:
        """The table of ``doc`` as it stands in ``state``, drawn from ``table``, its model
        (built here unless the caller has it), with its caption: what
        :func:`~bot.picture.screens.picture_screen` makes, drawn here."""
        if table is None:
            table = table_view(doc, engine.public_view(state))
        picture = await self.draw(table_order(translator, doc, table, revealed_hands(state)))
        return Screen(picture_caption(translator, doc, table), picture=picture)

    async def __aenter__(self) -> Self:
        self.start()
        return self
