"""At LOG_LEVEL=DEBUG the real python-telegram-bot narrates every Bot API call; none of
it shows the token, the webhook secret or a private hand."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator
from typing import Any

import pytest

from bot.app.logging_setup import setup_logging
from tests.adapters.delivery.vclock import VirtualClock
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.harness import running
from tests.adapters.telegram.players import data_with
from tests.adapters.telegram.tables import MY_TILES, first_mover, started_table
from tests.adapters.telegram.test_app import EchoCore
from tests.adapters.telegram.test_webhook import SECRET, free_port, webhook_settings


@pytest.fixture
def debug_log(fake: FakeBotApi) -> Iterator[io.StringIO]:
    """Everything logged at DEBUG, as the bot writes it with the token and secret known."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    out = io.StringIO()
    setup_logging("text", "DEBUG", out, secrets=[fake.token, SECRET])
    try:
        yield out
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)


async def test_a_played_turn_logs_no_token_and_no_hand(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser], debug_log: io.StringIO
) -> None:
    ann, bob = people["ann"], people["bob"]
    d = make_driver()
    game_id = await started_table(d, ann, "/newgame tyaga", bob)
    user, hand, move = await first_mover(d, game_id)
    hand_data = [b["callback_data"] for row in hand["reply_markup"]["inline_keyboard"] for b in row]
    hand_text = hand["text"]
    await d.press(user, await d.table(game_id), data_with(await d.table(game_id), MY_TILES)[0])
    await d.press(user, hand, move)
    written = debug_log.getvalue()
    assert "Calling Bot API endpoint `sendMessage`" in written, "the library logged no call"
    assert fake.token not in written
    assert move in hand_data and not any(data in written for data in hand_data if data != "-")
    assert hand_text.splitlines()[2] not in written


async def test_setting_a_webhook_logs_no_secret(
    fake: FakeBotApi, clock: VirtualClock, debug_log: io.StringIO
) -> None:
    async with running(fake, EchoCore(), clock, **webhook_settings(free_port())):
        pass
    written = debug_log.getvalue()
    assert "setWebhook" in written, "the library logged no call"
    assert SECRET not in written and fake.token not in written
