"""The bot removed from a group in the middle of a match, with or without the update that
says so: the game stops as /stop stops it, the players' hands say so and keep no live
button, and once the bot is added back a new table can be opened."""

from __future__ import annotations

from typing import Any

import pytest

from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import FakeUser, callback_data_of
from tests.adapters.telegram.grouplife import add_bot, remove_bot
from tests.adapters.telegram.tables import GROUP_ID, move_once, started_table

pytestmark = pytest.mark.slow
PLAYS = ("1m_", "1p_")  # a move's button and a tile's


async def _hands_are_dead(d: Any, game_id: str, *people: FakeUser) -> None:
    for person in people:
        hand = await d.hand(person, game_id)
        assert hand is not None
        live = [data for data in callback_data_of(hand) if data.startswith(PLAYS)]
        assert live == [], f"{person.first_name}'s hand still offers moves"


@pytest.mark.parametrize("told", [True, False], ids=["with the update", "without it"])
async def test_a_bot_removed_from_a_group_stops_its_game_and_its_hands(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser], told: bool
) -> None:
    ann, bob = people["ann"], people["bob"]
    d = make_driver()
    game_id = await started_table(d, ann, "/newgame tyaga", bob)
    await move_once(d, game_id)
    remove_bot(fake, ann, GROUP_ID, tell=told)
    await d.bot.drain()
    if not told:  # the table's edits are refused until the bot sees it is out
        await move_once(d, game_id)
        await move_once(d, game_id)
        await d.bot.drain()
    game = await d.game()
    assert game is None or game.doc.id != game_id or not game.doc.active, "still playing"
    await _hands_are_dead(d, game_id, ann, bob)
    add_bot(fake, ann, GROUP_ID)
    await d.bot.drain()
    await d.say(ann, "/newgame kozel")
    game = await d.game()
    assert game is not None and game.doc.id != game_id and game.doc.active
