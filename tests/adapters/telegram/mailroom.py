"""What the delivery tests share: a group with Ann in it on the fake Bot API, a
deliverer over it, a stand-in for the core's answer to an unreachable hand, and ways to
read what the fake holds."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest
from telegram import Bot

from adapters.delivery.deliver import Deliverer
from adapters.delivery.limiter import MemorySendLog
from adapters.delivery.slots import MemorySlotBook
from adapters.telegram.carry import Carrier
from adapters.telegram.render import Renderer
from bot.model.contract import (
    Button,
    ChatRef,
    Notice,
    Outbound,
    Screen,
    Slot,
    SlotKind,
    Unreachable,
    UserRef,
)
from tests.adapters.delivery.vclock import VirtualClock
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import Call

GROUP_ID = -100123
GROUP = ChatRef("tg", str(GROUP_ID))
ANN = UserRef("tg", "42", "Ann")
TABLE = Slot(SlotKind.TABLE, GROUP, "g1")
HAND = Slot(SlotKind.HAND, ChatRef("tg", "42"), "g1", ANN)
PING = Slot(SlotKind.PING, ChatRef("tg", "42"), "g1", ANN)


def screen(text: str, *buttons: Button) -> Screen:
    return Screen(lines=((text,),), buttons=(buttons,) if buttons else ())


class Core:
    """Stands in for the core's answer to an unreachable hand."""

    def __init__(self) -> None:
        self.unreachable: list[Unreachable] = []

    async def report(self, event: Unreachable) -> Sequence[Outbound]:
        self.unreachable.append(event)
        offer = screen("Ann, open the bot:", Button("Open", deep_link="h_g1"))
        return [Notice(GROUP, offer)]


@pytest.fixture
def world(fake: FakeBotApi) -> FakeBotApi:
    fake.add_group(GROUP_ID, "Dominoes")
    fake.add_user(42, "Ann")
    fake.started.add(42)
    return fake


@pytest.fixture
def core() -> Core:
    return Core()


@pytest.fixture
def deliverer(bot: Bot, clock: VirtualClock, core: Core) -> Deliverer:
    carrier = Carrier(bot, Renderer("domino_test_bot", clock.wall), MemorySlotBook(), clock)
    # Pings at once (none held): how a ping is carried is tested here, how it is held
    # back apart.
    return Deliverer(carrier, MemorySendLog(), clock, core.report)


def texts(fake: FakeBotApi, chat_id: int) -> list[str]:
    return [m["text"] for m in fake.bot_messages(chat_id)]


def writes(fake: FakeBotApi, chat_id: int) -> list[Call]:
    return [
        c
        for c in fake.calls
        if c.method in ("sendMessage", "editMessageText", "sendDocument")
        and c.chat_id == chat_id
        and c.status == 200
    ]


async def deliver(deliverer: Deliverer, *items: Outbound) -> None:
    deliverer.submit(items)
    await deliverer.drain()


async def let_run() -> None:
    """Let queued work run a little, as the event loop would between two updates."""
    for _ in range(3):
        await asyncio.sleep(0)
