"""Deals' end pictures, and the pictures a player asks for, are drawn beside the event
loop: in worker processes, the same bytes as in the bot's own, and no process left
behind."""

from __future__ import annotations

import pytest

from bot.model.contract import Notice, Outbound, Response, SlotKind, UserRef
from bot.model.decision import Game
from bot.picture.samples import gallery
from bot.picture.screens import TableOrder, draw_table
from bot.storage.store import Store
from bot.table.painter import Painter
from bot.table.updates import deal_end_picture
from bot.views.i18n import translator
from engine import DOUBLE_SIX
from tests.bot.driver import Table, button, deal, make_table, scripted, shows, user
from tests.bot.test_ai_thinker import children

ORDERS = [
    TableOrder(lang, s.table, s.names, s.status, s.revealed)
    for s in gallery()[:3]
    for lang in ("en", "ru")
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
    async with Painter(1) as painter:
        table = make_table(fake_store, painter=painter)
        out = await _first_deal_played(table)
    [notice] = [o for o in out if isinstance(o, Notice)]
    doc, state = await table.doc(), await table.state()
    assert doc is not None and state is not None and state.deal_over
    assert notice.screen.picture is not None
    assert notice.screen == deal_end_picture(Game(doc, state, 0))


ANNA, BORIS = user(1, "Anna"), user(2, "Boris")


async def _short_deal_dealt(table: Table) -> tuple[UserRef, UserRef]:
    """A short deal of Tyaga dealt to Anna and Boris, their hands open: the two."""
    short = deal(DOUBLE_SIX, "6-6 6-5 5-5", "6-4 4-4 4-3", leader=0)
    await scripted(table, "tyaga", [ANNA, BORIS], short, options={"hand_size": 3})
    await table.open_hands(ANNA, BORIS)
    return ANNA, BORIS


async def _first_deal_played(table: Table) -> list[Outbound]:
    """The short deal played to its end: what its last press sent."""
    anna, boris = await _short_deal_dealt(table)
    for who, label in [(anna, "[6|6]"), (boris, "◀ [6|4]"), (anna, "[6|5] ▶")]:
        await table.press(who, button(table.hand(who), label).payload)
    await table.press(boris, button(table.hand(boris), "◀ [4|4]").payload)
    out = await table.press(anna, button(table.hand(anna), "[5|5]").payload)
    state = await table.state()
    assert state is not None and state.deal_over
    return out


async def test_a_deals_end_is_drawn_once_where_its_picture_is_sent(store: Store) -> None:
    painter = Painter(0)
    out = await _first_deal_played(make_table(store, painter=painter))
    assert painter.asked == 1
    assert [o.screen.picture for o in out if isinstance(o, Notice)] != [None]


async def test_a_deals_end_is_not_drawn_for_a_platform_that_sends_no_picture_of_it(
    store: Store,
) -> None:
    painter = Painter(0)
    table = make_table(store, painter=painter)
    table.sessions.no_deal_pictures(table.chat.platform)  # as the terminal's adapter does
    out = await _first_deal_played(table)
    assert painter.asked == 0
    assert not [o for o in out if isinstance(o, Notice)]  # nor drawn in the loop instead
    [shown] = shows(out, SlotKind.TABLE)  # the table tells the deal's end
    assert "\u2068Anna\u2069 went out." in shown.screen.plain_text()


async def test_a_picture_asked_for_is_drawn_by_the_painter_once_a_version_and_asker(
    fake_store: Store,
) -> None:
    painter = Painter(0)
    table = make_table(fake_store, painter=painter)
    anna, boris = await _short_deal_dealt(table)
    await table.press(anna, button(table.hand(anna), "[6|6]").payload)
    picture = button(table.table(), "Picture").payload
    for _ in range(10):  # pressed again and again: one picture of this version
        await table.press(boris, picture)
    await table.command(boris, "table")
    assert painter.asked == 1
    out = await table.command(anna, "table")
    assert painter.asked == 2
    [sent] = [o for o in out if isinstance(o, Response)]
    state, doc = await table.state(), await table.doc()
    assert state is not None and doc is not None
    assert sent.screen == await Painter(0).table(translator("en"), doc, state)


async def test_a_chats_picture_of_every_move_is_drawn_by_the_painter(fake_store: Store) -> None:
    painter = Painter(0)
    table = make_table(fake_store, painter=painter)
    anna, boris = await _short_deal_dealt(table)
    await table.command(anna, "settings", "pictures=on", admin=True)
    asked = painter.asked
    for who, label in [(anna, "[6|6]"), (boris, "◀ [6|4]")]:
        out = await table.press(who, button(table.hand(who), label).payload)
        [picture] = shows(out, SlotKind.PICTURE)
        state, doc = await table.state(), await table.doc()
        assert state is not None and doc is not None
        assert picture.screen == await Painter(0).table(translator("en"), doc, state)
    assert painter.asked == asked + 2
