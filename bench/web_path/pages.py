"""Pages as the web table's benchmarks open them: WebSocket clients in a process of
their own, each saying who it is with a signed pass, then only listening.

Run by the benchmarks, never by hand: ``python -m web_path.pages`` with ``bench`` on
``PYTHONPATH``. The first line on its standard input is a :class:`Order` in JSON: the
sockets to open. It opens them (``opening`` at a time), each sending its hello and
waiting for its welcome and first state, and prints a :class:`Ready` line. Then, for
every state a socket is sent, it notes the state's version and when it came
(``time.monotonic``, the same clock in every process of the machine), and prints an
:class:`All` line as soon as every socket of a chat has a version. ``report`` on its
input prints the :class:`Arrivals` noted so far (and forgets them); ``close`` or the
end of its input closes the sockets and ends it.

A state's version is read from the frame's first bytes (a :class:`State` is serialised
type first, version second), not by parsing the whole frame: the pages of a thousand
sockets in one process are the benchmark's, and their work should not count as the
server's.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections import Counter

import aiohttp
from pydantic import BaseModel

from adapters.web import frames
from web_path.worker import more_files

STATE_HEAD = '{"type":"state","version":'


class Socket(BaseModel):
    url: str  # the worker's /ws
    ticket: str
    chat: str  # the chat's key, as the All lines name it


class Order(BaseModel):
    sockets: list[Socket]
    opening: int = 200  # sockets opened at once
    compress: int = 15  # permessage-deflate's window bits asked for (0: none), as browsers ask


class Ready(BaseModel):
    ready: int
    failed: int
    seconds: float


class All(BaseModel):
    chat: str
    version: int


class Arrivals(BaseModel):
    """Each arrival as (socket's index in the order, version, monotonic seconds)."""

    arrivals: list[tuple[int, int, float]]


def version_of(text: str) -> int | None:
    """The version of a state frame, read from its head; ``None`` for another frame."""
    if not text.startswith(STATE_HEAD):
        return None
    end = text.index(",", len(STATE_HEAD))
    return int(text[len(STATE_HEAD) : end])


class Listening:
    def __init__(self, order: Order) -> None:
        self.order = order
        self.size = Counter(s.chat for s in order.sockets)
        self.got: Counter[tuple[str, int]] = Counter()
        self.arrivals: list[tuple[int, int, float]] = []
        self.sockets: list[aiohttp.ClientWebSocketResponse] = []
        self.tasks: list[asyncio.Task[None]] = []

    async def open_all(self, session: aiohttp.ClientSession) -> Ready:
        start = time.monotonic()
        gate = asyncio.Semaphore(self.order.opening)

        async def one(index: int, socket: Socket) -> bool:
            async with gate:
                try:
                    ws = await session.ws_connect(
                        socket.url, max_msg_size=0, compress=self.order.compress
                    )
                    hello = frames.Hello(ticket=socket.ticket)
                    await ws.send_str(hello.model_dump_json())
                    while version_of(await ws.receive_str(timeout=60)) is None:
                        pass
                except (aiohttp.ClientError, OSError, TimeoutError, TypeError) as exc:
                    print(f"socket {index} failed: {exc!r}", file=sys.stderr)
                    return False
            self.sockets.append(ws)
            self.tasks.append(asyncio.create_task(self.listen(index, socket.chat, ws)))
            return True

        opened = await asyncio.gather(*(one(n, s) for n, s in enumerate(self.order.sockets)))
        done = sum(opened)
        return Ready(ready=done, failed=len(opened) - done, seconds=time.monotonic() - start)

    async def listen(self, index: int, chat: str, ws: aiohttp.ClientWebSocketResponse) -> None:
        async for message in ws:
            now = time.monotonic()
            if message.type is not aiohttp.WSMsgType.TEXT:
                continue
            version = version_of(message.data)
            if version is None:
                continue
            self.arrivals.append((index, version, now))
            self.got[chat, version] += 1
            if self.got[chat, version] == self.size[chat]:
                say(All(chat=chat, version=version))

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.wait_for(
            asyncio.gather(*(ws.close() for ws in self.sockets), return_exceptions=True), 30
        )


def say(line: BaseModel) -> None:
    sys.stdout.write(line.model_dump_json() + "\n")
    sys.stdout.flush()


async def main() -> None:
    more_files()
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=1 << 26)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    order = Order.model_validate_json(await reader.readline())
    listening = Listening(order)
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        say(await listening.open_all(session))
        while (command := (await reader.readline()).decode().strip()) not in ("", "close"):
            if command == "report":
                say(Arrivals(arrivals=listening.arrivals))
                listening.arrivals = []
        await listening.close()


if __name__ == "__main__":
    asyncio.run(main())
