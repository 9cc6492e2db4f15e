"""The slot book: which message shows a slot, and the newest version shown there; a
worker held up past its hold holds its slot again only while no newer version came."""

from __future__ import annotations

import pytest
import redis.asyncio as aredis

from adapters.delivery.slots import HOLD_SECONDS, MemorySlotBook, RedisSlotBook, SlotBook
from bot.model.contract import ChatRef, Slot, SlotKind

NOW = 1_700_000_000.0
TABLE = Slot(SlotKind.TABLE, ChatRef("tg", "-100123"), "g1")
OTHER = Slot(SlotKind.TABLE, ChatRef("tg", "-100123"), "g2")


@pytest.fixture
def book(where: aredis.Redis | None) -> SlotBook:
    if where is None:
        return MemorySlotBook()
    return RedisSlotBook(where, lambda chat: f"test:msgs:{{{chat}}}")


async def test_a_new_slot_has_no_message_and_takes_any_version(book: SlotBook) -> None:
    claim = await book.claim(TABLE, 0, NOW)
    assert claim.fresh and claim.message_id is None


async def test_a_placed_message_is_found_again(book: SlotBook) -> None:
    await book.place(TABLE, 55, 3)
    assert await book.message_of(TABLE) == 55
    claim = await book.claim(TABLE, 4, NOW)
    assert claim.fresh and claim.message_id == 55


async def test_a_slot_is_found_by_its_message_and_nothing_else_is(book: SlotBook) -> None:
    await book.place(TABLE, 55, 3)
    await book.place(OTHER, 56, 1)
    await book.claim(TABLE, 4, NOW)  # held while its edit is on its way
    await book.swap_response(TABLE.chat, "help", 57, NOW)
    assert await book.slot_showing(TABLE.chat, 56) == OTHER.key
    assert await book.slot_showing(TABLE.chat, 55) == TABLE.key
    assert await book.slot_showing(TABLE.chat, 57) is None  # a response, not a slot
    assert await book.slot_showing(ChatRef("tg", "-1"), 55) is None


async def test_an_older_version_is_refused(book: SlotBook) -> None:
    await book.place(TABLE, 55, 7)
    claim = await book.claim(TABLE, 6, NOW)
    assert not claim.fresh and not claim.busy


async def test_the_same_version_may_be_shown_again(book: SlotBook) -> None:
    await book.place(TABLE, 55, 7)
    assert (await book.claim(TABLE, 7, NOW)).fresh


async def test_placing_a_message_never_lowers_the_version(book: SlotBook) -> None:
    assert (await book.claim(TABLE, 9, NOW)).fresh
    await book.place(TABLE, 60, 8)  # a slower worker sent version 8
    await book.release(TABLE)
    assert await book.message_of(TABLE) == 60
    claim = await book.claim(TABLE, 8, NOW)
    assert not claim.fresh and not claim.busy


async def test_slots_are_kept_apart(book: SlotBook) -> None:
    await book.place(TABLE, 55, 1)
    assert await book.message_of(OTHER) is None


async def test_a_forgotten_slot_starts_over(book: SlotBook) -> None:
    await book.place(TABLE, 55, 7)
    await book.forget(TABLE)
    assert await book.message_of(TABLE) is None
    assert (await book.claim(TABLE, 1, NOW)).fresh


async def test_a_vacated_slot_is_free_has_no_message_and_refuses_older_versions(
    book: SlotBook,
) -> None:
    await book.place(TABLE, 55, 7)
    assert (await book.claim(TABLE, 9, NOW)).message_id == 55
    await book.vacate(TABLE, 9)
    assert await book.message_of(TABLE) is None
    assert await book.version_of(TABLE) == 9
    assert not (await book.claim(TABLE, 8, NOW)).fresh
    claim = await book.claim(TABLE, 10, NOW)
    assert claim.fresh and not claim.busy and claim.message_id is None


async def test_a_forgotten_chat_has_no_messages_left(book: SlotBook) -> None:
    await book.place(TABLE, 55, 7)
    await book.place(OTHER, 56, 2)
    await book.forget_chat(TABLE.chat)
    assert await book.message_of(TABLE) is None
    assert await book.message_of(OTHER) is None


async def test_a_slot_being_shown_by_one_worker_is_busy_for_another(
    redis_url: str, redis_client: aredis.Redis
) -> None:
    other = aredis.Redis.from_url(redis_url, decode_responses=True)
    try:
        first, second = (
            RedisSlotBook(client, lambda chat: f"test:msgs:{{{chat}}}")
            for client in (redis_client, other)
        )
        assert (await first.claim(TABLE, 5, NOW)).fresh
        assert (await second.claim(TABLE, 6, NOW)).busy
        await first.release(TABLE)
        assert (await second.claim(TABLE, 6, NOW)).fresh
    finally:
        await other.aclose()


async def test_a_slot_held_by_a_worker_that_died_is_free_after_a_while(
    redis_client: aredis.Redis,
) -> None:
    book = RedisSlotBook(redis_client, lambda chat: f"test:msgs:{{{chat}}}")
    assert (await book.claim(TABLE, 5, NOW)).fresh
    assert (await book.claim(TABLE, 6, NOW + HOLD_SECONDS + 1)).fresh


async def test_a_released_slot_keeps_its_message(book: SlotBook) -> None:
    await book.place(TABLE, 55, 7)
    assert (await book.claim(TABLE, 8, NOW)).fresh
    await book.release(TABLE)
    assert await book.message_of(TABLE) == 55


async def test_a_worker_held_up_holds_its_slot_again_unless_a_newer_version_came(
    redis_client: aredis.Redis,
) -> None:
    book = RedisSlotBook(redis_client, lambda chat: f"test:msgs:{{{chat}}}")
    assert (await book.claim(TABLE, 5, NOW)).fresh
    assert await book.hold(TABLE, 5, NOW + 20)
    assert (await book.claim(TABLE, 6, NOW + HOLD_SECONDS + 1)).busy  # held again at +20
    assert (await book.claim(TABLE, 6, NOW + 20 + HOLD_SECONDS + 1)).fresh
    assert not await book.hold(TABLE, 5, NOW + 20 + HOLD_SECONDS + 2)
