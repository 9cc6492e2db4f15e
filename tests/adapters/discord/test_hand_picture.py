"""A hand that comes with a picture on Discord: pushed through the player's
interaction token, its picture is uploaded and shown as the embed's image."""

from __future__ import annotations

from dataclasses import replace

from bot.model.contract import Answer, Show
from tests.adapters.discord.conftest import ALICE
from tests.adapters.discord.fake_api import FakeDiscord
from tests.adapters.discord.harness import Bot, labels_of
from tests.adapters.discord.scripted import ScriptedCore
from tests.adapters.discord.test_interactions import (  # noqa: F401 (fixtures)
    TABLE,
    bot,
    core,
    hand,
    hand_slot,
    show_table,
    table,
    table_message,
)

PICTURE = b"\x89PNG\r\n\x1a\n" + bytes(2000)


async def test_a_pushed_hand_carries_its_picture(
    bot: Bot,  # noqa: F811
    fake: FakeDiscord,
    core: ScriptedCore,  # noqa: F811
) -> None:
    await show_table(bot, core, Show(TABLE, table("Bob to move"), 1))
    core.answer = lambda inbound: [Answer("", False, hand("Wait for your turn", []))]
    record = await bot.press_label(ALICE, table_message(fake), "My tiles")
    pictured = replace(hand("Your turn", ["3-3"]), picture=PICTURE)
    await show_table(bot, core, Show(hand_slot(ALICE), pictured, 2))
    shown = bot.reply_to(record)
    assert labels_of(shown) == ["3-3"]
    (attachment,) = shown["attachments"]
    assert attachment["filename"] == "table.png" and attachment["size"] == len(PICTURE)
    (embed,) = shown["embeds"]
    assert embed["image"]["url"] == "attachment://table.png"
