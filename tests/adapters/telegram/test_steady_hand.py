"""A hand that stays the same when the turn passes: one button per tile held, so the
turn coming to a player does not edit his hand. A press out of turn says whose turn
it is, a tile that fits nowhere says why, and a tile that fits both ends differently
asks which; Thief of Baghdad's table waits while its mover is still acting."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.model import codec
from bot.table.steady_presses import distinct_moves
from engine import State, Tile
from tests.adapters.telegram.driver import Driver
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.players import buttons, data_with, hand_presses
from tests.adapters.telegram.tables import (
    GROUP_ID,
    WRITES,
    Turn,
    move_once,
    started_table,
    turn_now,
)

pytestmark = pytest.mark.slow

TILE = "1p_"  # a steady hand's button
TURNS = 60  # moves a test plays at most to meet the moment it needs


def _tile_button(hand: dict[str, Any], tile: object) -> str:
    for data in data_with(hand, TILE):
        action = codec.decode(data)
        if isinstance(action, codec.HandPress) and action.tile is tile:
            return data
    raise AssertionError(f"no button for {tile} in {[b['text'] for b in buttons(hand)]}")


async def _moves(d: Driver) -> int:
    """How many moves the running game has had."""
    return len((await turn_now(d)).game.doc.moves)


async def _until_held(
    d: Driver, game_id: str, wanted: Callable[[State[Any], Tile], bool]
) -> tuple[Turn, Tile]:
    """Moves are made until the player to move holds a tile that is ``wanted``: the turn
    then, and that tile."""
    for _ in range(TURNS):
        turn = await turn_now(d)
        found = [t for t in turn.state.hands[turn.seat] if wanted(turn.state, t)]
        if found:
            return turn, found[0]
        await move_once(d, game_id)
    raise AssertionError("no player to move ever held the tile wanted")


def _fits_nowhere(state: State[Any], tile: Tile) -> bool:
    return bool(state.ends) and not distinct_moves(state, tile)


def _fits_both_ends_differently(state: State[Any], tile: Tile) -> bool:
    return len(distinct_moves(state, tile)) == 2


def _writes_to(fake: FakeBotApi, first: int, chat_id: int) -> list[str]:
    return [c.method for c in fake.calls[first:] if c.method in WRITES and c.chat_id == chat_id]


async def test_a_tile_pressed_out_of_turn_says_whose_turn_it_is(
    make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob = people["ann"], people["bob"]
    d = make_driver()
    game_id = await started_table(d, ann, "/newgame tyaga", bob)
    game, _, _, mover = await turn_now(d)
    waiting = bob if mover is ann else ann
    hand = await d.hand(waiting, game_id)
    assert hand is not None
    answer = await d.press(waiting, hand, data_with(hand, TILE)[0])
    assert answer.get("text") == f"Not your turn — waiting for \u2068{mover.first_name}\u2069"
    assert await _moves(d) == len(game.doc.moves), "a move was made"


async def test_a_tile_that_fits_nowhere_says_why(
    make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob = people["ann"], people["bob"]
    d = make_driver()
    game_id = await started_table(d, ann, "/newgame tyaga", bob)
    (game, state, _, mover), stuck = await _until_held(d, game_id, _fits_nowhere)
    hand = await d.hand(mover, game_id)
    assert hand is not None and state.ends is not None
    answer = await d.press(mover, hand, _tile_button(hand, stuck))
    left, right = state.ends
    assert answer.get("text") == f"[{stuck.hi}|{stuck.lo}] fits neither {left} nor {right}"
    assert await _moves(d) == len(game.doc.moves), "a move was made"


async def test_a_tile_that_fits_both_ends_differently_asks_which_end(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob = people["ann"], people["bob"]
    d = make_driver()
    game_id = await started_table(d, ann, "/newgame tyaga", bob)
    (game, _, seat, mover), both = await _until_held(d, game_id, _fits_both_ends_differently)
    hand = await d.hand(mover, game_id)
    assert hand is not None
    shown, keys = hand["text"], [b["text"] for b in buttons(hand)]  # edited in place
    answer = await d.press(mover, hand, _tile_button(hand, both))
    assert not answer.get("text"), answer
    asked = await d.hand(mover, game_id)
    assert asked is not None and asked["message_id"] == hand["message_id"]
    ends = [b["text"] for b in buttons(asked)]
    assert ends[-1] == "Back" and len(ends) == 3, ends
    assert "◀" in ends[0] and "▶" in ends[1], ends
    assert await _moves(d) == len(game.doc.moves), "played without asking"
    await d.press(mover, asked, data_with(asked, "1y_")[0])
    back = await d.hand(mover, game_id)
    assert back is not None and back["text"] == shown
    assert [b["text"] for b in buttons(back)] == keys
    await d.press(mover, back, _tile_button(back, both))
    asked = await d.hand(mover, game_id)
    assert asked is not None
    right = data_with(asked, "1m_")[1]
    assert not (await d.press(mover, asked, right)).get("text")
    moved = (await turn_now(d)).game
    assert moved.doc.moves[len(game.doc.moves)] == (seat, f"{both}@R")


async def test_the_next_players_hand_is_not_edited_when_the_turn_passes_and_still_plays(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob = people["ann"], people["bob"]
    d = make_driver()
    game_id = await started_table(d, ann, "/newgame tyaga", bob)
    for _ in range(TURNS):
        game, _, _, mover = await turn_now(d)
        waiting = bob if mover is ann else ann
        hand = await d.hand(waiting, game_id)
        assert hand is not None
        shown = hand["text"]  # the message would be edited in place
        first = len(fake.calls)
        await move_once(d, game_id)
        after, after_state, _, _ = await turn_now(d)
        if len(after.doc.moves) != len(game.doc.moves) + 1 or after_state.deal_over:
            continue  # a draw was made for him: his tiles changed
        assert _writes_to(fake, first, waiting.id) == [], "his hand was edited"
        assert _writes_to(fake, first, GROUP_ID) == ["editMessageText"]
        unchanged = await d.hand(waiting, game_id)
        assert unchanged is not None and unchanged["text"] == shown
        presses = [data for data, move in hand_presses(unchanged, after) if move is not None]
        assert presses, "his hand offers no move"
        assert not (await d.press(waiting, unchanged, presses[0])).get("text")
        assert await _moves(d) > len(after.doc.moves), "his press made no move"
        return
    raise AssertionError("the turn never passed without a draw")


async def test_thief_of_baghdads_table_waits_while_its_mover_still_acts(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob = people["ann"], people["bob"]
    d = make_driver()
    game_id = await started_table(d, ann, "/newgame baghdad", bob)
    for _ in range(TURNS):
        game, _, seat, mover = await turn_now(d)
        hand = await d.hand(mover, game_id)
        assert hand is not None
        draw = [
            data
            for data, move in hand_presses(hand, game)
            if move is not None and move.kind.name == "DRAW"
        ]
        if not draw:
            await move_once(d, game_id)
            continue
        first, shown = len(fake.calls), (await d.table(game_id))["text"]
        assert not (await d.press(mover, hand, draw[0])).get("text")
        if (await turn_now(d)).seat != seat:
            continue  # the drawn tile fit nowhere: the turn passed with the draw
        assert _writes_to(fake, first, GROUP_ID) == [], "the table showed the draw alone"
        assert _writes_to(fake, first, mover.id) == ["editMessageText"], "his hand waited"
        first = len(fake.calls)
        await move_once(d, game_id)  # the drawn tile, or done
        assert _writes_to(fake, first, GROUP_ID) == ["editMessageText"]
        assert (await d.table(game_id))["text"] != shown
        return
    raise AssertionError("nobody ever drew at will and kept his turn")
