"""Per-chat settings and per-user language."""

from __future__ import annotations

from bot.model.contract import ChatRef, UserRef
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
