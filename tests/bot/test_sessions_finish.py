"""What a finished match offers (a rematch with the same seats, the scoreboard), and
the reason a tile that cannot be played gives when pressed."""

from __future__ import annotations

import random

from bot.model import codec
from bot.model.contract import SlotKind
from bot.storage.store import Store
from engine import Tile
from tests.bot.driver import (
    Table,
    answer,
    button,
    buttons,
    info_text,
    make_table,
    responses,
    scripted,
    shows,
    user,
)
from tests.bot.test_sessions_play import SHORT, press_tile

ANNA, BORIS, CHEN = user(1, "Anna"), user(2, "Boris"), user(3, "Chen")


async def finished_match(table: Table) -> str:
    """Anna and Boris, with a computer, play a short Kozel match to its end: its id."""
    await table.start_match("kozel", [ANNA, BORIS], "target=11", "double_move=on", computers=1)
    game_id = table.game_id
    assert game_id is not None
    await table.play_out([ANNA, BORIS], random.Random(4))
    return game_id


async def test_rematch_opens_a_lobby_with_the_same_seats_options_and_host(
    fake_store: Store,
) -> None:
    table = make_table(fake_store)
    finished = await finished_match(table)
    old = await table.last_doc()
    assert old is not None and old.status == "finished"
    out = await table.press(BORIS, button(table.table(), "Rematch").payload)
    assert not answer(out).alert
    doc = await table.doc()
    assert doc is not None and doc.id != finished and doc.status == "lobby"
    assert [(s.user, s.computer) for s in doc.seats] == [(s.user, s.computer) for s in old.seats]
    assert (doc.variant, doc.options, doc.host) == ("kozel", old.options, ANNA.key)
    [lobby] = shows(out, SlotKind.TABLE)
    assert lobby.slot.game_id == doc.id and "Start" in [b.label for b in buttons(lobby.screen)]


async def test_a_second_rematch_press_points_to_the_open_lobby(fake_store: Store) -> None:
    table = make_table(fake_store)
    await finished_match(table)
    rematch = button(table.table(), "Rematch").payload
    await table.press(ANNA, rematch)
    opened = await table.doc()
    out = await table.press(BORIS, rematch)
    assert answer(out).text.startswith("A game is already open here: Kozel")
    assert await table.doc() == opened


async def test_only_a_player_of_the_match_or_an_admin_asks_for_a_rematch(
    fake_store: Store,
) -> None:
    table = make_table(fake_store)
    await finished_match(table)
    rematch = button(table.table(), "Rematch").payload
    out = await table.press(CHEN, rematch)
    assert answer(out).text == "Only the players of that match can ask for a rematch."
    assert await table.doc() is None


async def test_the_rematch_button_of_an_older_match_changes_nothing(fake_store: Store) -> None:
    table = make_table(fake_store)
    first = await finished_match(table)
    out = await table.press(ANNA, codec.rematch_payload("zzzzzzzz"))
    assert answer(out).text == "That button is from a finished game."
    assert await table.doc() is None and first != "zzzzzzzz"


async def test_the_scores_button_posts_the_games_scoreboard_in_the_chat(
    fake_store: Store,
) -> None:
    table = make_table(fake_store)
    await finished_match(table)
    out = await table.press(BORIS, button(table.table(), "Scores").payload)
    assert answer(out).text == ""
    [board] = responses(out)
    assert board.chat == table.chat and board.topic == "scores"
    text = board.screen.plain_text()
    assert text.startswith("Scoreboard: Kozel (the goat)")
    assert "\u2068Anna\u2069: won" in text and "\u2068Boris\u2069: won" in text


async def test_a_kozel_scoreboard_counts_the_matches_each_person_ended_as_the_goat(
    fake_store: Store,
) -> None:
    table = make_table(fake_store)
    await finished_match(table)
    state = await table.state()
    assert state is not None and state.match_over
    text = info_text(await table.command(ANNA, "scores"))
    for seat, person in enumerate((ANNA, BORIS)):
        goat = state.match_scores[seat] >= 11
        shown = f"\u2068{person.name}\u2069: won"
        assert shown in text
        row = next(r for r in text.splitlines() if shown in r)
        assert row.endswith("the goat 1 time" if goat else "the goat 0 times"), row


async def test_an_unplayable_tile_says_which_ends_it_fits_neither(fake_store: Store) -> None:
    table = make_table(fake_store)
    await scripted(table, "tyaga", [ANNA, BORIS], SHORT, options={"hand_size": 3})
    await table.open_hands(ANNA, BORIS)
    await press_tile(table, ANNA, "[6|6]")
    await press_tile(table, BORIS, "◀ [6|4]")
    before = await table.doc()
    out = await table.press(ANNA, button(table.hand(ANNA), "[5|5]").payload)
    assert out == [answer(out)], "an unplayable tile changed something"
    assert answer(out).text == "[5|5] fits neither 4 nor 6"
    assert await table.doc() == before


async def test_an_unplayable_tile_pressed_out_of_turn_says_whose_turn_it_is(
    fake_store: Store,
) -> None:
    table = make_table(fake_store)
    await scripted(table, "tyaga", [ANNA, BORIS], SHORT, options={"hand_size": 3})
    await table.open_hands(ANNA, BORIS)
    out = await table.press(BORIS, button(table.hand(BORIS), "[4|3]").payload)
    assert answer(out).text == "Not your turn — waiting for \u2068Anna\u2069"


async def test_a_stale_tile_button_is_out_of_date(fake_store: Store) -> None:
    table = make_table(fake_store)
    doc = await scripted(table, "tyaga", [ANNA, BORIS], SHORT, options={"hand_size": 3})
    await table.open_hands(ANNA, BORIS)
    await table.press(ANNA, button(table.hand(ANNA), "[6|6]").payload)
    out = await table.press(BORIS, codec.tile_payload(doc.id, 0, Tile.parse("4-3")))
    assert answer(out).text == "That button is out of date: use the new ones."
