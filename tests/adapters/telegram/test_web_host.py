"""The web table served beside the Telegram bot: a player opens it with the pass his
private hand carries, plays a move on the page, and the group's table in Telegram
follows, carried by the bot's own delivery."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import socket
from collections.abc import AsyncIterator, Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest
import redis.asyncio as aredis

from adapters.telegram.run import page_delivery, run_telegram
from adapters.web import frames
from adapters.web.host import Deliveries, hosted_table, serving
from bot.__main__ import run_bots
from bot.app.config import Settings
from bot.model.contract import Notice
from bot.storage.store import Store
from bot.table.sessions import Sessions
from bot.views.i18n import translator
from tests.adapters.delivery.vclock import VirtualClock
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.harness import Running, running, settings_for
from tests.adapters.telegram.players import buttons
from tests.adapters.telegram.tables import PACE, started_table, turn_now
from tests.adapters.telegram.test_app import (  # noqa: F401 (fixtures)
    GROUP,
    GROUP_ID,
    EchoCore,
    ann,
    core,
    text,
)

pytestmark = pytest.mark.slow

WEB = {"web_public_url": "https://domino.example", "web_secret": "h" * 32}
TO_PAGE = frames.TO_PAGE


@pytest.fixture
async def settings(fake: FakeBotApi) -> Settings:
    return settings_for(fake, **PACE, **WEB)


@pytest.fixture
async def sessions(store: Store, settings: Settings) -> Sessions:
    await store.tell_pages()  # as the bot's process does when it opens its store
    return Sessions(store, settings, rng=random.Random(5))


@pytest.fixture
async def service(
    fake: FakeBotApi, clock: VirtualClock, sessions: Sessions, adapter_redis: aredis.Redis
) -> AsyncIterator[Running]:
    """The bot with its web table set up (this module's own, in place of the shared one)."""
    async with running(fake, sessions, clock, redis=adapter_redis, **PACE, **WEB) as bot:
        yield bot


@pytest.fixture
async def web_port(
    service: Running, sessions: Sessions, settings: Settings, adapter_redis: aredis.Redis
) -> AsyncIterator[int]:
    """The web table served on loopback, its pages' presses delivered by the bot's adapter."""
    pages = Deliveries()
    pages.by_platform["tg"] = page_delivery(service.services[0].adapter)
    table = hosted_table(settings, sessions, adapter_redis, pages)
    assert table is not None
    async with serving(table, "127.0.0.1", 0) as port:
        yield port


async def next_frame(socket: aiohttp.ClientWebSocketResponse) -> frames.ToPage:
    message = await socket.receive(timeout=10)
    assert message.type is aiohttp.WSMsgType.TEXT, message
    return TO_PAGE.validate_json(message.data)


async def test_a_move_made_on_the_page_is_shown_in_the_group(
    make_driver: Any, people: dict[str, FakeUser], web_port: int
) -> None:
    host, guest = people["ann"], people["bob"]
    d = make_driver()
    game_id = await started_table(d, host, "/newgame tyaga", guest)
    mover = (await turn_now(d)).mover
    hand = await d.hand(mover, game_id)
    assert hand is not None
    (link,) = [b for b in buttons(hand) if "web_app" in b]
    ticket = parse_qs(urlsplit(link["web_app"]["url"]).query)["pass"][0]
    before = (await d.table(game_id))["text"]
    async with aiohttp.ClientSession() as client:
        socket = await client.ws_connect(f"http://127.0.0.1:{web_port}/ws")
        await socket.send_str(frames.Hello(ticket=ticket).model_dump_json())
        welcome = await next_frame(socket)
        assert isinstance(welcome, frames.Welcome) and welcome.seat is not None
        state = await next_frame(socket)
        assert isinstance(state, frames.State) and state.hand is not None
        move = state.hand.moves[0]
        await socket.send_str(
            frames.Play(notation=move.notation, counter=state.hand.counter).model_dump_json()
        )
        answer = await next_frame(socket)
        while not isinstance(answer, frames.Answer):
            answer = await next_frame(socket)
        assert answer.ok, answer
        await socket.close()
    await d.bot.drain()
    after = (await d.table(game_id))["text"]
    assert after != before and "Line:" in after


async def soon(happened: Callable[[], bool]) -> None:
    """Wait up to five seconds for ``happened``; what follows checks whether it did."""
    for _ in range(500):
        if happened():
            return
        await asyncio.sleep(0.01)


async def test_run_telegram_lends_its_delivery_to_the_web_tables_pages(
    fake: FakeBotApi,
    core: EchoCore,  # noqa: F811
    ann: FakeUser,  # noqa: F811  (a member of the group, which makes it)
    redis_client: Any,
) -> None:
    stop = asyncio.Event()
    pages = Deliveries()
    task = asyncio.create_task(
        run_telegram(
            settings_for(fake), core, redis=redis_client, stop_event=stop, pages=pages.by_platform
        )
    )
    await soon(lambda: "tg" in pages.by_platform)
    await pages([Notice(GROUP, text("moved on the page"))])
    await soon(lambda: bool(fake.bot_messages(GROUP_ID)))
    stop.set()
    await asyncio.wait_for(task, 10)
    assert [m["text"] for m in fake.bot_messages(GROUP_ID)] == ["moved on the page"]


async def test_the_bots_process_serves_the_web_table_where_it_is_set_up(
    fake: FakeBotApi, redis_url: str
) -> None:
    with socket.socket() as probe:  # a port free a moment ago
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings = settings_for(
        fake, redis_url=redis_url, web_port=port, ai_workers=0, picture_workers=0, **WEB
    )
    bots = asyncio.create_task(run_bots(settings, ["telegram"], translator("en")))
    health: dict[str, Any] | None = None
    async with aiohttp.ClientSession() as client:
        for _ in range(500):
            with contextlib.suppress(aiohttp.ClientError):
                async with client.get(f"http://127.0.0.1:{port}/healthz") as reply:
                    health = await reply.json()
                    break
            await asyncio.sleep(0.02)
    os.kill(os.getpid(), signal.SIGTERM)  # as a service manager stops the bot
    assert await asyncio.wait_for(bots, 15) == 0
    assert health == {"ok": True}
