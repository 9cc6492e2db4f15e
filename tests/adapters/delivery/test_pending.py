"""The pending book in Redis: the newest version of each queued screen, struck off only
once it (or a newer one) is shown, and the chats noted in the index in one round trip."""

from __future__ import annotations

from typing import Any

import pytest
import redis.asyncio as aredis

from adapters.delivery.pending import GRACE_SECONDS, RedisPendingBook
from bot.model.contract import ChatRef, Screen, Show, Slot, SlotKind
from bot.storage import keys

NOW = 1_700_000_000.0
GROUP, OTHER = ChatRef("tg", "-100123"), ChatRef("tg", "-100456")


def table(chat: ChatRef, version: int) -> Show:
    return Show(Slot(SlotKind.TABLE, chat, "g1"), Screen((("t",),)), version)


@pytest.fixture
def book(redis_client: aredis.Redis) -> RedisPendingBook:
    return RedisPendingBook(redis_client, "tg", lambda: NOW)


async def test_a_screen_noted_late_never_lowers_the_version_queued(book: RedisPendingBook) -> None:
    await book.note([table(GROUP, 5)])
    await book.note([table(GROUP, 3)])
    assert await book.waiting(GROUP) == {table(GROUP, 0).slot.key: 5}


async def test_showing_an_older_version_leaves_the_newer_one_queued(
    book: RedisPendingBook,
) -> None:
    await book.note([table(GROUP, 5)])
    await book.strike_off(table(GROUP, 4))
    assert await book.waiting(GROUP) == {table(GROUP, 0).slot.key: 5}
    await book.strike_off(table(GROUP, 5))
    assert await book.waiting(GROUP) == {}


async def test_every_chat_noted_is_due_for_a_look_soon(
    book: RedisPendingBook, redis_client: aredis.Redis
) -> None:
    await book.note([table(GROUP, 1), table(OTHER, 1)])
    index = keys.tables_to_check("tg")
    assert await redis_client.zscore(index, GROUP.key) == NOW + GRACE_SECONDS
    assert await redis_client.zscore(index, OTHER.key) == NOW + GRACE_SECONDS
    assert await redis_client.ttl(index) > 0


async def test_noting_the_screens_of_several_chats_is_one_round_trip(
    book: RedisPendingBook, monkeypatch: pytest.MonkeyPatch
) -> None:
    await book.note([table(GROUP, 1)])  # the script is loaded once, the first time
    sent = 0
    original = aredis.connection.AbstractConnection.send_packed_command

    async def counted(self: Any, command: Any, check_health: bool = True) -> None:
        nonlocal sent
        sent += 1
        await original(self, command, check_health)

    monkeypatch.setattr(aredis.connection.AbstractConnection, "send_packed_command", counted)
    await book.note([table(GROUP, 2), table(OTHER, 2)])
    assert sent == 1
    assert await book.waiting(OTHER) == {table(OTHER, 0).slot.key: 2}


async def test_a_server_that_forgot_the_script_still_gets_the_screens_noted(
    book: RedisPendingBook, redis_client: aredis.Redis
) -> None:
    await book.note([table(GROUP, 1)])
    await redis_client.script_flush()
    await book.note([table(GROUP, 2), table(OTHER, 4)])
    assert await book.waiting(GROUP) == {table(GROUP, 0).slot.key: 2}
    assert await book.waiting(OTHER) == {table(OTHER, 0).slot.key: 4}


async def test_a_chat_whose_game_is_stored_is_looked_at_on_start_though_nothing_was_noted(
    book: RedisPendingBook, redis_client: aredis.Redis
) -> None:
    """A process killed between writing a new game and noting its first screen left the
    chat in no index: a starting process still finds it."""
    await redis_client.hset(keys.game(OTHER), mapping={"v": 1, "id": "g9"})
    await redis_client.hset(keys.game(ChatRef("dc", "77")), mapping={"v": 1, "id": "g8"})
    await book.note([table(GROUP, 1)])
    assert [chat.key for chat in await book.every_chat()] == [GROUP.key, OTHER.key]
