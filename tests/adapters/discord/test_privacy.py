"""A player's own data through the real discord.py against the fake API: ``/domino
mydata`` is a reply its asker alone sees, and ``/domino forget``'s buttons work for the
one who asked alone."""

from __future__ import annotations

from bot.model.contract import ChatRef, UserRef
from bot.storage.store import Store
from bot.storage.values import MatchRow
from tests.adapters.discord.conftest import ALICE, BOB
from tests.adapters.discord.fake_api import EPHEMERAL, FakeDiscord
from tests.adapters.discord.gateway import Person
from tests.adapters.discord.harness import CHANNEL_ID, Bot, labels_of
from tests.adapters.discord.matches import plain_text
from tests.bot.stored import count_match

CHANNEL = ChatRef("dc", str(CHANNEL_ID))


def _user(person: Person) -> UserRef:
    return UserRef("dc", str(person.id), person.name)


async def _results(store: Store) -> None:
    """Alice and Bob finished a Tyaga match in the channel (Alice won)."""
    rows = [MatchRow(_user(ALICE), True, 30), MatchRow(_user(BOB), False, 0)]
    assert await count_match(store, CHANNEL, "m1", "tyaga", rows)


def _public_texts(fake: FakeDiscord) -> list[str]:
    return [plain_text(m) for m in fake.messages.values() if not m["flags"] & EPHEMERAL]


async def test_mydata_is_shown_to_the_asker_alone(
    bot: Bot, fake: FakeDiscord, store: Store
) -> None:
    await _results(store)
    record = await bot.command(ALICE, "mydata")
    reply = bot.reply_to(record)
    text = plain_text(reply)
    assert reply["flags"] & EPHEMERAL
    assert f"Kept about you (dc:{ALICE.id})" in text and "Alice" in text and "Tyaga" in text
    assert not any("Kept about you" in t or "Tyaga" in t for t in _public_texts(fake))


async def test_only_the_one_who_asked_can_press_forget(
    bot: Bot, fake: FakeDiscord, store: Store
) -> None:
    await _results(store)
    record = await bot.command(ALICE, "forget")
    question = bot.reply_to(record)
    assert question["flags"] & EPHEMERAL and "cannot be undone" in plain_text(question)
    assert labels_of(question) == ["Forget", "Cancel"]
    refused = await bot.press_label(BOB, question, "Forget")
    assert "Only the person who asked can answer this." in plain_text(bot.reply_to(refused))
    assert not (await store.kept_about(_user(ALICE))).empty
    cancelled = await bot.press_label(ALICE, question, "Cancel")
    assert "Nothing was deleted." in plain_text(bot.reply_to(cancelled))
    assert not (await store.kept_about(_user(ALICE))).empty
    done = await bot.press_label(ALICE, question, "Forget")
    assert "Everything kept about you is deleted." in plain_text(bot.reply_to(done))
    assert (await store.kept_about(_user(ALICE))).empty
    assert not (await store.kept_about(_user(BOB))).empty
