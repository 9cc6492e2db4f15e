"""A table sent while the store's connection is cut, before its message could be
recorded, does not stay in the group beside the copy sent again once the store answers:
the players see one table, the one the slot book names.

The deliverer runs with the bot's own Redis wiring (slot book, pending book, send log) on
a real Redis reached through a line the test cuts the moment Telegram takes the table's
message: every open connection is closed, and every new one as soon as it comes, until
the deliverer, having failed to record the message, waits for the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from urllib.parse import urlsplit

import pytest
import redis.asyncio as aredis
from telegram import Bot

from adapters.delivery import deliver
from adapters.delivery.deliver import Deliverer
from adapters.telegram.carry import Carrier
from adapters.telegram.render import Renderer
from adapters.telegram.run import redis_wiring
from bot.model.contract import Show
from bot.storage.store import connect
from tests.adapters.delivery.vclock import VirtualClock
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import Call
from tests.adapters.telegram.mailroom import GROUP_ID, TABLE, Core, screen, texts


class CutLine:
    """A TCP relay to a Redis server that can be cut: :meth:`cut` closes every
    connection through it, and while it is cut each new one is closed as it comes."""

    def __init__(self, host: str, port: int) -> None:
        self._to = (host, port)
        self._open: set[asyncio.StreamWriter] = set()
        self._server: asyncio.Server | None = None
        self.is_cut = False
        self.port = 0

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        self.cut()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    def cut(self) -> None:
        self.is_cut = True
        for writer in list(self._open):
            writer.close()

    def mend(self) -> None:
        self.is_cut = False

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.is_cut:
            writer.close()
            return
        up_reader, up_writer = await asyncio.open_connection(*self._to)
        self._open |= {writer, up_writer}
        try:
            await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))
        finally:
            for end in (writer, up_writer):
                self._open.discard(end)
                end.close()


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(ConnectionError, OSError):
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    writer.close()


class _Waiting(logging.Handler):
    """Sees the deliverer say it waits for the store: what it held was put back."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.seen = asyncio.Event()

    def emit(self, record: logging.LogRecord) -> None:
        if record.getMessage().startswith("cannot reach the store"):
            self.seen.set()


@pytest.fixture
async def line(redis_client: aredis.Redis, redis_url: str) -> AsyncIterator[CutLine]:
    """A line to the emptied test database."""
    parts = urlsplit(redis_url)
    relay = CutLine(parts.hostname or "127.0.0.1", parts.port or 6379)
    await relay.start()
    try:
        yield relay
    finally:
        await relay.close()


async def test_a_table_whose_message_could_not_be_recorded_is_not_left_twice_in_the_group(
    fake: FakeBotApi, bot: Bot, clock: VirtualClock, line: CutLine, redis_url: str
) -> None:
    fake.add_group(GROUP_ID, "Dominoes")
    database = urlsplit(redis_url).path
    client = connect(f"redis://127.0.0.1:{line.port}{database}", timeout=2.0)
    wiring = redis_wiring(client, clock, clock.wall)
    carrier = Carrier(bot, Renderer("domino_test_bot", clock.wall), wiring.book, clock)
    deliverer = Deliverer(carrier, wiring.send_log, clock, Core().report, pending=wiring.pending)
    waiting = _Waiting()
    logging.getLogger(deliver.__name__).addHandler(waiting)

    async def cut_as_it_is_sent(call: Call) -> None:
        if call.method == "sendMessage" and not line.is_cut and not waiting.seen.is_set():
            line.cut()

    fake.watchers["cut"] = cut_as_it_is_sent
    try:
        deliverer.submit([Show(TABLE, screen("table 1"), 1)])
        await asyncio.wait_for(waiting.seen.wait(), 30)
        line.mend()
        await asyncio.wait_for(deliverer.drain(), 30)
        sent = [c for c in fake.calls_to("sendMessage") if c.status == 200]
        assert len(sent) == 2  # the first one could not be recorded, so it was sent again
        assert texts(fake, GROUP_ID) == ["table 1"]
        (shown,) = fake.bot_messages(GROUP_ID)
        assert await wiring.book.message_of(TABLE) == shown["message_id"]
    finally:
        logging.getLogger(deliver.__name__).removeHandler(waiting)
        await deliverer.close()
        await client.aclose()
