"""A chat's screens drawn again from the store are the ones its last write sent: the
table of a running game, the hands asked for, and the final table of a game that ended,
at the version its ending write gave it."""

from __future__ import annotations

import random

from bot.model.contract import ChatRef, SlotKind
from bot.model.gamedoc import from_json
from bot.storage.store import Store
from bot.table.updates import hand_slot
from tests.bot.driver import make_table, tiles_in, user

ANNA, BORIS = user(1, "Anna"), user(2, "Boris")


async def test_a_running_games_table_and_the_hands_asked_for_are_drawn_as_stored(
    store: Store,
) -> None:
    table = make_table(store, ChatRef("tg", "-301"))
    await table.start_match("tyaga", [ANNA, BORIS])
    await table.step([ANNA, BORIS], random.Random(1))
    stored = await store.load(table.chat)
    assert stored is not None
    doc = from_json(stored.doc)
    annas = hand_slot(doc, 0)

    drawn = await table.sessions.redraw(table.chat, [annas.key])
    table_only = await table.sessions.redraw(table.chat)

    assert drawn is not None and drawn.live and drawn.version == stored.version
    by_kind = {show.slot.kind: show for show in drawn.screens}
    assert set(by_kind) == {SlotKind.TABLE, SlotKind.HAND}
    shown = table.slots[by_kind[SlotKind.TABLE].slot.key]
    assert by_kind[SlotKind.TABLE].screen == shown.screen
    assert by_kind[SlotKind.HAND].slot == annas
    assert tiles_in(by_kind[SlotKind.HAND].screen.plain_text())  # her tiles, drawn
    assert table_only is not None and [s.slot.kind for s in table_only.screens] == [SlotKind.TABLE]


async def test_an_ended_games_final_table_is_drawn_at_its_ending_version(store: Store) -> None:
    table = make_table(store, ChatRef("tg", "-302"))
    await table.start_match("baghdad", [ANNA, BORIS], "match=deals:2")
    await table.play_out([ANNA, BORIS], random.Random(2))
    final = next(
        s
        for s in table.slots.values()
        if s.slot.kind is SlotKind.TABLE and s.slot.chat == table.chat
    )
    assert "The match is over" in final.screen.plain_text()

    drawn = await table.sessions.redraw(table.chat)

    assert drawn is not None and not drawn.live
    (again,) = drawn.screens
    assert again.slot == final.slot and again.version == final.version
    assert "The match is over" in again.screen.plain_text()


async def test_a_chat_without_a_game_has_nothing_to_draw(store: Store) -> None:
    table = make_table(store, ChatRef("tg", "-303"))
    assert await table.sessions.redraw(table.chat) is None


async def test_a_deadline_claimed_by_a_process_that_died_is_set_again_when_redrawn(
    store: Store,
) -> None:
    table = make_table(store, ChatRef("tg", "-304"))
    await table.command(ANNA, "new", "tyaga", "timer=30")
    await table.command(BORIS, "join")
    await table.command(ANNA, "start")
    later = 10.0**10
    claimed = await store.claim_due(later, "tg")  # and then the claiming process died
    assert [claim.chat for claim in claimed] == [table.chat]
    assert await store.claim_due(later, "tg") == []

    await table.sessions.redraw(table.chat)

    again = await store.claim_due(later, "tg")
    assert [(c.chat, c.game_id, c.counter) for c in again] == [
        (c.chat, c.game_id, c.counter) for c in claimed
    ]
