"""``/history`` in a Telegram group, through python-telegram-bot and the fake Bot API:
the list is posted in the group, and a Replay button sends the pictures of the match's
deals and its replay file to the presser's private chat alone."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.storage.kept_match import KeptMatch
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.players import data_with
from tests.adapters.telegram.tables import GROUP_ID, message_text, started_table

pytestmark = pytest.mark.slow

REPLAY, REVIEW = "1x_", "1w_"


async def test_a_replay_button_sends_the_match_to_the_pressers_private_chat(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob = people["ann"], people["bob"]
    d = make_driver()
    game_id = await started_table(d, ann, "/newgame tyaga target=10", bob)
    await d.play_match(random.Random(3))
    raw = await d.truth.store.history.one(d.chat, game_id)
    assert raw is not None
    deals = len(KeptMatch.model_validate_json(raw).doc().deals)
    in_group_before = len(fake.bot_messages(GROUP_ID))
    bob_before = len(fake.bot_messages(bob.id))
    ann_before = len(fake.bot_messages(ann.id))
    await d.say(ann, "/history")
    listed = [m for m in fake.bot_messages(GROUP_ID) if "newest first" in message_text(m)]
    assert len(listed) == 1 and "Tyaga" in message_text(listed[0])
    (payload,) = data_with(listed[0], REPLAY)
    assert payload == REPLAY + game_id
    answer = await d.press(bob, listed[0], payload)
    assert "private chat" in answer.get("text", "")
    sent = fake.bot_messages(bob.id)[bob_before:]
    assert len([m for m in sent if "photo" in m]) == deals
    (document,) = [m for m in sent if "document" in m]
    assert document["document"]["file_name"] == f"domino-{game_id}.json"
    assert len(fake.bot_messages(ann.id)) == ann_before  # nothing for anyone else
    assert len(fake.bot_messages(GROUP_ID)) == in_group_before + 1  # only the list


async def test_the_review_button_on_the_last_hand_answers_in_the_private_chat(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob = people["ann"], people["bob"]
    d = make_driver()
    await started_table(d, ann, "/newgame tyaga target=10", bob)
    await d.play_match(random.Random(4))
    hands = [m for m in fake.bot_messages(ann.id) if data_with(m, REVIEW)]
    assert len(hands) == 1 and "The match is over." in message_text(hands[0])
    before = len(fake.bot_messages(ann.id))
    in_group = len(fake.bot_messages(GROUP_ID))
    answer = await d.press(ann, hands[0], data_with(hands[0], REVIEW)[0])
    assert "private chat" in answer.get("text", "")
    sent = fake.bot_messages(ann.id)[before:]
    assert sent and message_text(sent[0]).startswith("Your play in Tyaga (Draw), table ")
    costly = message_text(sent[0]).count("points more chance of winning")
    assert len([m for m in sent if "photo" in m]) == costly
    assert len(fake.bot_messages(GROUP_ID)) == in_group
