"""The Picture button pressed by someone who never opened his private chat with the bot:
Telegram refuses the photo there, so the press is answered with an alert that tells him
to open that chat, with the bot's link, and the group is sent nothing. Once he has
opened it, the same button sends him the picture there."""

from __future__ import annotations

from typing import Any

from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakewire import NEVER_STARTED
from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.players import data_with
from tests.adapters.telegram.tables import GROUP_ID, started_table

PICTURE = "1i_"


def _photos(fake: FakeBotApi, chat_id: int, status: int = 200) -> list[Any]:
    return [c for c in fake.calls_to("sendPhoto") if c.chat_id == chat_id and c.status == status]


async def test_a_picture_for_someone_who_never_opened_the_bot_points_him_there(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob, cy = people["ann"], people["bob"], people["cy"]
    assert cy.id not in fake.started
    d = make_driver()
    game_id = await started_table(d, ann, "/newgame tyaga", bob)
    table = await d.table(game_id)
    picture = data_with(table, PICTURE)[0]

    answer = await d.press(cy, table, picture)
    assert answer.get("show_alert"), answer
    assert "open our private chat" in answer["text"]
    assert f"https://t.me/{fake.username}" in answer["text"]
    (refused,) = _photos(fake, cy.id, status=403)
    assert refused.error == NEVER_STARTED
    assert _photos(fake, GROUP_ID) == []

    fake.open_bot(cy)
    await d.bot.drain()
    answer = await d.press(cy, table, picture)
    assert not answer.get("show_alert") and "to you alone" in answer["text"]
    assert len(_photos(fake, cy.id)) == 1
    assert _photos(fake, GROUP_ID) == []
