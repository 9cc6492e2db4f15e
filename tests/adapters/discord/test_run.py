"""``domino-bot discord``: the bot connects to the gateway, syncs its commands, answers
interactions that arrive over the socket, runs its timer loop, and stops on a signal."""

from __future__ import annotations

import asyncio

import redis.asyncio as aredis

from adapters.discord.client import run_discord
from bot.app.config import load_settings
from bot.model.contract import ChatRef, Screen, Show, Slot, SlotKind
from tests.adapters.discord.conftest import ALICE, BOB
from tests.adapters.discord.fake_api import FakeDiscord
from tests.adapters.discord.fake_socket import FakeSocket
from tests.adapters.discord.gateway import Gateway
from tests.adapters.discord.harness import CHANNEL_ID, GUILD_ID
from tests.adapters.discord.scripted import ScriptedCore


async def until(condition: object, timeout: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():  # type: ignore[operator]
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.01)


async def test_the_bot_runs_on_the_gateway_until_it_is_told_to_stop(
    fake: FakeDiscord, redis_client: aredis.Redis
) -> None:
    gateway = Gateway(fake, None, GUILD_ID)
    gateway.add_channel(CHANNEL_ID)
    socket = FakeSocket(fake, gateway, [ALICE, BOB])
    core = ScriptedCore()
    table = Slot(SlotKind.TABLE, ChatRef("dc", str(CHANNEL_ID)), "g1abcdef")
    core.ticks.append([Show(table, Screen((("From the timer loop",),)), 1)])
    settings = load_settings(None, discord_token="fake-token", timer_poll_interval=0.05)
    stop = asyncio.Event()
    running = asyncio.create_task(run_discord(settings, core, redis=redis_client, stop_event=stop))
    try:
        await asyncio.wait_for(socket.identified.wait(), 10)
        assert socket.identify["token"] == "fake-token"
        assert [c["name"] for c in fake.commands["global"]] == ["domino"]

        payload, record = gateway.command_payload(ALICE, CHANNEL_ID, "help", {})
        await socket.dispatch("INTERACTION_CREATE", payload)
        await until(lambda: bool(record.callbacks))
        assert [i.name for i in core.inbounds] == ["help"]  # type: ignore[union-attr]

        await until(lambda: bool(fake.live_channel_messages(CHANNEL_ID)))
        (message,) = fake.live_channel_messages(CHANNEL_ID)
        assert message["content"] == "From the timer loop"
    finally:
        stop.set()
        await asyncio.wait_for(running, 10)
    assert running.exception() is None
