"""A player who opens the bot from its profile (a bare /start) is told which tables have
a seat for him and given his hand at each; someone at no table is told how to open one."""

from __future__ import annotations

from typing import Any

import pytest

from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.tables import message_text, started_table

pytestmark = pytest.mark.slow


async def test_a_bare_start_lists_his_tables_and_gives_his_hands(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, cy = people["ann"], people["cy"]
    dee = fake.add_user(104, "Dee")
    d = make_driver()
    game_id = await started_table(d, ann, "/newgame tyaga", cy)  # Cy never opened the bot
    assert await d.hand(cy, game_id) is None
    fake.open_bot(cy)  # from the bot's profile: no link, no payload
    await d.bot.drain()
    said = [message_text(m) for m in fake.bot_messages(cy.id)]
    assert any("Your tables: Dominoes — Tyaga" in text for text in said), said
    hand = await d.hand(cy, game_id)
    assert hand is not None and "Your tiles" in message_text(hand)
    fake.open_bot(dee)  # at no table
    await d.bot.drain()
    (welcome,) = [message_text(m) for m in fake.bot_messages(dee.id)]
    assert "Add me to a group" in welcome
