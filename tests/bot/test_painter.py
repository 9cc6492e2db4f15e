"""Deals' end pictures are drawn beside the event loop: in worker processes, the same
bytes as in the bot's own, and no process left behind."""

from __future__ import annotations

import pytest

from bot.model.contract import Notice
from bot.model.decision import Game
from bot.picture.samples import gallery
from bot.picture.screens import TableOrder, draw_table
from bot.storage.store import Store
from bot.table.painter import Painter
from bot.table.updates import deal_end_picture
from engine import DOUBLE_SIX
from tests.bot.driver import button, deal, make_table, scripted, user
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


async def test_a_deals_end_drawn_by_a_worker_reaches_the_chat_as_the_bot_would_draw_it(
    fake_store: Store,
) -> None:
    anna, boris = user(1, "Anna"), user(2, "Boris")
    short = deal(DOUBLE_SIX, "6-6 6-5 5-5", "6-4 4-4 4-3", leader=0)
    async with Painter(1) as painter:
        table = make_table(fake_store, painter=painter)
        await scripted(table, "tyaga", [anna, boris], short, options={"hand_size": 3})
        await table.open_hands(anna, boris)
        for who, label in [(anna, "[6|6]"), (boris, "◀ [6|4]"), (anna, "[6|5] ▶")]:
            await table.press(who, button(table.hand(who), label).payload)
        await table.press(boris, button(table.hand(boris), "◀ [4|4]").payload)
        out = await table.press(anna, button(table.hand(anna), "[5|5]").payload)
    [notice] = [o for o in out if isinstance(o, Notice)]
    doc, state = await table.doc(), await table.state()
    assert doc is not None and state is not None and state.deal_over
    assert notice.screen.picture is not None
    assert notice.screen == deal_end_picture(Game(doc, state, 0))
