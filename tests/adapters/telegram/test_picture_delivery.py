"""Pictures through the delivery queue: a picture slot is a photo edited in place,
a summary whose text is too long for a caption comes as the photo and then the text,
and pictures keep within the group's limits like any message."""

from __future__ import annotations

from adapters.delivery.deliver import Deliverer
from adapters.telegram.budget import GROUP_RULES
from adapters.telegram.sending import CAPTION_LIMIT
from bot.model.contract import Notice, Screen, Show, Slot, SlotKind
from tests.adapters.delivery.test_limiter import assert_keeps
from tests.adapters.delivery.vclock import VirtualClock
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.mailroom import GROUP, GROUP_ID, deliver
from tests.adapters.telegram.tables import WRITES

PICTURE = Slot(SlotKind.PICTURE, GROUP, "g1")


def pictured(text: str, size: int = 3000) -> Screen:
    return Screen(((text,),), picture=b"\x89PNG\r\n\x1a\n" + bytes(size))


def calls(fake: FakeBotApi) -> list[tuple[str, str]]:
    return [
        (c.method, str(c.params.get("caption", c.params.get("text", ""))))
        for c in fake.calls
        if c.method in WRITES and c.chat_id == GROUP_ID and c.status == 200
    ]


async def test_a_picture_slot_is_one_photo_edited_in_place(
    world: FakeBotApi,
    deliverer: Deliverer,
) -> None:
    await deliver(deliverer, Show(PICTURE, pictured("Deal 1", 3000), 1))
    await deliver(deliverer, Show(PICTURE, pictured("Deal 1", 3100), 2))
    assert calls(world) == [("sendPhoto", "Deal 1"), ("editMessageMedia", "")]
    (photo,) = world.bot_messages(GROUP_ID)
    assert photo["photo"][0]["file_id"] == "p3108" and photo["caption"] == "Deal 1"


async def test_a_message_too_long_for_a_caption_comes_as_the_photo_then_its_text(
    world: FakeBotApi,
    deliverer: Deliverer,
) -> None:
    long = "Anna went out. " * (CAPTION_LIMIT // 10)
    await deliver(deliverer, Notice(GROUP, pictured(long)))
    sent = calls(world)
    assert [method for method, _text in sent] == ["sendPhoto", "sendMessage"]
    assert sent[0][1] == "" and sent[1][1].startswith("Anna went out.")


async def test_pictures_keep_within_the_group_limits(
    world: FakeBotApi,
    deliverer: Deliverer,
    clock: VirtualClock,
) -> None:
    for version in range(1, 41):
        deliverer.submit([Show(PICTURE, pictured(f"move {version}", 3000 + version), version)])
        clock.advance(0.2)
    await deliverer.drain()
    moments = [c.at for c in world.calls if c.method in WRITES and c.chat_id == GROUP_ID]
    assert_keeps(moments, GROUP_RULES)
    (photo,) = world.bot_messages(GROUP_ID)
    assert photo["caption"] == "move 40"  # one message, showing the last picture


def _photos(fake: FakeBotApi) -> list[int]:
    return [m["message_id"] for m in fake.bot_messages(GROUP_ID) if "photo" in m]


async def test_a_slots_picture_too_long_for_a_caption_is_recorded_and_one_stays(
    world: FakeBotApi,
    deliverer: Deliverer,
) -> None:
    """Each new version of the screen is sent again as a photo and a text (a text
    message cannot be edited into a photo): the photo sent before goes."""
    long = "Anna went out. " * (CAPTION_LIMIT // 10)
    for version in (1, 2, 3):
        await deliver(deliverer, Show(PICTURE, pictured(long + str(version)), version))
    assert len(_photos(world)) == 1
    assert len(world.bot_messages(GROUP_ID)) == 2  # the photo and its text
    assert world.bot_messages(GROUP_ID)[-1]["text"].endswith("3")


async def test_a_screen_sent_again_after_its_picture_went_out_alone_leaves_one_picture(
    world: FakeBotApi,
    deliverer: Deliverer,
) -> None:
    """The picture goes out and its text does not (the process is killed in between, or
    here Telegram refuses the text); the screen is drawn and sent again."""
    long = "Anna went out. " * (CAPTION_LIMIT // 10)
    world.inject("sendMessage", 400, "Bad Request: the text is refused")
    await deliver(deliverer, Show(PICTURE, pictured(long), 1))
    first = _photos(world)
    await deliver(deliverer, Show(PICTURE, pictured(long), 1))
    assert len(first) == 1 and len(_photos(world)) == 1 and _photos(world) != first
