"""A Discord channel's messages as the shared delivery layer shows slots through them
(:mod:`adapters.discord.transport`), against the fake API: sent once and edited in
place, sent anew when someone deleted the message, a table posted anew cutting the
older one to a stub where Discord refuses its deletion, and a missing permission told
in the layer's words."""

from __future__ import annotations

from collections.abc import AsyncIterator

import discord
import pytest

from adapters.delivery.limiter import UNPACED
from adapters.delivery.showing import SlotShower
from adapters.delivery.slots import MemorySlotBook
from adapters.delivery.transport import Messages, NoPermission
from adapters.discord.transport import DiscordMessages
from bot.model.contract import ChatRef, Screen, Show, Slot, SlotKind
from tests.adapters.delivery.vclock import VirtualClock
from tests.adapters.discord.fake_api import FakeDiscord
from tests.adapters.discord.fake_wire import SEND_MESSAGES
from tests.adapters.discord.harness import CHANNEL_ID, GUILD_ID, TOKEN

CHANNEL = ChatRef("dc", str(CHANNEL_ID))
TABLE = Slot(SlotKind.TABLE, CHANNEL, "game")


def table(text: str, version: int, *, renew: bool = False) -> Show:
    return Show(TABLE, Screen(((text,), ("tiles",))), version, renew=renew)


@pytest.fixture
async def client(fake: FakeDiscord) -> AsyncIterator[discord.Client]:
    fake.add_channel(CHANNEL_ID, GUILD_ID)
    client = discord.Client(intents=discord.Intents.none())
    await client.login(TOKEN)
    try:
        yield client
    finally:
        await client.close()


@pytest.fixture
def book() -> MemorySlotBook:
    return MemorySlotBook()


@pytest.fixture
def shower(client: discord.Client, book: MemorySlotBook) -> SlotShower:
    messages: Messages = DiscordMessages(client)
    return SlotShower(messages, book, VirtualClock(), lambda show: False)


async def shown_in(shower: SlotShower, book: MemorySlotBook, show: Show) -> int:
    """Show ``show``; the message the slot book then names for its slot."""
    await shower.show(show, UNPACED)
    message_id = await book.message_of(show.slot)
    assert message_id is not None
    return message_id


def contents(fake: FakeDiscord) -> list[str]:
    return [m["content"] for m in fake.live_channel_messages(CHANNEL_ID)]


async def test_a_slot_is_sent_once_then_edited_and_an_older_version_is_never_shown(
    fake: FakeDiscord, shower: SlotShower, book: MemorySlotBook
) -> None:
    await shower.show(table("v1", 1), UNPACED)
    await shower.show(table("v3", 3), UNPACED)
    await shower.show(table("v2", 2), UNPACED)
    assert contents(fake) == ["v3\ntiles"]
    assert [e.action for e in fake.channel_events(CHANNEL_ID)] == ["create", "edit"]
    assert await book.message_of(TABLE) == int(fake.live_channel_messages(CHANNEL_ID)[0]["id"])


async def test_a_message_someone_deleted_is_sent_anew(
    fake: FakeDiscord, shower: SlotShower, book: MemorySlotBook
) -> None:
    first = await shown_in(shower, book, table("v1", 1))
    fake.messages.pop(first)  # a moderator deleted it
    await shower.show(table("v2", 2), UNPACED)
    assert contents(fake) == ["v2\ntiles"]
    assert await book.message_of(TABLE) not in (None, first)


async def test_a_table_posted_anew_cuts_the_older_one_to_a_stub_where_it_may_not_be_deleted(
    fake: FakeDiscord, shower: SlotShower, book: MemorySlotBook
) -> None:
    older = await shown_in(shower, book, table("deal 1", 1))
    fake.undeletable.add(older)
    newer = await shown_in(shower, book, table("deal 2", 2, renew=True))
    live = {int(m["id"]): m for m in fake.live_channel_messages(CHANNEL_ID)}
    assert live[older]["content"] == "deal 2"  # its first line, nothing to press
    assert not live[older].get("components")
    assert newer != older
    assert live[newer]["content"] == "deal 2\ntiles"


async def test_a_missing_permission_is_told_in_the_layers_words(
    fake: FakeDiscord, shower: SlotShower
) -> None:
    fake.denied[CHANNEL_ID] = SEND_MESSAGES
    with pytest.raises(NoPermission):
        await shower.show(table("v1", 1), UNPACED)
    assert contents(fake) == []
