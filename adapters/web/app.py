"""The web table's aiohttp application: the page (``GET /``, ``/static/…``), a health
check (``GET /healthz``) and the table's WebSocket (``GET /ws``).

A host process (the Telegram or Discord bot, or ``domino-bot web``) builds one
:class:`WebTable` on its core and its Redis, and mounts :func:`web_app` where it
listens. The socket says nothing about a table before the page has proved who it is:
its first frame must be a :class:`~adapters.web.frames.Hello` with a pass or Telegram's
initData; anything else closes it with code 4401 and a short reason. Then it is sent a
:class:`~adapters.web.frames.Welcome` and the table's state, kept live after.

After the hello, a page's frames are held to a pace (:mod:`adapters.web.limiter`): one
sent too fast is answered "too fast" and goes no further, and a page that keeps at it
is closed with code 4429. A text frame that is none of ours is answered that the table
did not understand it; a binary frame closes the socket (1003), and so does one larger
than :data:`MAX_FRAME` (1009, by aiohttp). None of them reaches the core.
"""

from __future__ import annotations

import contextlib
import logging
import time
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Final

import redis.asyncio as aredis
from aiohttp import WSCloseCode, WSMsgType, web
from pydantic import ValidationError

from adapters.web import frames, moves
from adapters.web.limiter import Limiter, Verdict
from adapters.web.live import Live
from adapters.web.moves import Core, Deliver
from adapters.web.page import Page, page_language
from adapters.web.views import Models, StateTexts
from adapters.web.who import Gate, Refused
from adapters.web.words import page_words
from bot.model.decision import Game
from bot.storage.values import StoreUnavailable
from bot.views.i18n import N_

log = logging.getLogger(__name__)

STATIC: Final = Path(__file__).parent / "static"
UNAUTHORIZED: Final = 4401  # the close code of a page that did not prove who it is
MAX_FRAME: Final = 8 * 1024  # bytes a page's frame may hold
HEARTBEAT: Final = 25.0  # seconds between pings, under the proxies' usual idle minute
HELLO_WAIT: Final = 10.0  # seconds a socket may stay silent before its hello
FLOODED: Final = 4429  # the close code of a page that kept sending too fast (HTTP's 429)
TOO_FAST: Final = N_("Too fast: wait a moment before the next move")
NOT_UNDERSTOOD: Final = N_("The table did not understand the page: reload it")
# Browsers offer permessage-deflate, and a socket that takes it holds a compressor's and a
# decompressor's state for as long as it is open: 129 KB of a worker's memory a page
# against 16 KB without (bench/bench_web_idle.py), to save a page's state frame of two
# or three kilobytes a move. So the table's socket declines it.
COMPRESS: Final = False


class WebTable:
    """What serves the web table in a process: the core's door (``core``: the
    process's :class:`~bot.table.sessions.Sessions`), the Redis its store uses (for
    the chats' channels), the secret that signs passes, the bot token that signs a Mini
    App's initData (``None``: no Mini App), and ``deliver``, which carries what the core
    says to the chat beyond a page's answer (the local table drops it)."""

    def __init__(
        self,
        core: Core,
        redis: aredis.Redis,
        *,
        secret: str,
        bot_token: str | None = None,
        deliver: Deliver = moves.drop,
        default_lang: str = "en",
        clock: Callable[[], float] = time.time,
        pace_clock: Callable[[], float] = time.monotonic,
        static: Path = STATIC,
    ) -> None:
        self.core = core
        self.deliver = deliver
        self.default_lang = default_lang
        self.clock = clock
        self.pace_clock = pace_clock  # what each socket's limiter counts its pace by
        self.static = static
        self.gate = Gate(secret, bot_token, clock)
        self.models = Models()
        self.live = Live(redis, core, self.models, clock)
        self.sockets: weakref.WeakSet[web.WebSocketResponse] = weakref.WeakSet()


TABLE: Final = web.AppKey("table", WebTable)


def web_app(table: WebTable) -> web.Application:
    """The application serving ``table``; it starts listening to the chats' channels
    when it starts, and closes every socket when it stops."""
    app = web.Application()
    app[TABLE] = table
    app.router.add_get("/", _index)
    app.router.add_get("/healthz", _health)
    app.router.add_get("/ws", _socket)
    if table.static.is_dir():
        app.router.add_static("/static", table.static)
    app.on_startup.append(_start)
    app.on_shutdown.append(_close_sockets)
    app.on_cleanup.append(_stop)
    return app


async def _start(app: web.Application) -> None:
    await app[TABLE].live.start()


async def _close_sockets(app: web.Application) -> None:
    for socket in list(app[TABLE].sockets):
        await socket.close(code=WSCloseCode.GOING_AWAY, message=b"server stopping")


async def _stop(app: web.Application) -> None:
    await app[TABLE].live.close()


async def _index(request: web.Request) -> web.StreamResponse:
    index = request.app[TABLE].static / "index.html"
    if not index.is_file():
        raise web.HTTPNotFound()
    return web.FileResponse(index, headers={"Cache-Control": "no-cache"})


async def _health(request: web.Request) -> web.Response:
    return web.json_response({"ok": True})


