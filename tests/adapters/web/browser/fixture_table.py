"""A web table's server for the page alone, on loopback in a thread of its own (the
browser's driver blocks the test's thread): it serves adapters/web/static/ as the real
server does (``/`` and ``/static/``) and a ``/ws`` that answers each Hello with the
frames a test gives it, recording every frame the page sends."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from aiohttp import WSMsgType, web

from adapters.web.frames import FROM_PAGE, TO_PAGE, FromPage, Hello, Play, ToPage

STATIC = Path(__file__).resolve().parents[4] / "adapters" / "web" / "static"

Reply = Callable[[FromPage], Sequence[ToPage]]


class FixtureTable:
    """Answers a page's frames with ``reply`` (what to send back to each); a hello when
    ``refuse`` is set closes the socket with code 4401 and that reason."""

    def __init__(self, reply: Reply) -> None:
        self.reply = reply
        self.refuse: str | None = None
        self.received: list[FromPage] = []
        self.connections = 0
        self._sockets: set[web.WebSocketResponse] = set()
        self._loop = asyncio.new_event_loop()
        self._runner: web.AppRunner | None = None
        self.url = ""

    def __enter__(self) -> FixtureTable:
        ready = threading.Event()
        threading.Thread(target=self._serve, args=(ready,), daemon=True).start()
        ready.wait(10)
        return self

    def __exit__(self, *_: object) -> None:
        asyncio.run_coroutine_threadsafe(self._stop(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)

    def plays(self) -> list[Play]:
        return [frame for frame in self.received if isinstance(frame, Play)]

    def hellos(self) -> list[Hello]:
        return [frame for frame in self.received if isinstance(frame, Hello)]

    def drop(self) -> None:
        """Closes every open socket as a server going away would."""
        asyncio.run_coroutine_threadsafe(self._close_all(), self._loop).result(10)

    def send(self, frame: ToPage) -> None:
        """Sends ``frame`` to every open socket."""
        asyncio.run_coroutine_threadsafe(self._send_all(frame), self._loop).result(10)

    def _serve(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self._loop)
        app = web.Application()
        app.router.add_get("/", self._index)
        app.router.add_get("/ws", self._socket)
        app.router.add_static("/static/", STATIC)
        self._runner = web.AppRunner(app)
        self._loop.run_until_complete(self._runner.setup())
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        self._loop.run_until_complete(site.start())
        port = self._runner.addresses[0][1]
        self.url = f"http://127.0.0.1:{port}/"
        ready.set()
        self._loop.run_forever()

    async def _index(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html")

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(max_msg_size=8192)
        await socket.prepare(request)
        self.connections += 1
        self._sockets.add(socket)
        try:
            async for message in socket:
                if message.type != WSMsgType.TEXT:
                    continue
                frame = FROM_PAGE.validate_json(message.data)
                self.received.append(frame)
                if isinstance(frame, Hello) and self.refuse is not None:
                    await socket.close(code=4401, message=self.refuse.encode())
                    break
                for answer in self.reply(frame):
                    await socket.send_str(TO_PAGE.dump_json(answer).decode())
        finally:
            self._sockets.discard(socket)
        return socket

    async def _send_all(self, frame: ToPage) -> None:
        for socket in list(self._sockets):
            await socket.send_str(TO_PAGE.dump_json(frame).decode())

    async def _close_all(self) -> None:
        for socket in list(self._sockets):
            await socket.close(code=1012, message=b"restarting")

    async def _stop(self) -> None:
        await self._close_all()
        if self._runner is not None:
            await self._runner.cleanup()
