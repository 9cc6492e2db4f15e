"""The scan the whole-match tests rely on finds a hand tile wherever a message to the
group carries one: its text, a caption, a button's label or its payload; and it lets
through what the table may show."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup

from bot.model import codec
from engine import Move, Tile
from tests.adapters.telegram.driver import Driver
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.tables import GROUP_ID, first_mover, started_table

pytestmark = pytest.mark.slow

Write = Callable[[Bot, Tile, str], Coroutine[Any, Any, object]]


def written(tile: Tile) -> str:
    return f"[{tile.hi}|{tile.lo}]"


async def a_running_game(d: Driver, ann: FakeUser, bob: FakeUser) -> tuple[str, Tile, Tile]:
    """A Tyaga game after its first move: its id, a tile in a hand, a tile on the line."""
    game_id = await started_table(d, ann, "/newgame tyaga", bob)
    user, hand, lead = await first_mover(d, game_id)
    await d.press(user, hand, lead)
    game = await d.game()
    assert game is not None and game.state is not None and game.state.line
    held = game.state.hands[0][0]
    placed = game.state.line[0]
    return game_id, held, Tile(placed.left, placed.right)


async def in_text(bot: Bot, tile: Tile, game_id: str) -> object:
    return await bot.send_message(GROUP_ID, f"look: {written(tile)}")


async def in_caption(bot: Bot, tile: Tile, game_id: str) -> object:
    return await bot.send_photo(GROUP_ID, b"\x89PNG\r\n", caption=f"look: {written(tile)}")


async def in_label(bot: Bot, tile: Tile, game_id: str) -> object:
    button = InlineKeyboardButton(written(tile), callback_data="-")
    markup = InlineKeyboardMarkup([[button]])
    return await bot.send_message(GROUP_ID, "buttons", reply_markup=markup)


async def in_payload(bot: Bot, tile: Tile, game_id: str) -> object:
    payload = codec.move_payload(game_id, 1, Move.play(tile, "L"))
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("a move", callback_data=payload)]])
    return await bot.send_message(GROUP_ID, "buttons", reply_markup=markup)


WAYS: dict[str, Write] = {
    "text": in_text,
    "caption": in_caption,
    "label": in_label,
    "payload": in_payload,
}


@pytest.mark.parametrize("write", WAYS.values(), ids=WAYS.keys())
async def test_a_hand_tile_anywhere_in_a_group_message_is_caught(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser], bot: Bot, write: Write
) -> None:
    d = make_driver()
    game_id, held, _ = await a_running_game(d, people["ann"], people["bob"])
    await write(bot, held, game_id)
    assert len(d.scan.problems) == 1 and str(held.hi) in d.scan.problems[0]
    d.scan.problems.clear()  # the planted leak is not the bot's


async def test_a_tile_on_the_line_may_be_shown(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser], bot: Bot
) -> None:
    d = make_driver()
    game_id, _, laid = await a_running_game(d, people["ann"], people["bob"])
    checked = d.scan.checked
    await in_text(bot, laid, game_id)
    assert d.scan.problems == []
    assert d.scan.checked == checked + 1


async def test_a_summary_showing_the_hands_of_a_deal_still_running_is_caught(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser], bot: Bot
) -> None:
    d = make_driver()
    game_id, held, _ = await a_running_game(d, people["ann"], people["bob"])
    summary = f"Tyaga (Draw) · table {game_id}\nDeal 1 is over.\nAnn: {written(held)}"
    await bot.send_message(GROUP_ID, summary)
    assert len(d.scan.problems) == 1 and "while it runs" in d.scan.problems[0]
    d.scan.problems.clear()
