"""The table as a picture on Telegram: /table and the Picture button send a photo to
the asker's private chat,
pictures=on keeps one photo that each move replaces (editMessageMedia), and a
deal's summary arrives as a photo with the summary as its caption."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.players import data_with
from tests.adapters.telegram.tables import (
    GROUP_ID,
    assert_platform_rules_kept,
    first_mover,
    started_table,
)

pytestmark = pytest.mark.slow
PICTURE = "1i_"
NO_MEDIA = "Bad Request: there is no media in the message to edit"


def _photos(fake: FakeBotApi, method: str = "sendPhoto", chat_id: int = GROUP_ID) -> list[Any]:
    return [c for c in fake.calls_to(method) if c.chat_id == chat_id and c.status == 200]


async def test_the_table_command_and_the_picture_button_send_photos(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob = people["ann"], people["bob"]
    d = make_driver()
    game_id = await started_table(d, ann, "/newgame tyaga", bob)
    await d.say(bob, "/table")
    await d.bot.drain()
    (sent,) = _photos(fake, chat_id=bob.id)  # for him alone, in his private chat
    name, size = sent.files["photo"]
    assert name.endswith(".png") and size > 1000
    assert game_id in sent.params["caption"]
    user, hand, move = await first_mover(d, game_id)
    await d.press(user, hand, move)
    table = await d.table(game_id)
    answer = await d.press(ann, table, data_with(table, PICTURE)[0])
    assert not answer.get("show_alert") and "to you alone" in answer["text"]
    await d.bot.drain()
    assert len(_photos(fake, chat_id=ann.id)) == 1
    assert _photos(fake) == []  # nothing asked for went to the group
    assert_platform_rules_kept(fake, people)


async def test_pictures_on_edit_one_photo_in_place_move_after_move(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob = people["ann"], people["bob"]
    d = make_driver()
    game_id = await started_table(d, ann, "/newgame tyaga pictures=on", bob)
    for _ in range(3):
        user, hand, move = await first_mover(d, game_id)
        await d.press(user, hand, move)
    await d.bot.drain()
    photos = _photos(fake)
    assert len(photos) == 1, "each move sent a new photo instead of editing the first"
    edits = _photos(fake, "editMessageMedia")
    assert edits, "no move replaced the photo"
    message_id = fake.bot_messages(GROUP_ID)[0]["message_id"]
    photo_ids = {m["message_id"] for m in fake.bot_messages(GROUP_ID) if "photo" in m}
    assert {c.params["message_id"] for c in edits} <= photo_ids and message_id not in photo_ids
    assert all(c.params["media"]["type"] == "photo" for c in edits)
    assert_platform_rules_kept(fake, people)


async def test_a_deals_end_is_told_by_the_table_and_sends_no_photo_of_its_own(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob = people["ann"], people["bob"]
    d = make_driver()
    await started_table(d, ann, "/newgame baghdad match=deals:2", bob)
    await d.play_match(random.Random(3))
    assert not [c for c in _photos(fake) if "Deal 1 is over." in c.params.get("caption", "")]
    ended = [c for c in fake.calls_to("editMessageText") if "Deal 1 is over." in c.params["text"]]
    assert ended, "the table never told the first deal's end"
    assert_platform_rules_kept(fake, people)


async def test_a_players_hand_picture_is_a_photo_in_his_private_chat(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob = people["ann"], people["bob"]
    d = make_driver()
    game_id = await started_table(d, ann, "/newgame tyaga", bob)
    text_hand = await d.hand(ann, game_id)
    assert text_hand is not None and "photo" not in text_hand
    await d.say(ann, "/hand_picture on")
    await d.bot.drain()
    hand = await d.hand(ann, game_id)
    assert hand is not None and "photo" in hand and game_id in hand["caption"]
    assert hand["message_id"] != text_hand["message_id"]  # a text cannot become a photo
    for _ in range(4):
        user, message, move = await first_mover(d, game_id)
        await d.press(user, message, move)
    await d.bot.drain()
    assert [c for c in fake.calls_to("editMessageMedia") if c.chat_id == ann.id and c.status == 200]
    bobs = await d.hand(bob, game_id)
    assert bobs is not None and "photo" not in bobs
    # Switching costs one refused edit: Telegram alone knows the message is text.
    switched = [c for c in fake.calls if c.error == NO_MEDIA]
    assert len(switched) == 1
    assert_platform_rules_kept(fake, people, caused=[NO_MEDIA])
