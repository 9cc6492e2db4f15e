"""The table pinned in a group that asks for it: at each new deal, without a
notification, the previous table unpinned; a group where the bot may not pin is
asked once and told nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakepins import NO_PIN_RIGHTS
from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.tables import (
    GROUP_ID,
    assert_match_over,
    assert_platform_rules_kept,
    message_text,
    started_table,
)

pytestmark = pytest.mark.slow
TWO_DEALS = "/newgame baghdad match=deals:2"


async def test_the_live_table_is_pinned_at_every_deal_and_the_last_one_unpinned(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob = people["ann"], people["bob"]
    fake.may_pin.add(GROUP_ID)
    d = make_driver()
    await d.say(ann, "/settings pin=on")
    game_id = await started_table(d, ann, TWO_DEALS, bob)
    assert fake.pinned[GROUP_ID] == [(await d.table(game_id))["message_id"]]
    played = await d.play_match(random.Random(3))
    assert_match_over(fake, played)
    pins = fake.calls_to("pinChatMessage")
    # At the start of every deal, and once more with the match's result posted anew.
    assert len(pins) == played.deals + 2
    assert all(p.params.get("disable_notification") is True for p in pins)
    final = (await d.table(game_id))["message_id"]
    assert fake.pinned[GROUP_ID] == [final], "an older table is still pinned"
    # The next match's table takes the pin from the finished one.
    second = await started_table(d, ann, TWO_DEALS, bob)
    assert fake.pinned[GROUP_ID] == [(await d.table(second))["message_id"]]
    assert_platform_rules_kept(fake, people)


async def test_a_group_where_the_bot_may_not_pin_is_asked_once_and_told_nothing(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob = people["ann"], people["bob"]
    d = make_driver()
    await d.say(ann, "/settings pin=on")
    said = len(fake.bot_messages(GROUP_ID))
    await started_table(d, ann, TWO_DEALS, bob)
    played = await d.play_match(random.Random(3))
    assert played.deals >= 1
    pins = fake.calls_to("pinChatMessage")
    assert [p.error for p in pins] == [NO_PIN_RIGHTS], "asked again after a refusal"
    texts = [message_text(m) for m in fake.bot_messages(GROUP_ID)[said:]]
    assert not [t for t in texts if "pin" in t.lower()], texts
    assert_platform_rules_kept(fake, people, caused=[NO_PIN_RIGHTS])


async def test_a_table_is_not_pinned_unless_the_group_turns_pin_on(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob = people["ann"], people["bob"]
    fake.may_pin.add(GROUP_ID)
    d = make_driver()
    await started_table(d, ann, TWO_DEALS, bob)
    await d.play_match(random.Random(3))
    assert fake.calls_to("pinChatMessage") == []
