"""Turn pings held back: sent once the player to move has waited twenty seconds, and
never when he moves before that."""

from __future__ import annotations

from typing import Any

import pytest

from adapters.telegram.deliver import PING_HOLD
from tests.adapters.telegram.driver import Driver
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.tables import move_once, started_table, turn_now
from tests.adapters.telegram.vclock import VirtualClock

pytestmark = pytest.mark.slow


def _pings_to(fake: FakeBotApi, user: FakeUser) -> list[str]:
    return [
        c.params["text"]
        for c in fake.calls_to("sendMessage")
        if c.chat_id == user.id and c.params["text"].startswith("Your turn at")
    ]


async def _turn_passed(make_driver: Any, people: dict[str, FakeUser]) -> tuple[Driver, FakeUser]:
    """Ann and Bob start a table and one of them moves: the driver, and the player whose
    turn it now is."""
    d = make_driver()
    game_id = await started_table(d, people["ann"], "/newgame tyaga", people["bob"])
    await move_once(d, game_id)
    return d, (await turn_now(d)).mover


async def test_a_held_turn_ping_is_sent_once_its_player_has_waited_twenty_seconds(
    fake: FakeBotApi, clock: VirtualClock, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    d, waiting = await _turn_passed(make_driver, people)
    deliverer = d.bot.services[0].adapter.deliverer
    clock.advance(PING_HOLD - 1)
    deliverer.release_pings()
    await d.bot.settle()
    assert _pings_to(fake, waiting) == [], "the ping did not wait"
    clock.advance(2)
    deliverer.release_pings()
    await d.bot.settle()
    assert len(_pings_to(fake, waiting)) == 1


async def test_a_held_turn_ping_is_not_sent_when_its_player_moves_in_time(
    fake: FakeBotApi, clock: VirtualClock, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    d, waiting = await _turn_passed(make_driver, people)
    clock.advance(PING_HOLD / 2)
    turn = await turn_now(d)
    assert turn.mover is waiting
    await move_once(d, turn.game.doc.id)
    clock.advance(PING_HOLD * 2)
    d.bot.services[0].adapter.deliverer.release_pings()
    await d.bot.settle()
    assert _pings_to(fake, waiting) == []
