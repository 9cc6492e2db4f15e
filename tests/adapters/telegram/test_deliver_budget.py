"""Delivery when a send budget is spent or the store is down: retries wait for turns
of their own, nothing queued is lost while Redis is away, and a presser's own hand goes
first without holding up the press handler, the rest following his hand alone."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import redis.exceptions
from telegram import Bot

from adapters.delivery.deliver import Deliverer
from adapters.delivery.limiter import MemorySendLog, Reservation, Rule
from adapters.delivery.slots import MemorySlotBook
from adapters.telegram.budget import GROUP_RULES
from adapters.telegram.carry import Carrier
from adapters.telegram.render import Renderer
from bot.model.contract import Response, Show
from tests.adapters.delivery.test_limiter import assert_keeps
from tests.adapters.delivery.vclock import VirtualClock
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import Call
from tests.adapters.telegram.mailroom import (
    GROUP,
    GROUP_ID,
    HAND,
    TABLE,
    Core,
    deliver,
    screen,
    texts,
)


async def test_retries_and_messages_sent_again_wait_for_turns_of_their_own(
    world: FakeBotApi, deliverer: Deliverer
) -> None:
    await deliver(deliverer, Show(TABLE, screen("v1"), 1))
    (first,) = world.bot_messages(GROUP_ID)
    world.remove_message(GROUP_ID, first["message_id"])
    world.inject("editMessageText", 429, "Too Many Requests: retry after 1", retry_after=1)
    await deliver(deliverer, Show(TABLE, screen("v2"), 2))
    attempts = [c for c in world.calls if c.chat_id == GROUP_ID]
    assert [c.method for c in attempts] == [
        "sendMessage",
        "editMessageText",
        "editMessageText",
        "sendMessage",
    ]
    assert_keeps([c.at for c in attempts], GROUP_RULES)


class FlakySendLog(MemorySendLog):
    """A send log whose store is down for its first ``down`` reservations."""

    def __init__(self, down: int) -> None:
        super().__init__()
        self.down = down

    async def reserve(
        self, chat: str, rules: Sequence[Rule], now: float, not_before: float | None = None
    ) -> Reservation:
        if self.down > 0:
            self.down -= 1
            raise redis.exceptions.ConnectionError("Connection refused")
        return await super().reserve(chat, rules, now, not_before)


async def test_a_store_outage_delays_delivery_and_loses_nothing(
    world: FakeBotApi, bot: Bot, clock: VirtualClock, core: Core
) -> None:
    carrier = Carrier(bot, Renderer("domino_test_bot", clock.wall), MemorySlotBook(), clock)
    deliverer = Deliverer(carrier, FlakySendLog(down=3), clock, core.report)
    deliverer.submit([Show(TABLE, screen("move 1"), 1), Response(GROUP, screen("scores"))])
    deliverer.submit([Show(TABLE, screen("move 2"), 2)])
    await asyncio.wait_for(deliverer.drain(), 10)
    assert texts(world, GROUP_ID) == ["scores", "move 2"]
    assert deliverer.idle


class TurnByTurnSendLog(MemorySendLog):
    """A send log that gives Ann's private chat a turn only when the test hands one out,
    as a long queue for the bot's thirty writes a second does."""

    def __init__(self) -> None:
        super().__init__()
        self.turns: asyncio.Queue[None] = asyncio.Queue()

    async def reserve(
        self, chat: str, rules: Sequence[Rule], now: float, not_before: float | None = None
    ) -> Reservation:
        if chat == HAND.chat.key:
            await self.turns.get()
        return await super().reserve(chat, rules, now, not_before)


async def test_a_pressers_hand_goes_first_without_holding_up_the_press_handler(
    world: FakeBotApi, bot: Bot, clock: VirtualClock, core: Core
) -> None:
    send_log = TurnByTurnSendLog()
    carrier = Carrier(bot, Renderer("domino_test_bot", clock.wall), MemorySlotBook(), clock)
    deliverer = Deliverer(carrier, send_log, clock, core.report)
    deliverer.first([Show(HAND, screen("hand 2"), 2)], [Show(TABLE, screen("table 2"), 2)])
    # The handler is free at once; what waits behind the hand stays queued meanwhile,
    # however long the group's own free budget would let it go (real seconds here).
    await asyncio.sleep(0.5)
    assert not deliverer.idle
    assert world.bot_messages(GROUP_ID) == []
    send_log.turns.put_nowait(None)
    await deliverer.drain()
    shown = [(c.chat_id, c.params["text"]) for c in world.calls if c.method == "sendMessage"]
    assert shown == [(42, "hand 2"), (GROUP_ID, "table 2")]


async def test_a_press_s_table_follows_the_presser_s_hand_not_everything_queued_after_it(
    world: FakeBotApi, bot: Bot, clock: VirtualClock, core: Core
) -> None:
    """While a write waits long for its turn, the presser's private chat gets newer screens
    (a hand redrawn, the next turn's): the table goes out once his hand has, without
    waiting for his mailbox to empty, which it may never do under load."""
    send_log = TurnByTurnSendLog()
    carrier = Carrier(bot, Renderer("domino_test_bot", clock.wall), MemorySlotBook(), clock)
    deliverer = Deliverer(carrier, send_log, clock, core.report)

    async def redrawn_meanwhile(call: Call) -> None:
        if call.chat_id == 42 and call.params.get("text") == "hand 2":
            deliverer.submit([Show(HAND, screen("hand 3"), 3)])

    world.watchers["redrawn"] = redrawn_meanwhile
    deliverer.first([Show(HAND, screen("hand 2"), 2)], [Show(TABLE, screen("table 2"), 2)])
    send_log.turns.put_nowait(None)  # the turn of "hand 2" only
    for _ in range(500):  # until the table is sent, or long after it should have been
        if world.bot_messages(GROUP_ID):
            break
        await asyncio.sleep(0.01)
    shown = [(c.chat_id, c.params["text"]) for c in world.calls if c.method == "sendMessage"]
    assert shown == [(42, "hand 2"), (GROUP_ID, "table 2")]
    assert not deliverer.idle  # "hand 3" still waits for its turn
    send_log.turns.put_nowait(None)
    await deliverer.drain()
    edited = [c.params["text"] for c in world.calls if c.method == "editMessageText"]
    assert edited == ["hand 3"]
