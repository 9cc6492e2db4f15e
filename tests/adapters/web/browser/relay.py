"""A TCP relay on loopback between the browser and the server, which a test can cut
as a network drop would: its open connections close, and it keeps listening, so the
page's next try gets through."""

from __future__ import annotations

import asyncio
import contextlib

from yarl import URL


class Relay:
    """Relays connections to ``target``'s host and port; ``url`` is the same address
    through the relay."""

    def __init__(self, target: URL) -> None:
        self.target = target
        self.connections = 0
        self.url = ""
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    async def __aenter__(self) -> Relay:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        self.url = str(self.target.with_host("127.0.0.1").with_port(port))
        return self

    async def __aexit__(self, *_: object) -> None:
        self.cut()
        assert self._server is not None
        self._server.close()
        await self._server.wait_closed()

    def cut(self) -> None:
        """Closes every connection relayed now."""
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        host, port = self.target.host, self.target.port
        assert host is not None and port is not None
        upstream_reader, upstream_writer = await asyncio.open_connection(host, port)
        self._writers |= {writer, upstream_writer}
        await asyncio.gather(
            _pipe(reader, upstream_writer), _pipe(upstream_reader, writer), return_exceptions=True
        )


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    finally:
        with contextlib.suppress(Exception):
            writer.transport.abort()
