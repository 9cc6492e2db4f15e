"""A storm of Picture presses and /table commands never reaches the group: each picture
goes to whoever asked, in his private chat, once per version of the game, and the
table's edits go out move after move as if nobody had asked for anything."""

from __future__ import annotations

from typing import Any

import pytest

from bot.table import asking
from tests.adapters.delivery.vclock import VirtualClock
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.players import data_with
from tests.adapters.telegram.tables import (
    GROUP_ID,
    assert_platform_rules_kept,
    first_mover,
    started_table,
    writes,
)

pytestmark = pytest.mark.slow
PICTURE = "1i_"
MOVES = 5
PRESSES_A_MOVE = 3  # by each of the two people pressing Picture
TABLE_LAG = 5.0  # seconds a move's table may wait for the group's budget, with room


def _photos_to(fake: FakeBotApi, chat_id: int) -> list[Any]:
    return [c for c in fake.calls_to("sendPhoto") if c.chat_id == chat_id and c.status == 200]


async def test_a_picture_storm_goes_to_the_askers_and_never_holds_the_table_back(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser], clock: VirtualClock
) -> None:
    ann, bob = people["ann"], people["bob"]
    dan = fake.add_user(104, "Dan")  # not playing, but he has opened the bot
    fake.started.add(dan.id)
    d = make_driver()
    game_id = await started_table(d, ann, "/newgame tyaga", bob)
    lags: list[float] = []
    for _ in range(MOVES):
        user, hand, move = await first_mover(d, game_id)
        moved_at = clock.now()
        fake.press(user, hand, move)
        table = await d.table(game_id)
        for _ in range(PRESSES_A_MOVE):
            for asker in (bob, dan):
                fake.press(asker, table, data_with(table, PICTURE)[0])
        await d.bot.drain()
        edits = [c for c in writes(fake, GROUP_ID) if c.at >= moved_at]
        assert edits, "the move never reached the table"
        lags.append(edits[0].at - moved_at)
    assert _photos_to(fake, GROUP_ID) == [], "a picture asked for went to the whole group"
    for asker in (bob, dan):
        # Each asker gets one picture a version: at most one a move, and some.
        assert 1 <= len(_photos_to(fake, asker.id)) <= MOVES
    assert max(lags) <= TABLE_LAG, f"the table waited behind the pictures: {lags}"
    group = {c.method for c in writes(fake, GROUP_ID) if c.at >= clock.now() - 3600}
    assert "sendPhoto" not in group
    assert_platform_rules_kept(fake, people)


async def test_table_commands_past_the_limit_are_not_answered_in_the_group(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob = people["ann"], people["bob"]
    dan = fake.add_user(104, "Dan")
    fake.started.add(dan.id)
    d = make_driver()
    await started_table(d, ann, "/newgame tyaga", bob)
    before = len(writes(fake, GROUP_ID))
    for _ in range(40):
        fake.type_text(dan, GROUP_ID, "/table")
    await d.bot.drain()
    assert len(_photos_to(fake, dan.id)) == 1  # one version, one picture
    told = [c for c in writes(fake, GROUP_ID)[before:] if c.method == "sendMessage"]
    assert len(told) <= 1, "the group got an answer for each /table"
    assert all("wait a minute" in c.params["text"] for c in told)
    assert len(writes(fake, GROUP_ID)) - before <= 1
    assert asking.USER_ASKS < 40
    assert_platform_rules_kept(fake, people)
