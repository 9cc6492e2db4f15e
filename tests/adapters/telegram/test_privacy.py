"""A player's own data through the real python-telegram-bot against the fake Bot API:
``/mydata`` typed in a group reaches his private chat and never the group (which, when
the bot may not write to him, gets only a button that opens that chat); ``/forget``'s
buttons work for the one who asked alone."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.model.contract import ChatRef, UserRef
from bot.storage.store import Store
from bot.storage.values import MatchRow
from tests.adapters.delivery.vclock import VirtualClock
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.harness import running
from tests.adapters.telegram.players import buttons, data_with
from tests.adapters.telegram.tables import GROUP_ID
from tests.adapters.telegram.test_app import EchoCore
from tests.bot.stored import count_match

GROUP = ChatRef("tg", str(GROUP_ID))


async def _results(store: Store, *people: FakeUser) -> None:
    """The people finished a Tyaga match in the group (the first won)."""
    rows = [
        MatchRow(UserRef("tg", str(p.id), p.first_name), n == 0, 30 if n == 0 else 0)
        for n, p in enumerate(people)
    ]
    assert await count_match(store, GROUP, "m1", "tyaga", rows)


def _texts(fake: FakeBotApi, chat_id: int) -> list[str]:
    return [m.get("text", "") for m in fake.bot_messages(chat_id)]


async def test_mydata_in_a_group_goes_to_the_private_chat_only(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser], store: Store
) -> None:
    ann, bob = people["ann"], people["bob"]
    await _results(store, ann, bob)
    d = make_driver()
    await d.say(ann, "/mydata")
    [private] = _texts(fake, ann.id)
    assert "Kept about you (tg:101)" in private and "Ann" in private and "Tyaga" in private
    assert f"tg:{GROUP_ID}" in private
    assert not any("Kept about you" in t or "Tyaga" in t for t in _texts(fake, GROUP_ID))


async def test_mydata_for_someone_the_bot_cannot_write_to_offers_the_private_chat(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser], store: Store
) -> None:
    ann, cy = people["ann"], people["cy"]  # Cy never opened the bot
    await _results(store, ann, cy)
    d = make_driver()
    await d.say(cy, "/mydata")
    assert _texts(fake, cy.id) == []
    [offer] = [m for m in fake.bot_messages(GROUP_ID) if "private" in m.get("text", "")]
    assert (
        "Cy" not in offer["text"] and "Tyaga" not in offer["text"] and "tg:103" not in offer["text"]
    )
    [link] = [b["url"] for b in buttons(offer) if "url" in b]
    await d.open_from_deep_link(cy, link)
    [private] = _texts(fake, cy.id)
    assert "Kept about you (tg:103)" in private and "Cy" in private and "Tyaga" in private


async def test_only_the_one_who_asked_can_press_forget(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser], store: Store
) -> None:
    ann, bob = people["ann"], people["bob"]
    await _results(store, ann, bob)
    d = make_driver()
    await d.say(ann, "/forget")
    [question] = [m for m in fake.bot_messages(GROUP_ID) if "cannot be undone" in m["text"]]
    assert [b["text"] for b in buttons(question)] == ["Forget", "Cancel"]
    forget, cancel = data_with(question, "1f_y_")[0], data_with(question, "1f_n_")[0]
    answer = await d.press(bob, question, forget)
    assert answer["text"] == "Only the person who asked can answer this." and answer["show_alert"]
    assert not (await store.kept_about(UserRef("tg", str(ann.id), "Ann"))).empty
    answer = await d.press(ann, question, cancel)
    assert answer["text"] == "Nothing was deleted."
    assert not (await store.kept_about(UserRef("tg", str(ann.id), "Ann"))).empty
    answer = await d.press(ann, question, forget)
    assert answer["text"] == "Everything kept about you is deleted."
    assert (await store.kept_about(UserRef("tg", str(ann.id), "Ann"))).empty
    assert not (await store.kept_about(UserRef("tg", str(bob.id), "Bob"))).empty


async def test_an_update_that_fails_is_logged_by_its_ids_not_its_names(
    fake: FakeBotApi, clock: VirtualClock, caplog: pytest.LogCaptureFixture
) -> None:
    core = EchoCore()
    fake.add_group(GROUP_ID, "Zyx Club")
    ann = fake.add_user(101, "Annabel")
    async with running(fake, core, clock) as bot:
        core.fail = True
        fake.type_text(ann, GROUP_ID, "/join")
        await bot.drain()
    [failed] = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert failed.getMessage().endswith(f"from 101 in {GROUP_ID} could not be handled")
    assert "Annabel" not in caplog.text and "Zyx" not in caplog.text
