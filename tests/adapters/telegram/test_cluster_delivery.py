"""Delivery on a real Redis Cluster whose connections are cut again and again while chats'
tables are being shown: no chat's mailbox stops, and every table ends on its last screen.

The deliverer runs with the bot's own Redis wiring (slot book, pending book, send log)
on the cluster client the bot uses. Cutting every client connection makes redis-py's
cluster client disconnect a node's idle connections from the failing task, while other
tasks take them to write: that used to fail inside the library, outside what the store
reports as unavailable, and ended a chat's mailbox or dropped the screen it held.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import redis.asyncio as aredis
from redis.exceptions import RedisError
from telegram import Bot

from adapters.delivery.deliver import Deliverer
from adapters.delivery.slots import SlotBook
from adapters.telegram.carry import Carrier
from adapters.telegram.render import Renderer
from adapters.telegram.run import redis_wiring
from bot.model.contract import ChatRef, Show, Slot, SlotKind
from bot.storage.store import connect
from tests.adapters.delivery.vclock import ScaledClock
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.mailroom import Core, screen
from tests.bot.test_store_cluster import Servers, running_cluster

pytestmark = pytest.mark.slow
CHATS = 16
ROUNDS = 4


@pytest.fixture
def clock() -> ScaledClock:
    """Ten seconds a second: each chat may take a write a second."""
    return ScaledClock(speed=10.0)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Servers]]:
    with running_cluster(tmp_path_factory.mktemp("cluster")) as started:
        yield started


@pytest.fixture
async def client(cluster: tuple[str, Servers]) -> AsyncIterator[Any]:
    redis = connect(cluster[0], cluster=True)
    yield redis
    await redis.aclose()


async def _cut_connections(ports: list[int], stop: asyncio.Event, cut: asyncio.Condition) -> None:
    """Cut every client's connections to every node, every tenth of a second or so,
    telling ``cut`` each time."""
    rng = random.Random(5)
    admins = [aredis.Redis(port=port) for port in ports]
    try:
        while not stop.is_set():
            await asyncio.sleep(rng.uniform(0.05, 0.2))
            for admin in admins:
                await admin.execute_command("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes")
            async with cut:
                cut.notify_all()
    finally:
        for admin in admins:
            await admin.aclose()


async def _table_text(fake: FakeBotApi, book: SlotBook, slot: Slot) -> str | None:
    """What the slot's message shows (a message sent again while the store did not
    answer may stand above it: the table is the one the book points to)."""
    for _ in range(10):  # the test's own reads meet the cut connections too
        with contextlib.suppress(RedisError):
            message_id = await book.message_of(slot)
            break
    else:
        raise AssertionError("the book could not be read")
    message = fake.messages.get((int(slot.chat.chat_id), message_id or 0))
    return None if message is None else str(message["text"])


async def test_connections_cut_under_the_deliverer_end_no_mailbox_and_lose_no_screen(
    fake: FakeBotApi, clock: ScaledClock, cluster: tuple[str, Servers], client: Any
) -> None:
    users = [5000 + n for n in range(CHATS)]
    for user in users:
        fake.add_user(user, f"U{user}")
        fake.started.add(user)
    wiring = redis_wiring(client, clock, clock.wall)
    bot = Bot(fake.token, base_url=f"http://127.0.0.1:{fake.port}/bot")
    stop = asyncio.Event()
    async with bot:
        carrier = Carrier(bot, Renderer("domino_test_bot", clock.wall), wiring.book, clock)
        deliverer = Deliverer(
            carrier, wiring.send_log, clock, Core().report, pending=wiring.pending
        )
        tables = {user: Slot(SlotKind.TABLE, ChatRef("tg", str(user)), "g1") for user in users}
        cut = asyncio.Condition()
        cutting = asyncio.create_task(_cut_connections(list(cluster[1]), stop, cut))
        try:
            for version in range(1, ROUNDS + 1):
                for user in users:
                    deliverer.submit([Show(tables[user], screen(f"table {version}"), version)])
                async with cut:  # every round's screens meet at least one cut
                    await asyncio.wait_for(cut.wait(), 10)
                await asyncio.wait_for(deliverer.drain(), 120)
                shown = {user: await _table_text(fake, wiring.book, tables[user]) for user in users}
                behind = {user: text for user, text in shown.items() if text != f"table {version}"}
                assert behind == {}, f"round {version}: tables not on their last screen"
        finally:
            stop.set()
            await cutting
            await deliverer.close()
