"""A burst of moves in real (if quickened) time: table edits merge, and the group's limits
hold, while people move as fast as their own hands let them."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.adapters.delivery.vclock import ScaledClock
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.tables import (
    GROUP_ID,
    assert_match_over,
    assert_platform_rules_kept,
    open_table,
    start,
    writes,
)

BURST = 100
pytestmark = pytest.mark.slow


@pytest.fixture
def clock() -> ScaledClock:
    """Fifteen seconds pass in each real second, for the bot and the fake server alike."""
    return ScaledClock(speed=15.0)


async def test_a_burst_of_moves_merges_table_edits_within_the_group_limits(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob = people["ann"], people["bob"]
    moves = 0
    matches = 0
    while moves < BURST:
        d = make_driver()
        d.seat(ann, bob)
        d.hurry = True
        game_id = await open_table(d, ann, "/newgame kozel target=101", bob)
        await start(d, ann, game_id)
        played = await d.play_match(random.Random(matches))
        moves += played.moves
        matches += 1
        await d.bot.drain()
        final = (await d.table(game_id))["text"]
        assert "The match is over" in final or "Won by" in final, final
    assert_match_over(fake, played)
    assert_platform_rules_kept(fake, people)
    table_edits = [c for c in writes(fake, GROUP_ID) if c.method == "editMessageText"]
    assert len(table_edits) < moves, "every move got a table edit of its own"
