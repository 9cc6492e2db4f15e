"""Per-chat settings, per-user language, and the versions adapters last showed."""

from __future__ import annotations

from collections.abc import Callable

import redis.asyncio as aredis

from bot.model.contract import ChatRef, UserRef
from bot.storage import keys
from bot.storage.store import Store

CHAT = ChatRef("tg", "-1001")
TOPIC = ChatRef("tg", "-1001", "3")
ANNA = UserRef("tg", "42", "Anna")


async def test_a_chat_without_settings_has_none(store: Store) -> None:
    assert await store.chat_settings(CHAT) == {}


async def test_chat_settings_read_back_and_a_new_value_replaces_the_old(store: Store) -> None:
    await store.set_chat_setting(CHAT, "turn_timeout", "60")
    await store.set_chat_setting(CHAT, "lang", "pl")
    await store.set_chat_setting(CHAT, "turn_timeout", "0")
    assert await store.chat_settings(CHAT) == {"turn_timeout": "0", "lang": "pl"}


async def test_a_topic_has_settings_of_its_own(store: Store) -> None:
    await store.set_chat_setting(CHAT, "lang", "pl")
    assert await store.chat_settings(TOPIC) == {}


async def test_a_user_s_language_reads_back(store: Store) -> None:
    assert await store.user_lang(ANNA) is None
    await store.set_user_lang(ANNA, "uk")
    assert await store.user_lang(ANNA) == "uk"


async def test_a_first_shown_version_is_recorded(store: Store) -> None:
    assert await store.mark_shown("table|tg:-1001|g1", 0)


async def test_a_newer_shown_version_replaces_an_older_one(store: Store) -> None:
    await store.mark_shown("table|tg:-1001|g1", 3)
    assert await store.mark_shown("table|tg:-1001|g1", 4)


async def test_an_older_or_equal_shown_version_is_refused(store: Store) -> None:
    await store.mark_shown("table|tg:-1001|g1", 5)
    assert not await store.mark_shown("table|tg:-1001|g1", 4)
    assert not await store.mark_shown("table|tg:-1001|g1", 5)
    assert await store.mark_shown("table|tg:-1001|g1", 6)


async def test_shown_versions_are_kept_per_slot(store: Store) -> None:
    await store.mark_shown("table|tg:-1001|g1", 9)
    assert await store.mark_shown("hand|tg:42|g1|tg:42", 1)


async def test_a_shown_version_expires_after_the_idle_time(
    new_store: Callable[..., Store], redis_client: aredis.Redis
) -> None:
    await new_store(idle_ttl=700).mark_shown("table|tg:-1001|g1", 1)
    assert 690 < await redis_client.ttl(keys.shown_version("table|tg:-1001|g1")) <= 700
