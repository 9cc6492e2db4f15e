"""A finished match's result is the group's last message: the table is posted anew
below the last deal's summary, once, and its older message is gone."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.tables import GROUP_ID, message_text, started_table

pytestmark = pytest.mark.slow


async def test_the_result_is_posted_last_below_the_last_deals_summary(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob = people["ann"], people["bob"]
    d = make_driver()
    game_id = await started_table(d, ann, "/newgame tyaga target=10", bob)
    await d.play_match(random.Random(2))
    messages = [m for m in fake.bot_messages(GROUP_ID) if game_id in message_text(m)]
    finals = [m for m in messages if "The match is over" in message_text(m)]
    assert len(finals) == 1, "the result was shown twice"
    assert messages[-1] is finals[0], [message_text(m)[:40] for m in messages[-3:]]
    summaries = [m for m in messages if "photo" in m]
    assert summaries and summaries[-1]["message_id"] < finals[0]["message_id"]
    tables = [m for m in messages if "reply_markup" in m and "photo" not in m]
    assert tables == finals, "an older table was left with its buttons"
