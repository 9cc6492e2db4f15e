"""Playing a running game: moves, forced moves, both-ends choices, tempo,
pings, deal ends, popups, leaving and coming back, and private chats."""

from __future__ import annotations

import random
from typing import NoReturn

from bot.model import codec
from bot.model.contract import (
    Answer,
    ChatRef,
    Delete,
    Notice,
    Outbound,
    PrivateStart,
    Show,
    Slot,
    SlotKind,
    Unreachable,
    UserRef,
)
from bot.storage.store import Store
from engine import DOUBLE_SIX
from tests.bot.driver import (
    Table,
    answer,
    button,
    buttons,
    deal,
    make_table,
    move_buttons,
    scripted,
    shows,
    user,
)

ANNA, BORIS = user(1, "Anna"), user(2, "Boris")

# Anna leads [6|6]; Boris holds no six and must draw: eight tiles that do not
# fit, then [6|0], which fits both ends.
NO_SIX = deal(
    DOUBLE_SIX,
    "6-6 1-0 2-0 3-0 4-0 5-0 1-1",
    "2-1 3-1 4-1 5-1 3-2 4-2 5-2",
    leader=0,
)
# A short deal Anna wins: [6|6], [6|4] (Boris), [6|5], [4|4] (Boris), [5|5].
SHORT = deal(DOUBLE_SIX, "6-6 6-5 5-5", "6-4 4-4 4-3", leader=0)


async def press_tile(table: Table, who: UserRef, label: str) -> list[Outbound]:
    return await table.press(who, button(table.hand(who), label).payload)


async def test_forced_draws_are_made_at_once_and_shown_in_one_update(fake_store: Store) -> None:
    table = make_table(fake_store)
    await scripted(table, "tyaga", [ANNA, BORIS], NO_SIX)
    await table.open_hands(ANNA, BORIS)
    out = await press_tile(table, ANNA, "[6|6]")
    assert answer(out) == Answer("")
    doc = await table.doc()
    assert doc is not None
    assert doc.moves == ((0, "6-6"),) + ((1, "draw"),) * 9
    assert len(shows(out, SlotKind.TABLE)) == 1
    assert [s.slot.user for s in shows(out, SlotKind.HAND)] == [ANNA, BORIS]
    anna, boris = "\u2068Anna\u2069", "\u2068Boris\u2069"
    told = f"{anna} led with [6|6]\n{boris} drew 9 tiles\n{boris} to move"
    assert told in table.table().plain_text()


async def test_a_tile_that_fits_both_ends_offers_both(fake_store: Store) -> None:
    table = make_table(fake_store)
    await scripted(table, "tyaga", [ANNA, BORIS], NO_SIX)
    await table.open_hands(ANNA, BORIS)
    await press_tile(table, ANNA, "[6|6]")
    labels = [b.label for b in move_buttons(table.hand(BORIS))]
    assert labels == ["◀ [6|0]", "[6|0] ▶"]
    await press_tile(table, BORIS, "[6|0] ▶")
    state = await table.state()
    assert state is not None and state.ends == (6, 0)


async def test_a_button_from_an_earlier_point_of_ones_own_turn_is_out_of_date(
    fake_store: Store,
) -> None:
    tiles = "6-6 5-5 4-4 3-3 2-2 1-1 0-0 6-5 6-4 6-3 6-2"
    other = "6-1 6-0 5-4 5-3 5-2 5-1 5-0 4-3 4-2 4-1 4-0"
    table = make_table(fake_store)
    await scripted(table, "baghdad", [ANNA, BORIS], deal(DOUBLE_SIX, tiles, other, leader=0))
    await table.open_hands(ANNA, BORIS)
    old = table.hand(ANNA)
    await table.press(ANNA, button(old, "Draw").payload)
    out = await table.press(ANNA, button(old, "[6|6]").payload)
    assert answer(out).text == "That button is out of date: use the new ones."


async def test_the_player_to_move_is_pinged_and_the_ping_goes_when_he_has_moved(
    fake_store: Store,
) -> None:
    table = make_table(fake_store)
    await scripted(table, "tyaga", [ANNA, BORIS], SHORT, options={"hand_size": 3})
    await table.open_hands(ANNA, BORIS)
    out = await press_tile(table, ANNA, "[6|6]")
    pings = shows(out, SlotKind.PING)
    assert len(pings) == 1 and pings[0].notify and pings[0].slot.user == BORIS
    assert pings[0].slot.chat == ChatRef("tg", "2")
    out = await press_tile(table, BORIS, "◀ [6|4]")
    boris_ping = Slot(SlotKind.PING, ChatRef("tg", "2"), pings[0].slot.game_id, BORIS)
    (deleted,) = [o for o in out if isinstance(o, Delete) and o.slot == boris_ping]
    assert deleted.version is not None and deleted.version > pings[0].version
    assert [p.slot.user for p in shows(out, SlotKind.PING)] == [ANNA]