async def _socket(request: web.Request) -> web.WebSocketResponse:
    table = request.app[TABLE]
    socket = web.WebSocketResponse(heartbeat=HEARTBEAT, max_msg_size=MAX_FRAME, compress=COMPRESS)
    await socket.prepare(request)
    table.sockets.add(socket)
    try:
        hello = await _hello(socket)
        viewer = table.gate.admit(hello)
    except Refused as exc:
        await socket.close(code=UNAUTHORIZED, message=str(exc).encode()[:120])
        return socket
    except TimeoutError:
        await socket.close(code=UNAUTHORIZED, message=b"who are you?")
        return socket
    page = Page(socket, viewer, table.default_lang)
    try:
        await _open(table, page, hello)
        await _serve(table, page)
    except StoreUnavailable:
        await socket.close(code=WSCloseCode.TRY_AGAIN_LATER, message=b"store unavailable")
    finally:
        await table.live.leave(page)
    return socket


async def _hello(socket: web.WebSocketResponse) -> frames.Hello:
    """The page's first frame, which must be a hello."""
    message = await socket.receive(timeout=HELLO_WAIT)
    if message.type is not WSMsgType.TEXT:
        raise Refused("who are you?")
    try:
        hello = frames.FROM_PAGE.validate_json(message.data)
    except ValidationError as exc:
        raise Refused("who are you?") from exc
    if not isinstance(hello, frames.Hello):
        raise Refused("who are you?")
    return hello


async def _open(table: WebTable, page: Page, hello: frames.Hello) -> None:
    """Welcome the page and send it the table as it is. Its chat's channel is heard
    before the table is read, so no move falls between; a state heard meanwhile waits
    for the page's lock and goes only if it is newer."""
    async with page.lock:
        await table.live.join(page)
        game = await table.core.table_game(page.viewer.chat)
        page.speak(page_language(page.viewer, game, table.default_lang))
        seat = page.viewer.seat(game.doc) if game is not None else None
        words = page_words(page.translator)
        await page.send(frames.Welcome(lang=page.lang, seat=seat, words=words))
        await _resync(table, page, hello, game)


async def _resync(table: WebTable, page: Page, hello: frames.Hello, game: Game | None) -> None:
    """Send the page the table as it is, with the events after the version ``hello``
    says it drew (a page that comes back after a lost connection): after that version's
    step as this worker built it, else as the page says it (it was drawn by another
    worker, or before this one started), when the page names the game."""
    if game is None:
        await page.send(frames.Gone(text=page.translator("That game is over.")))
        return
    step = table.models.step_at(game, hello.version)
    if step is None and hello.step is not None and hello.game == game.doc.id:
        step = min(hello.step, game.doc.step)  # another worker drew it: the page says
    page.resume(hello.version, hello.game, game, step)
    await page.show_locked(StateTexts(table.models.built(game), table.clock()), again=True)


async def _serve(table: WebTable, page: Page) -> None:
    """The page's frames until it goes: moves, acts and hellos again, each judged by
    the socket's limiter before it is read."""
    limiter = Limiter(table.pace_clock)
    async for message in page.socket:
        verdict = limiter.judge()
        if verdict is Verdict.CLOSE:
            log.info("a page of %s kept sending too fast: closed", page.viewer.chat.key)
            await page.socket.close(code=FLOODED, message=b"too many frames")
            return
        if message.type is WSMsgType.BINARY:
            await page.socket.close(code=WSCloseCode.UNSUPPORTED_DATA, message=b"text frames only")
            return
        if message.type is not WSMsgType.TEXT:
            # aiohttp has closed a socket whose frame was too large or broken (ERROR).
            log.info(
                "a page of %s sent a frame aiohttp refused: %s", page.viewer.chat.key, message.data
            )
            return
        if verdict is Verdict.TOO_FAST:
            await _tell(page, frames.Answer(ok=False, text=page.translator(TOO_FAST)))
            continue
        try:
            frame = frames.FROM_PAGE.validate_json(message.data)
        except ValidationError:
            log.info("a page of %s sent a frame that is none of ours", page.viewer.chat.key)
            await _tell(page, frames.Answer(ok=False, text=page.translator(NOT_UNDERSTOOD)))
            continue
        await _take(table, page, frame)


async def _take(table: WebTable, page: Page, frame: frames.FromPage) -> None:
    """A frame of the page's, read: a hello resyncs it, a move or an act is pressed."""
    if isinstance(frame, frames.Hello):
        game = await table.core.table_game(page.viewer.chat)
        async with page.lock:
            await _resync(table, page, frame, game)
        return
    game = await table.core.table_game(page.viewer.chat)
    built = table.models.built(game) if game is not None else None
    if isinstance(frame, frames.Play):
        answer = await moves.play(
            table.core, table.deliver, page.viewer, built, frame, page.translator
        )
    else:
        answer = await moves.act(
            table.core, table.deliver, page.viewer, built, frame, page.translator
        )
    await _tell(page, answer)


async def _tell(page: Page, answer: frames.Answer) -> None:
    """Send ``answer``; a page gone meanwhile needs none."""
    with contextlib.suppress(ConnectionError):
        await page.send(answer)
