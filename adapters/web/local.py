"""``domino-bot web``: a game against computers in the browser, on this machine.

The table is opened in a chat of its own (platform ``web``) through the same commands a
group sends (new, add computers, start), its link for seat 0 is printed, and the
deadlines (the computers' moves, the next deal) are ticked here, as a chat bot's
process would. What the core says to the chat is dropped: only the page shows the
table. A rematch asked for on the page opens a lobby with the same seats, which this
process starts, as the host of a group would.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Final

import redis.asyncio as aredis
from aiohttp import web

from adapters.web.app import WebTable, web_app
from bot.model import web_pass
from bot.model.contract import ChatRef, Command, Notice, Outbound, Response, Show, UserRef
from bot.model.gamedoc import LOBBY
from bot.table.sessions import Sessions
from bot.views.i18n import translator

log = logging.getLogger(__name__)

PLATFORM: Final = "web"
TICK: Final = 0.2  # seconds between looks at the deadlines that fell due
TITLE: Final = "this table"


class NotOpened(RuntimeError):
    """The core refused to open the table; the message says why, in its words."""


@dataclass(frozen=True, slots=True)
class LocalRequest:
    """What ``domino-bot web`` asked for."""

    variant: str = "tyaga"
    players: int = 2
    lang: str = "en"
    options: tuple[str, ...] = ()
    host: str = "127.0.0.1"
    port: int = 0  # 0: any free port
    pass_hours: float = 24.0


@dataclass(frozen=True, slots=True)
class LocalTable:
    """A local table being served: its chat, its player and the link to his seat."""

    chat: ChatRef
    user: UserRef
    url: str


@contextlib.asynccontextmanager
async def local_table(
    sessions: Sessions, redis: aredis.Redis, request: LocalRequest, secret: str = ""
) -> AsyncIterator[LocalTable]:
    """Open the table, serve it on ``request``'s address and tick its deadlines while
    the block runs; ``secret`` signs its link (a random one when empty)."""
    secret = secret or secrets.token_urlsafe(32)
    chat = ChatRef(PLATFORM, f"local-{secrets.token_hex(4)}")
    user = UserRef(PLATFORM, "1", translator(request.lang)("You"), request.lang)
    sessions.no_deal_pictures(PLATFORM)  # the page tells a deal's end
    await open_table(sessions, chat, user, request)
    table = WebTable(sessions, redis, secret=secret, default_lang=request.lang)
    runner = web.AppRunner(web_app(table), handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, request.host, request.port)
    await site.start()
    port = _bound_port(runner, request.port)
    expires = int(time.time() + request.pass_hours * 3600)
    ticket = web_pass.sign(secret, chat, user.key, expires)
    stop = asyncio.Event()
    ticking = asyncio.create_task(_tick(sessions, chat, user, stop), name="web-local-tick")
    try:
        # Listening on every address, the machine itself is reached at 127.0.0.1.
        shown = "127.0.0.1" if request.host in ("", "0.0.0.0", "::") else request.host
        yield LocalTable(chat, user, f"http://{shown}:{port}/?pass={ticket}")
    finally:
        # Told to stop rather than cancelled: the core's store calls may hold on to a
        # cancellation (a write in flight is finished), which would leave it ticking.
        stop.set()
        await ticking
        await runner.cleanup()


async def open_table(
    sessions: Sessions, chat: ChatRef, user: UserRef, request: LocalRequest
) -> None:
    """New, the computers, start: as a group's host would type them."""
    steps: list[tuple[str, tuple[str, ...]]] = [
        ("new", (request.variant, "timer=off", "pings=off", *request.options))
    ]
    steps += [("add_computer", ())] * (request.players - 1)
    steps.append(("start", ()))
    for name, args in steps:
        replies = await sessions.handle(_command(chat, user, name, args))
        if not any(isinstance(r, Show) for r in replies):
            raise NotOpened(" ".join(_said(replies)) or name)


async def _tick(sessions: Sessions, chat: ChatRef, user: UserRef, stop: asyncio.Event) -> None:
    """Play what falls due, and start a rematch's lobby (whose seats are all taken),
    until ``stop`` is set."""
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), TICK)
        if stop.is_set():
            return
        try:
            await sessions.tick(PLATFORM)
            game = await sessions.table_game(chat)
            if game is not None and game.doc.status == LOBBY:
                await sessions.handle(_command(chat, user, "start", ()))
        except Exception:
            log.exception("the local table's tick failed")


def _command(chat: ChatRef, user: UserRef, name: str, args: tuple[str, ...]) -> Command:
    return Command(chat, user, name, args, is_admin=True, chat_title=TITLE)


def _said(replies: list[Outbound]) -> list[str]:
    """What the core answered, as plain text (why a table could not be opened)."""
    return [
        reply.screen.plain_text()
        for reply in replies
        if isinstance(reply, Notice | Response) and reply.screen is not None
    ]


def _bound_port(runner: web.AppRunner, asked: int) -> int:
    """The port the site listens on (the one the system chose, when asked for 0)."""
    for address in runner.addresses:
        if isinstance(address, tuple) and len(address) >= 2:
            return int(address[1])
    return asked