async def test_pings_can_be_turned_off(fake_store: Store) -> None:
    table = make_table(fake_store)
    out = await table.start_match("tyaga", [ANNA, BORIS], "pings=off")
    rng = random.Random(1)
    for _ in range(6):
        out += await table.step([ANNA, BORIS], rng)
    assert not [o for o in out if isinstance(o, (Show, Delete)) and o.slot.kind is SlotKind.PING]


async def test_a_computer_answers_after_a_pause_in_its_own_update(fake_store: Store) -> None:
    table = make_table(fake_store)
    hands = deal(DOUBLE_SIX, "6-6 1-0 2-0 3-0 4-0 5-0 1-1", "6-5 6-4 4-1 5-1 3-2 4-2 5-2", leader=0)
    await scripted(table, "tyaga", [ANNA, "greedy"], hands)
    await table.open_hands(ANNA, BORIS)
    await press_tile(table, ANNA, "[6|6]")
    doc = await table.doc()
    assert doc is not None and len(doc.moves) == 1
    table.clock.advance(0.5)
    assert await table.tick() == []
    table.clock.advance(0.6)
    out = await table.tick()
    assert len(shows(out, SlotKind.TABLE)) == 1
    doc = await table.doc()
    assert doc is not None and doc.moves[1] in ((1, "6-5@L"), (1, "6-5@R"))


async def test_a_deal_end_shows_its_result_in_the_table_and_the_next_deal_follows_after_a_pause(
    fake_store: Store,
) -> None:
    table = make_table(fake_store)
    await scripted(table, "tyaga", [ANNA, BORIS], SHORT, options={"hand_size": 3})
    await table.open_hands(ANNA, BORIS)
    for who, label in [(ANNA, "[6|6]"), (BORIS, "◀ [6|4]"), (ANNA, "[6|5] ▶"), (BORIS, "◀ [4|4]")]:
        await press_tile(table, who, label)
    out = await press_tile(table, ANNA, "[5|5]")
    [shown] = shows(out, SlotKind.TABLE)
    assert not shown.renew
    text = shown.screen.plain_text()
    assert "\u2068Anna\u2069 went out." in text
    assert "\u2068Boris\u2069: 1 tile · 0 points this deal" in text
    assert "\u2068Anna\u2069: 0 tiles · 7 points this deal, 7 points in all" in text
    assert "[4|3]" not in text  # the tile left in a hand stays hidden
    assert "Next deal" in [b.label for b in buttons(shown.screen)]
    table.clock.advance(5.1)
    out = await table.tick()
    [dealt] = shows(out, SlotKind.TABLE)
    assert dealt.renew, "the new deal's table is not posted anew"
    assert "Deal 2" in dealt.screen.plain_text()
    assert {s.slot.user for s in shows(out, SlotKind.HAND)} == {ANNA, BORIS}


async def test_the_next_deal_button_deals_at_once(fake_store: Store) -> None:
    table = make_table(fake_store)
    await scripted(table, "tyaga", [ANNA, BORIS], SHORT, options={"hand_size": 3})
    await table.open_hands(ANNA, BORIS)
    for who, label in [(ANNA, "[6|6]"), (BORIS, "◀ [6|4]"), (ANNA, "[6|5] ▶"), (BORIS, "◀ [4|4]")]:
        await press_tile(table, who, label)
    await press_tile(table, ANNA, "[5|5]")
    next_deal = button(table.table(), "Next deal").payload
    await table.press(BORIS, next_deal)
    assert "Deal 2" in table.table().plain_text()
    out = await table.press(ANNA, next_deal)
    assert answer(out).text == "That deal has already been followed by the next."


async def test_my_tiles_shows_the_presser_his_own_hand(fake_store: Store) -> None:
    table = make_table(fake_store)
    await scripted(table, "tyaga", [ANNA, BORIS], SHORT, options={"hand_size": 3})
    await table.open_hands(ANNA, BORIS)
    out = await table.press(ANNA, codec.tiles_payload("scripted"))
    popup = answer(out)
    assert popup.alert
    assert popup.text == "Your tiles: [6|6] [6|5] [5|5]. Your turn!"
    assert popup.screen is not None and [b.label for b in buttons(popup.screen)] == [
        "[6|6]",
        "[6|5]",
        "[5|5]",
    ]
    assert len(out) == 1


