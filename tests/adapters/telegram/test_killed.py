"""A bot process killed with SIGKILL while a table edit or a reply is on its way: the
process started after it shows what the store holds, a move and a match's end alike, and
sends the reply.

The bot runs as its own process against the fake Bot API and the test Redis. The fake
holds the table edit the kill is to catch until the process is dead, then refuses it,
so the edit never lands: only the next process can bring the table up to date.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as aredis

from bench.soak.group import Group
from bench.soak.kill import bot_env
from bench.soak.presses import Tally
from bench.soak.procs import BotProcess
from bot.storage.store import Store
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import Call
from tests.adapters.telegram.players import tiles_in

pytestmark = pytest.mark.slow
GROUP_ID = -1_000_900
# Seconds a restarted process may take to bring the table up to date (at worst it waits
# out the hold on the slot and the turn in the send log that the killed process left).
SHOWN_WAIT = 60.0


class Catch:
    """Holds the first group call of ``method`` that ``matches`` (a table edit, by
    default) until :meth:`drop` refuses it."""

    def __init__(
        self, fake: FakeBotApi, matches: Callable[[Call], bool], method: str = "editMessageText"
    ) -> None:
        self.fake = fake
        self.matches = matches
        self.method = method
        self.caught: Call | None = None
        self.arrived = asyncio.Event()
        self.released = asyncio.Event()
        fake.watchers["catch"] = self.watch

    async def watch(self, call: Call) -> None:
        edit = call.method == self.method and call.chat_id == GROUP_ID
        if self.caught is None and edit and self.matches(call):
            self.caught = call
            self.fake.inject(self.method, 400, "Bad Request: held", when=self.held)
            self.arrived.set()
            await self.released.wait()

    def held(self, params: dict[str, Any]) -> bool:
        return self.caught is not None and params is self.caught.params

    def drop(self) -> None:
        del self.fake.watchers["catch"]
        self.released.set()


@pytest.fixture
async def bot(fake: FakeBotApi, redis_url: str, tmp_path: Any) -> AsyncIterator[BotProcess]:
    # No turn runs out while the table is watched: only a restarted process redraws it.
    env = bot_env(fake, redis_url) | {"LOG_LEVEL": "INFO", "TURN_TIMEOUT": "300"}
    process = BotProcess(env, tmp_path / "bot.log")
    process.start()
    try:
        yield process
    finally:
        await asyncio.to_thread(process.kill)


def group_playing(fake: FakeBotApi, redis: aredis.Redis, plan: int) -> tuple[Group, Tally]:
    """People in a group who play the soak's match ``plan`` (see its PLANS)."""
    tally = Tally()
    gate = asyncio.Event()
    gate.set()
    return Group(fake, Store(redis), redis, GROUP_ID, plan, tally, gate), tally


async def _kill_and_restart(bot: BotProcess, catch: Catch) -> None:
    await asyncio.wait_for(catch.arrived.wait(), 120)
    await asyncio.to_thread(bot.kill)
    catch.drop()
    bot.start()


async def test_a_move_whose_table_edit_died_with_the_process_is_shown_after_a_restart(
    bot: BotProcess, fake: FakeBotApi, redis_client: aredis.Redis, tmp_path: Path
) -> None:
    group, _ = group_playing(fake, redis_client, 2)  # Baghdad, two people
    # The first edit that adds a tile to the line: a move's.
    catch = Catch(group.fake, lambda call: bool(tiles_in(str(call.params.get("text", "")))))
    match = asyncio.create_task(group.play(1, time.monotonic() + 300))
    await catch.arrived.wait()
    group.gate.clear()  # the people wait for the table, so no later move replaces it
    await _kill_and_restart(bot, catch)
    assert catch.caught is not None
    wanted = tiles_in(catch.caught.params["text"])
    message_id = catch.caught.params["message_id"]
    assert tiles_in(group.fake.messages[(GROUP_ID, message_id)].get("html", "")) != wanted
    deadline = time.monotonic() + SHOWN_WAIT
    while time.monotonic() < deadline:
        text = group.fake.messages[(GROUP_ID, message_id)].get("html", "")
        if wanted <= tiles_in(text):
            break
        await asyncio.sleep(0.1)
    else:
        pytest.fail(f"the table never showed the move: {wanted} not in {tiles_in(text)}")
    match.cancel()
    # The killed process's turn for that edit was still on its way in the send log: the new
    # process took it over instead of waiting out the longest a Bot API call may take.
    logged = (tmp_path / "bot.log").read_text()
    assert "taking over a turn in tg:-1000900 from process" in logged


async def test_a_match_end_whose_table_died_with_the_process_is_shown_after_a_restart(
    bot: BotProcess, fake: FakeBotApi, redis_client: aredis.Redis
) -> None:
    group, tally = group_playing(fake, redis_client, 1)  # Tyaga, a person and a computer
    # The match's result is posted anew, below the last deal's summary.
    ended = Catch(
        group.fake,
        lambda call: "The match is over" in str(call.params.get("text", "")),
        method="sendMessage",
    )
    match = asyncio.create_task(group.play(1, time.monotonic() + 300))
    await _kill_and_restart(bot, ended)
    game = await group.truth.store.last_game(group.chat)
    assert game is not None and game["status"] == "finished"
    await asyncio.wait_for(match, 300)  # it checks that the table shows the end
    assert tally.games == 1
    assert tally.problems == []


async def test_a_reply_whose_sending_died_with_the_process_is_sent_after_a_restart(
    bot: BotProcess, fake: FakeBotApi, tmp_path: Path
) -> None:
    fake.add_group(GROUP_ID, "Rules")
    ann = fake.add_user(5_000_001, "Ann")
    catch = Catch(fake, lambda call: "reply_parameters" in call.params, method="sendMessage")
    typed = fake.type_text(ann, GROUP_ID, "/rules tyaga")["message"]
    await _kill_and_restart(bot, catch)

    def replies() -> list[dict[str, Any]]:
        return [
            m
            for m in fake.bot_messages(GROUP_ID)
            if m.get("reply_to_message", {}).get("message_id") == typed["message_id"]
        ]

    deadline = time.monotonic() + SHOWN_WAIT
    while not replies() and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    assert len(replies()) == 1
    assert "tyaga" in replies()[0]["text"].lower()
    logged = (tmp_path / "bot.log").read_text()
    assert "taking over 1 queued messages for tg:-1000900 from gone processes" in logged
