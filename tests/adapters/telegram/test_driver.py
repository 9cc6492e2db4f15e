"""The people who play the whole-match tests tell a game the bot lost from a game taken
away with the whole test database by another process on the same ``REDIS_URL``."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
import redis.asyncio as aredis

from tests.adapters.telegram.driver import EMPTIED
from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.tables import started_table

pytestmark = pytest.mark.slow


async def test_a_database_emptied_under_a_running_match_is_named_as_such(
    make_driver: Any, people: dict[str, FakeUser], redis_url: str
) -> None:
    d = make_driver()
    await started_table(d, people["ann"], "/newgame tyaga", people["bob"])
    played = await d.begin()
    other = aredis.Redis.from_url(redis_url)  # another test run, or a script
    try:
        await other.flushdb()
    finally:
        await other.aclose()
    with pytest.raises(AssertionError, match=re.escape(EMPTIED)):
        await d.step(played, random.Random(1))


async def test_a_match_that_ends_in_the_chat_is_not_taken_for_an_emptied_database(
    make_driver: Any, people: dict[str, FakeUser]
) -> None:
    d = make_driver()
    await started_table(d, people["ann"], "/newgame baghdad match=deals:2", people["bob"])
    played = await d.play_match(random.Random(3))
    assert await d.game() is None and played.moves > 0
