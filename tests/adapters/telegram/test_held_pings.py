"""Turn pings held back: sent once the player to move has waited twenty seconds, and
never when he moves before that."""

from __future__ import annotations

from typing import Any

import pytest

from adapters.telegram.deliver import PING_HOLD
from bot.flow import Game
from tests.adapters.telegram.driver import Driver
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.tables import first_mover, started_table
from tests.adapters.telegram.vclock import VirtualClock

pytestmark = pytest.mark.slow


async def _game(d: Driver) -> Game:
    game = await d.game()
    assert game is not None and game.state is not None and game.state.turn is not None
    return game


def _person(d: Driver, game: Game, seat: int) -> FakeUser:
    user = game.doc.seats[seat].user
    assert user is not None
    return d.people[user.user_id]


async def _move(d: Driver, game_id: str) -> None:
    user, hand, move = await first_mover(d, game_id)
    answer = await d.press(user, hand, move)
    assert not answer.get("text"), answer


def _pings_to(fake: FakeBotApi, user: FakeUser) -> list[str]:
    return [
        c.params["text"]
        for c in fake.calls_to("sendMessage")
        if c.chat_id == user.id and c.params["text"].startswith("Your turn at")
    ]


async def _turn_passed(d: Driver, game_id: str) -> FakeUser:
    """One move; the player whose turn it now is."""
    await _move(d, game_id)
    game = await _game(d)
    assert game.state is not None and game.state.turn is not None
    return _person(d, game, game.state.turn)


async def test_a_held_turn_ping_is_sent_once_its_player_has_waited_twenty_seconds(
    fake: FakeBotApi, clock: VirtualClock, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob = people["ann"], people["bob"]
    d = make_driver()
    game_id = await started_table(d, ann, "/newgame tyaga", bob)
    waiting = await _turn_passed(d, game_id)
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
    ann, bob = people["ann"], people["bob"]
    d = make_driver()
    game_id = await started_table(d, ann, "/newgame tyaga", bob)
    waiting = await _turn_passed(d, game_id)
    clock.advance(PING_HOLD / 2)
    game = await _game(d)
    assert game.state is not None and game.state.turn is not None
    if _person(d, game, game.state.turn) is waiting:
        await _move(d, game_id)
    clock.advance(PING_HOLD * 2)
    d.bot.services[0].adapter.deliverer.release_pings()
    await d.bot.settle()
    assert _pings_to(fake, waiting) == []
