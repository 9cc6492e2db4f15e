"""Redis stopped under a running bot process: every press and command is answered at
once with the unavailable message, and once Redis is back the match goes on to its end,
every table showing it, with no task of the bot dead.

The bot runs as its own process against the fake Bot API and a Redis server of the
test's own (with an append-only file, so a stop loses nothing), stopped and started
again on the same port.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.soak.group import Group
from bench.soak.kill import bot_env
from bench.soak.presses import Tally
from bench.soak.procs import BotProcess, RedisServer
from bot.storage.store import Store, connect
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.players import hand_presses, hand_slot

pytestmark = pytest.mark.slow
GROUP_ID = -1_000_800
UNAVAILABLE = "The table is unavailable, try again in a moment"
AT_ONCE = 3.0  # seconds a press's answer may take while Redis is down
# A reply in the group also waits for the group's turn (two messages in six seconds).
IN_TURN = 9.0


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RedisServer]:
    redis = RedisServer(tmp_path / "redis")
    redis.start()
    try:
        yield redis
    finally:
        redis.stop()


async def test_while_redis_is_down_everyone_is_answered_and_afterwards_the_match_ends(
    fake: FakeBotApi, server: RedisServer, tmp_path: Path
) -> None:
    bot = BotProcess(bot_env(fake, server.url) | {"LOG_LEVEL": "INFO"}, tmp_path / "bot.log")
    client = connect(server.url, timeout=2.0)
    tally = Tally()
    gate = asyncio.Event()
    gate.set()
    group = Group(fake, Store(client), client, GROUP_ID, 2, tally, gate)  # Baghdad, two
    bot.start()
    try:
        match = asyncio.create_task(group.play(1, time.monotonic() + 240))
        hand = await _a_hand_to_press(group)
        gate.clear()
        await asyncio.to_thread(server.stop)

        user, message, data = hand
        pressed = fake.press(user, message, data)
        fake.type_text(user, GROUP_ID, "/scores")
        asked = time.monotonic()
        answered_after = None
        while time.monotonic() - asked < IN_TURN:
            if answered_after is None and pressed in fake.answered:
                answered_after = time.monotonic() - asked
            replies = [m for m in fake.bot_messages(GROUP_ID) if UNAVAILABLE in m.get("text", "")]
            if answered_after is not None and replies:
                break
            await asyncio.sleep(0.05)
        assert fake.answered.get(pressed, {}).get("text") == UNAVAILABLE
        assert answered_after is not None and answered_after < AT_ONCE
        assert replies, "/scores got no answer while Redis was down"

        await asyncio.to_thread(server.start)
        gate.set()
        await asyncio.wait_for(match, 240)  # it checks the table shows the match's end
        assert tally.games == 1
        assert tally.problems == []
        assert bot.alive
        log = (tmp_path / "bot.log").read_text()
        assert "Task exception was never retrieved" not in log
        assert "Traceback" not in log
    finally:
        await asyncio.to_thread(bot.kill)
        await client.aclose()


async def _a_hand_to_press(group: Group) -> tuple[FakeUser, dict[str, Any], str]:
    """Wait until a player holds a hand with a move to press: him, it and the move."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        game = await group.truth.load(group.chat)
        if game is not None and game.state is not None and game.state.turn is not None:
            seat = game.doc.seats[game.state.turn]
            if seat.user is not None:
                user = group.fake.users[int(seat.user.user_id)]
                message = await _hand(group, user.id, game.doc.id)
                moves = [d for d, m in hand_presses(message, game) if m] if message else []
                if message is not None and moves:
                    return user, message, moves[0]
        await asyncio.sleep(0.1)
    raise AssertionError("nobody was ever offered a move")


async def _hand(group: Group, user_id: int, game_id: str) -> dict[str, Any] | None:
    message_id = await group.book.message_of(hand_slot(user_id, game_id))
    return None if message_id is None else group.fake.messages.get((user_id, message_id))
