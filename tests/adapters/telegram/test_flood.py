"""A long flood wait (35 s of 429s, longer than five tries) at a deal's end and at the
match's end: no screen is given up, the final table shows the result, and the waits are
logged as single lines, not as errors with a traceback."""

from __future__ import annotations

import logging
import random
from typing import Any

import pytest

from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.tables import (
    GROUP_ID,
    assert_platform_rules_kept,
    message_text,
    started_table,
)

pytestmark = pytest.mark.slow
WAIT = 7  # seconds each 429 asks for
TIMES = 5  # 35 s in all: one try more than the bot used to make


def flood(text: str) -> str:
    return f"Too Many Requests: retry after {WAIT} ({text})"


# The table tells a deal's end by an edit; the match's end is posted anew, below the
# picture of the last deal.
MOMENTS = [("editMessageText", "Deal 1 is over."), ("sendMessage", "The match is over")]


@pytest.mark.parametrize(("method", "moment"), MOMENTS, ids=["deal end", "match end"])
async def test_a_long_flood_wait_drops_no_screen(
    fake: FakeBotApi,
    make_driver: Any,
    people: dict[str, FakeUser],
    caplog: pytest.LogCaptureFixture,
    method: str,
    moment: str,
) -> None:
    ann, bob = people["ann"], people["bob"]
    d = make_driver()
    game_id = await started_table(d, ann, "/newgame baghdad match=deals:2", bob)
    fake.inject(
        method,
        429,
        flood(moment),
        retry_after=WAIT,
        times=TIMES,
        when=lambda params: (
            params.get("chat_id") == GROUP_ID and moment in str(params.get("text", ""))
        ),
    )
    with caplog.at_level(logging.INFO):
        await d.play_match(random.Random(3))
    refused = [c for c in fake.calls if c.status == 429]
    assert len(refused) == TIMES, "the flood never came"
    edited = [
        c
        for c in fake.calls_to(method)
        if c.chat_id == GROUP_ID and c.status == 200 and moment in c.params["text"]
    ]
    assert edited, f"the table saying {moment!r} was given up in the flood"
    final = await d.table(game_id)
    assert "The match is over" in message_text(final)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert errors == [], [r.getMessage() for r in errors]
    assert_platform_rules_kept(fake, people, caused=[flood(moment)])
