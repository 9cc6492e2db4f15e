"""The web table on real parts: the core's sessions on a real Redis (the core tests'
``redis_url``), the aiohttp application on a loopback test server, pages as real
WebSocket clients. A table is opened in a chat of its own through the commands a
group sends, with seat 0 for a person and the rest computers."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field

import pytest
import redis.asyncio as aredis
from aiohttp import ClientWebSocketResponse, WSMsgType, web
from aiohttp.test_utils import TestClient, TestServer
from pydantic import TypeAdapter

from adapters.web import frames
from adapters.web.app import WebTable, web_app
from adapters.web.local import PLATFORM, LocalRequest, open_table
from adapters.web.moves import Deliver, drop
from bot.app.config import Settings
from bot.model import web_pass
from bot.model.contract import ChatRef, UserRef
from bot.model.decision import Game
from bot.storage.store import Store, connect
from bot.table.sessions import Sessions
from tests.bot.conftest import redis_client, redis_url  # noqa: F401  (shared fixtures)

SECRET = "a test secret that signs passes"
BOT_TOKEN = "123456:TEST-token-for-init-data"
QUICK = Settings(_env_file=None, computer_delay=0, next_deal_delay=None)
PERSON = UserRef(PLATFORM, "1", "Ann", "en")
STATE: TypeAdapter[frames.ToPage] = frames.TO_PAGE


@dataclass
class Worker:
    """One web worker: its own store connection, core and application."""

    sessions: Sessions
    table: WebTable
    client: TestClient[web.Request, web.Application]

    async def page(self, hello: frames.Hello) -> Page:
        socket = await self.client.ws_connect("/ws")
        await socket.send_str(hello.model_dump_json())
        return Page(socket)


@dataclass
class Page:
    """A page's socket, and every frame it was sent."""

    socket: ClientWebSocketResponse
    got: list[frames.ToPage] = field(default_factory=list)
    held: deque[frames.ToPage] = field(default_factory=deque)  # read, not yet taken

    async def next(self, timeout: float = 10.0) -> frames.ToPage:
        if self.held:
            return self.held.popleft()
        message = await self.socket.receive(timeout=timeout)
        assert message.type is WSMsgType.TEXT, (message.type, message.data, message.extra)
        frame = STATE.validate_json(message.data)
        self.got.append(frame)
        return frame

    async def until(
        self, wanted: Callable[[frames.ToPage], bool], timeout: float = 15.0
    ) -> frames.ToPage:
        async with asyncio.timeout(timeout):
            while True:
                frame = await self.next(timeout)
                if wanted(frame):
                    return frame

    async def answer(self, timeout: float = 15.0) -> frames.Answer:
        """The next answer; the states that came before it are left to be taken (a
        state may come before the answer to the move that made it)."""
        skipped: list[frames.ToPage] = []
        async with asyncio.timeout(timeout):
            while True:
                frame = await self.next(timeout)
                if isinstance(frame, frames.Answer):
                    self.held.extendleft(reversed(skipped))
                    return frame
                skipped.append(frame)

    async def send(self, frame: frames.Play | frames.Act | frames.Hello) -> None:
        await self.socket.send_str(frame.model_dump_json())

    async def close(self) -> None:
        await self.socket.close()


@dataclass
class Tables:
    """Opens tables and the workers that serve them, all closed at the test's end
    (``cluster``: the Redis Cluster ``redis_url`` is a node of)."""

    redis_url: str
    stack: AsyncExitStack
    stores: list[Store] = field(default_factory=list)
    cluster: bool = False

    async def worker(
        self, deliver: Deliver = drop, pace_clock: Callable[[], float] = time.monotonic
    ) -> Worker:
        client = connect(self.redis_url, cluster=self.cluster)
        store = Store(client)
        await store.tell_pages()
        self.stores.append(store)
        sessions = Sessions(store, QUICK)
        table = WebTable(
            sessions,
            client,
            secret=SECRET,
            bot_token=BOT_TOKEN,
            deliver=deliver,
            pace_clock=pace_clock,
        )
        served = TestClient(TestServer(web_app(table)))
        await self.stack.enter_async_context(served)
        return Worker(sessions, table, served)

    async def open(
        self,
        worker: Worker,
        variant: str = "tyaga",
        players: int = 2,
        host: UserRef = PERSON,
        options: tuple[str, ...] = (),
        chat: ChatRef | None = None,
    ) -> ChatRef:
        """A table with ``host`` at seat 0 and computers in the other seats, started (in
        ``chat``, or in a new chat: channels are shared by all databases)."""
        chat = chat or ChatRef(PLATFORM, uuid.uuid4().hex)
        request = LocalRequest(variant, players, options=options)
        await open_table(worker.sessions, chat, host, request)
        return chat


def ticket(chat: ChatRef, user_key: str | None = PERSON.key, expires: float = 0) -> str:
    return web_pass.sign(SECRET, chat, user_key, int(expires or time.time() + 3600))


async def game_of(worker: Worker, chat: ChatRef) -> Game:
    game = await worker.sessions.table_game(chat)
    assert game is not None
    return game


async def until_my_turn(
    worker: Worker, chat: ChatRef, seat: int = 0, *, or_over: bool = False
) -> Game:
    """Tick the computers' moves until it is ``seat``'s turn (or, ``or_over``, until
    the deal is over)."""
    async with asyncio.timeout(30):
        while True:
            game = await game_of(worker, chat)
            view = game.state
            if view is not None and view.turn == seat:
                return game
            if or_over and (view is None or view.turn is None):
                return game
            await worker.sessions.tick(PLATFORM)
            await asyncio.sleep(0.05)


@asynccontextmanager
async def tables_on(url: str, *, cluster: bool = False) -> AsyncIterator[Tables]:
    """Tables on the Redis at ``url``, their workers and stores closed after."""
    async with AsyncExitStack() as stack:
        made = Tables(url, stack, cluster=cluster)
        try:
            yield made
        finally:
            await stack.aclose()
            for store in made.stores:
                await store.close()


@pytest.fixture
async def tables(redis_client: aredis.Redis, redis_url: str) -> AsyncIterator[Tables]:  # noqa: F811
    async with tables_on(redis_url) as made:
        yield made


@dataclass
class Seated:
    """A page of seat 0 at its turn, its state, and the stored version."""

    worker: Worker
    chat: ChatRef
    page: Page
    state: frames.State
    version: int

    async def stored_version(self) -> int:
        return (await game_of(self.worker, self.chat)).version


async def seated_page(
    tables: Tables, deliver: Deliver = drop, pace_clock: Callable[[], float] = time.monotonic
) -> Seated:
    """A table opened, ticked to seat 0's turn, and his page at that version (on a worker
    whose host delivers what the core says to the chat with ``deliver``, its sockets'
    pace counted by ``pace_clock``)."""
    worker = await tables.worker(deliver, pace_clock)
    chat = await tables.open(worker)
    game = await until_my_turn(worker, chat)
    page = await worker.page(frames.Hello(ticket=ticket(chat)))
    await page.next()
    state = await page.until(lambda f: isinstance(f, frames.State) and f.version == game.version)
    assert isinstance(state, frames.State) and state.hand is not None
    return Seated(worker, chat, page, state, game.version)
