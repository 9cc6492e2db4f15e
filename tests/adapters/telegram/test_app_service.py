"""The Telegram service as a whole, in front of a stand-in core: its timer loop, starting
and stopping, and how many updates it handles at once."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from typing import Any

import pytest
from telegram.error import InvalidToken

from adapters.telegram import run
from adapters.telegram.run import run_telegram
from bot.model.contract import Inbound, Notice, Outbound, Press
from bot.storage import keys
from tests.adapters.delivery.vclock import VirtualClock
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.harness import Running, running, settings_for
from tests.adapters.telegram.test_app import (  # noqa: F401 (fixtures)
    GROUP,
    GROUP_ID,
    EchoCore,
    ann,
    core,
    text,
)


async def test_what_the_timer_loop_brings_is_delivered(
    fake: FakeBotApi,
    core: EchoCore,  # noqa: F811
    clock: VirtualClock,
    ann: FakeUser,  # noqa: F811
) -> None:
    async with running(fake, core, clock) as bot:
        core.due = [Notice(GROUP, text("a computer moved"))]
        for _ in range(500):  # the timer loop takes it within 50 ms
            if not core.due:
                break
            await asyncio.sleep(0.01)
        await bot.drain()
    assert [m["text"] for m in fake.bot_messages(GROUP_ID)] == ["a computer moved"]
    assert core.ticks >= 1


async def test_the_service_stops_promptly_although_the_timer_loop_runs(
    fake: FakeBotApi,
    core: EchoCore,  # noqa: F811
    clock: VirtualClock,
) -> None:
    async with running(fake, core, clock, timer_poll_interval=30.0):
        await asyncio.sleep(0.05)
        started = asyncio.get_running_loop().time()
    assert asyncio.get_running_loop().time() - started < 5.0


async def test_run_telegram_serves_until_told_to_stop(
    fake: FakeBotApi,
    core: EchoCore,  # noqa: F811
    ann: FakeUser,  # noqa: F811
    redis_client: Any,
) -> None:
    stop = asyncio.Event()
    task = asyncio.create_task(
        run_telegram(settings_for(fake), core, redis=redis_client, stop_event=stop)
    )
    fake.type_text(ann, GROUP_ID, "/help")
    for _ in range(500):
        if fake.bot_messages(GROUP_ID):
            break
        await asyncio.sleep(0.01)
    stop.set()
    await asyncio.wait_for(task, 10)
    assert [m["text"] for m in fake.bot_messages(GROUP_ID)] == ["help ()"]
    assert await redis_client.hlen(keys.slot_messages(GROUP)) == 1


async def test_run_telegram_with_a_token_telegram_refuses_stops_with_the_error(
    fake: FakeBotApi,
    core: EchoCore,  # noqa: F811
    redis_client: Any,
) -> None:
    settings = settings_for(fake, telegram_token="7000:WRONG")
    with pytest.raises(InvalidToken):
        await asyncio.wait_for(
            run_telegram(settings, core, redis=redis_client, stop_event=asyncio.Event()), 10
        )


class WaitingCore(EchoCore):
    """A core whose every press waits (a while at most) until ``crowd`` presses are being
    handled at once, as presses wait on a store that answers slowly under load."""

    def __init__(self, crowd: int) -> None:
        super().__init__()
        self.crowd = crowd
        self.now = 0
        self.most_at_once = 0
        self._all_in = asyncio.Event()

    async def handle(self, inbound: Inbound) -> Sequence[Outbound]:
        if not isinstance(inbound, Press):
            return await super().handle(inbound)
        self.now += 1
        self.most_at_once = max(self.most_at_once, self.now)
        if self.now >= self.crowd:
            self._all_in.set()
        try:
            await asyncio.wait_for(self._all_in.wait(), 3.0)
        except TimeoutError:
            pass
        finally:
            self.now -= 1
        return await super().handle(inbound)


async def test_a_hundred_presses_are_handled_at_once_however_long_each_waits(
    fake: FakeBotApi,
    clock: VirtualClock,
    ann: FakeUser,  # noqa: F811
) -> None:
    """A press waits for no other update to be done: under load a press held a place for
    many seconds, and the presses after the first few dozen waited for a place first."""
    waiting = WaitingCore(100)
    async with running(fake, waiting, clock) as bot:
        fake.type_text(ann, GROUP_ID, "/rules")
        await bot.drain()
        (message,) = fake.bot_messages(GROUP_ID)
        queries = [fake.press(ann, message, "p_rules") for _ in range(100)]
        await bot.drain()
    assert waiting.most_at_once == 100
    assert all(fake.answered[q]["text"] == "you pressed p_rules" for q in queries)


class StuckCore(EchoCore):
    """A core whose timer round (``tick``) or press handling (``press``) never ends, not
    even when cancelled, until the test lets it go."""

    def __init__(self, stuck_in: str) -> None:
        super().__init__()
        self.stuck_in = stuck_in
        self.stuck = asyncio.Event()  # the stuck call has begun
        self.let_go = asyncio.Event()

    async def _hang(self) -> None:
        self.stuck.set()
        while not self.let_go.is_set():
            with contextlib.suppress(asyncio.CancelledError):
                await self.let_go.wait()

    async def tick(self, platform: str) -> Sequence[Outbound]:
        if self.stuck_in == "tick":
            await self._hang()
        return await super().tick(platform)

    async def handle(self, inbound: Inbound) -> Sequence[Outbound]:
        if self.stuck_in == "press" and isinstance(inbound, Press):
            await self._hang()
        return await super().handle(inbound)


@pytest.fixture
def quick_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run, "STOP_SECONDS", 0.2)
    monkeypatch.setattr(run, "DRAIN_SECONDS", 0.2)


async def _stops_although_stuck(bot: Running, stuck: StuckCore) -> None:
    """The service stops while ``stuck`` hangs (a minute is the test's own patience)."""
    await stuck.stuck.wait()
    stopping = asyncio.ensure_future(bot.services[0].stop())
    done, _ = await asyncio.wait({stopping}, timeout=60)
    stuck.let_go.set()
    assert done, "stop() waited for the stuck part"
    await stopping


@pytest.mark.usefixtures("quick_stop")
async def test_stopping_leaves_a_timer_round_that_never_ends_behind_and_says_so(
    fake: FakeBotApi, clock: VirtualClock, caplog: pytest.LogCaptureFixture
) -> None:
    stuck = StuckCore("tick")
    async with running(fake, stuck, clock) as bot:
        await _stops_although_stuck(bot, stuck)
    assert "stopping: the timer loop not done after 0.2 s" in caplog.text


@pytest.mark.usefixtures("quick_stop")
async def test_stopping_leaves_a_press_that_never_ends_behind_and_says_so(
    fake: FakeBotApi,
    clock: VirtualClock,
    ann: FakeUser,  # noqa: F811
    caplog: pytest.LogCaptureFixture,
) -> None:
    stuck = StuckCore("press")
    async with running(fake, stuck, clock) as bot:
        fake.type_text(ann, GROUP_ID, "/rules")
        await bot.drain()
        (message,) = fake.bot_messages(GROUP_ID)
        fake.press(ann, message, "p_rules")
        await _stops_although_stuck(bot, stuck)
    assert "stopping: the updates being handled not done after 0.2 s" in caplog.text
    assert "the timer loop" not in caplog.text  # the parts that could stop did
