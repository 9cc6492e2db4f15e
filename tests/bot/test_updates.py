"""What a write sends: screens are compared with the ones drawn for the version
before, which the runner keeps, instead of being drawn twice."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import pytest

from bot.model.contract import Notice, Outbound, Screen, Show, SlotKind
from bot.model.decision import Decision, Game
from bot.picture import screens
from bot.picture.screens import TableOrder
from bot.storage.store import Store
from bot.table import painter as painter_module
from bot.table import updates as updates_module
from bot.table.updates import ShownScreens, game_updates
from bot.views.i18n import text_line
from engine import DOUBLE_SIX
from tests.bot.driver import button, deal, make_table, scripted, user

ANNA, BORIS = user(1, "Anna"), user(2, "Boris")
SHORT = deal(DOUBLE_SIX, "6-6 6-5 5-5", "6-4 4-4 4-3", leader=0)


async def _running_game(store: Store) -> Game:
    table = make_table(store)
    await table.start_match("baghdad", [ANNA, BORIS])
    doc, state = await table.doc(), await table.state()
    assert doc is not None and state is not None
    return Game(doc, state, 5)


def _tables(out: Sequence[Outbound]) -> list[Show]:
    return [o for o in out if isinstance(o, Show) and o.slot.kind is SlotKind.TABLE]


async def test_a_table_that_did_not_change_is_not_sent(fake_store: Store) -> None:
    before = await _running_game(fake_store)
    after = Game(before.doc, before.state, before.version + 1)
    assert _tables(game_updates(before, after, Decision(doc=after.doc))) == []


async def test_the_table_drawn_for_the_version_before_is_the_one_compared(
    fake_store: Store,
) -> None:
    before = await _running_game(fake_store)
    after = Game(before.doc, before.state, before.version + 1)
    shown = ShownScreens()
    shown.put(before, None, Screen((text_line("an older table"),)))
    [sent] = _tables(game_updates(before, after, Decision(doc=after.doc), shown))
    assert sent.screen == shown.get(after, None)
    assert sent.screen.plain_text() != "an older table"


async def test_a_hand_drawn_for_the_version_before_is_the_one_compared(
    fake_store: Store,
) -> None:
    before = await _running_game(fake_store)
    after = Game(before.doc, before.state, before.version + 1)
    shown = ShownScreens()
    assert game_updates(before, after, Decision(doc=after.doc), shown) == []
    assert before.state is not None and before.state.turn is not None
    mover = before.state.turn  # the seat whose hand shows its choices: it is drawn
    shown.put(before, mover, Screen((text_line("an older hand"),)))
    out = game_updates(before, after, Decision(doc=after.doc), shown)
    assert [o.slot.user for o in out if isinstance(o, Show)] == [[ANNA, BORIS][mover]]


async def test_the_end_of_a_deal_is_drawn_off_the_event_loop(
    fake_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn_in: list[threading.Thread] = []
    original = screens.draw_table

    def drawing(order: TableOrder) -> bytes:
        drawn_in.append(threading.current_thread())
        return original(order)

    monkeypatch.setattr(painter_module, "draw_table", drawing)
    monkeypatch.setattr(updates_module, "picture_screen", None)  # nothing draws in the loop
    table = make_table(fake_store)
    await scripted(table, "tyaga", [ANNA, BORIS], SHORT, options={"hand_size": 3})
    await table.open_hands(ANNA, BORIS)
    for who, label in [(ANNA, "[6|6]"), (BORIS, "◀ [6|4]"), (ANNA, "[6|5] ▶"), (BORIS, "◀ [4|4]")]:
        await table.press(who, button(table.hand(who), label).payload)
    assert drawn_in == []
    out = await table.press(ANNA, button(table.hand(ANNA), "[5|5]").payload)
    [notice] = [o for o in out if isinstance(o, Notice)]
    assert notice.screen.picture is not None
    assert len(drawn_in) == 1 and drawn_in[0] is not threading.main_thread()
