"""Typed lines, read without blocking the event loop.

A terminal or a pipe is watched by the event loop, so Ctrl-C, SIGTERM and the
core's timers are served while nobody types; a thread blocked on standard input
would hold the interpreter at exit. Anything else (a file, an in-memory stream in
tests) is read directly: it never makes the loop wait.
"""

from __future__ import annotations

import asyncio
import codecs
import os
from typing import Protocol, TextIO


class LineSource(Protocol):
    async def readline(self) -> str | None:
        """The next line without its line break; ``None`` at the end of input."""

    def close(self) -> None: ...


class StreamLines:
    """Lines of a stream that never blocks for long (a file, a ``StringIO``)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    async def readline(self) -> str | None:
        text = self._stream.readline()
        return text.rstrip("\r\n") if text else None

    def close(self) -> None:
        pass


class WatchedLines:
    """Lines of a terminal or pipe, read when the event loop sees data waiting."""

    def __init__(self, fd: int, encoding: str, loop: asyncio.AbstractEventLoop) -> None:
        self._fd = fd
        self._loop = loop
        self._decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
        self._buffer = ""
        self._ended = False
        self._ready = asyncio.Event()
        loop.add_reader(fd, self._on_readable)  # raises for files the loop cannot watch

    def _on_readable(self) -> None:
        try:
            data = os.read(self._fd, 4096)
        except OSError:
            data = b""
        if data:
            self._buffer += self._decoder.decode(data)
        else:
            self._buffer += self._decoder.decode(b"", final=True)
            self._ended = True
            self._loop.remove_reader(self._fd)
        self._ready.set()

    async def readline(self) -> str | None:
        while "\n" not in self._buffer:
            if self._ended:
                rest, self._buffer = self._buffer, ""
                return rest.rstrip("\r") if rest else None
            self._ready.clear()
            await self._ready.wait()
        line, _, self._buffer = self._buffer.partition("\n")
        return line.rstrip("\r")

    def close(self) -> None:
        if not self._ended:
            self._loop.remove_reader(self._fd)
            self._ended = True


def line_source(stream: TextIO) -> LineSource:
    """The best way to read ``stream`` from the running event loop."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return StreamLines(stream)
    try:
        return WatchedLines(fd, stream.encoding or "utf-8", asyncio.get_running_loop())
    except (OSError, ValueError, NotImplementedError):
        # Regular files and /dev/null cannot be watched, but never keep a reader waiting.
        return StreamLines(stream)
