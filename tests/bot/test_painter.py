"""Deals' end pictures are drawn beside the event loop: in worker processes, the same
bytes as in the bot's own, and no process left behind."""

from __future__ import annotations

import pytest

from bot.painter import Painter
from bot.picture.samples import gallery
from bot.picture.screens import TableOrder, draw_table
from tests.bot.test_ai_thinker import children

ORDERS = [
    TableOrder(lang, s.view, s.names, s.status) for s in gallery()[:3] for lang in ("en", "ru")
]


async def test_a_worker_draws_what_the_bot_would_and_leaves_no_process() -> None:
    before = children()
    async with Painter(1) as painter:
        drawn = [await painter.draw(order) for order in ORDERS]
        assert len(children() - before) == 1
    assert drawn == [draw_table(order) for order in ORDERS]
    assert len(set(drawn)) == len(ORDERS)  # each order its own picture
    assert children() == before


async def test_a_painter_with_no_workers_draws_in_a_thread_of_the_bot() -> None:
    before = children()
    async with Painter(0) as painter:
        assert await painter.draw(ORDERS[0]) == draw_table(ORDERS[0])
        assert children() == before
    with pytest.raises(ValueError, match="workers"):
        Painter(-1)