async def test_a_player_who_leaves_is_replaced_by_a_computer_and_may_come_back(
    fake_store: Store,
) -> None:
    table = make_table(fake_store)
    await scripted(table, "tyaga", [ANNA, BORIS], NO_SIX)
    await table.open_hands(ANNA, BORIS)
    await table.command(ANNA, "leave")
    table.clock.advance(1.1)
    await table.tick()
    doc = await table.doc()
    assert doc is not None and doc.moves[0] == (0, "6-6")
    assert "\u2068Anna\u2069 (computer)" in table.table().plain_text()
    await table.command(ANNA, "join")
    doc = await table.doc()
    assert doc is not None and doc.seats[0].away is None
    assert "Your tiles" in (table.hand(ANNA) or _nothing()).plain_text()


async def test_everybody_leaving_a_running_game_stops_it(fake_store: Store) -> None:
    table = make_table(fake_store)
    await scripted(table, "tyaga", [ANNA, "random"], NO_SIX)
    await table.command(ANNA, "leave")
    assert await table.doc() is None
    assert "The game was stopped." in table.table().plain_text()


async def test_an_unreachable_player_gets_one_deep_link_and_his_hand_when_he_opens_it(
    fake_store: Store,
) -> None:
    table = make_table(fake_store)
    doc = await scripted(table, "tyaga", [ANNA, BORIS], NO_SIX)
    hand = Slot(SlotKind.HAND, ChatRef("tg", "2"), doc.id, BORIS, table.chat)
    out = await table.send(Unreachable(BORIS, hand))
    notices = [o for o in out if isinstance(o, Notice)]
    assert len(notices) == 1 and notices[0].chat == table.chat
    link = button(notices[0].screen, "Open my hand")
    assert link.deep_link == codec.hand_link(doc.id, table.chat)
    assert await table.send(Unreachable(BORIS, hand)) == []
    out = await table.send(PrivateStart(BORIS, link.deep_link or ""))
    assert [s.slot for s in shows(out, SlotKind.HAND)] == [hand]


async def test_opening_ones_hand_when_reachable_shows_it_and_writes_nothing(
    fake_store: Store,
) -> None:
    table = make_table(fake_store)
    await scripted(table, "tyaga", [ANNA, BORIS], NO_SIX)
    before = await fake_store.load(table.chat)
    assert before is not None
    out = await table.send(PrivateStart(BORIS, codec.hand_link("scripted", table.chat)))
    [hand] = shows(out, SlotKind.HAND)
    assert hand.slot == Slot(SlotKind.HAND, ChatRef("tg", "2"), "scripted", BORIS)
    assert hand.version == before.version and "Your tiles" in hand.screen.plain_text()
    after = await fake_store.load(table.chat)
    assert after is not None and after.version == before.version


async def test_one_person_may_sit_in_games_of_two_chats(fake_store: Store) -> None:
    first = make_table(fake_store, ChatRef("tg", "-1"))
    second = make_table(fake_store, ChatRef("tg", "-2"), seed=2)
    for table in (first, second):
        await table.command(ANNA, "new", "tyaga")
        await table.command(BORIS, "join")
        await table.command(ANNA, "start")
    one, two = (await first.doc()), (await second.doc())
    assert one is not None and two is not None and one.id != two.id
    assert first.hand(ANNA, one.id) is not None and second.hand(ANNA, two.id) is not None


def _nothing() -> NoReturn:
    raise AssertionError("no hand shown")


async def test_a_waiting_hand_is_not_sent_again_when_only_the_turn_moved_on(
    fake_store: Store,
) -> None:
    cyril = user(3, "Cyril")
    table = make_table(fake_store)
    three = deal(DOUBLE_SIX, "6-6 1-0 2-0", "6-5 3-1 4-1", "5-5 2-2 3-3", leader=0)
    await scripted(table, "tyaga", [ANNA, BORIS, cyril], three, options={"hand_size": 3})
    await table.open_hands(ANNA, BORIS, cyril)
    waiting = table.hand(cyril)
    out = await press_tile(table, ANNA, "[6|6]")
    assert [s.slot.user for s in shows(out, SlotKind.HAND)] == [ANNA, BORIS]
    out = await table.press(cyril, button(waiting, "[5|5]").payload)
    assert answer(out).text == "Not your turn — waiting for \u2068Boris\u2069"
