"""A group upgraded to a supergroup in the middle of a match: the table is posted anew
in the supergroup, every hand is drawn again at once with buttons naming it, and a press
on a hand drawn before the upgrade still plays its move."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.grouplife import migrate
from tests.adapters.telegram.tables import first_mover, started_table, writes

pytestmark = pytest.mark.slow
OLD, NEW = -500, -100501


async def test_hands_drawn_before_an_upgrade_still_play_and_are_drawn_again(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob = people["ann"], people["bob"]
    fake.add_group(OLD, "Basic", kind="group")
    old = make_driver(OLD)
    game_id = await started_table(old, ann, "/newgame tyaga", bob)
    mover, hand, move = await first_mover(old, game_id)
    stale_hand = copy.deepcopy(hand)  # as a phone that has not caught up still shows it
    before = len(fake.calls)
    migrate(fake, ann, OLD, NEW)
    await old.bot.drain()
    new = make_driver(NEW)
    new.seat(ann, bob)
    redrawn = {c.chat_id for c in fake.calls[before:] if c.method == "editMessageText"}
    assert {ann.id, bob.id} <= redrawn, "the hands were not drawn again at the upgrade"
    assert [c for c in writes(fake, NEW) if c.method == "sendMessage"], "no table in the new chat"
    answer = await new.press(mover, stale_hand, move)  # a press on the hand drawn before
    assert not answer.get("text"), answer
    game = await new.game()
    assert game is not None and game.doc.id == game_id and len(game.doc.moves) == 1
    assert game.doc.chat.key == f"tg:{NEW}"
    user, hand, move = await first_mover(new, game_id)  # the next player, from his new hand
    answer = await new.press(user, hand, move)
    assert not answer.get("text"), answer
    game = await new.game()
    assert game is not None and len(game.doc.moves) == 2
