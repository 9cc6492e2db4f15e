"""Typed lines reach the table without blocking the event loop."""

from __future__ import annotations

import asyncio
import io
import os

from adapters.console.lines import StreamLines, WatchedLines, line_source


async def test_a_stream_gives_its_lines_then_none() -> None:
    lines = StreamLines(io.StringIO("6-4@L\r\nquit\n"))
    assert [await lines.readline(), await lines.readline(), await lines.readline()] == [
        "6-4@L",
        "quit",
        None,
    ]


async def test_a_pipe_is_watched_and_the_loop_runs_while_nobody_types() -> None:
    read_end, write_end = os.pipe()
    with os.fdopen(read_end, "r", encoding="utf-8") as stream:
        lines = line_source(stream)
        assert isinstance(lines, WatchedLines)
        waiting = asyncio.ensure_future(lines.readline())
        await asyncio.sleep(0.05)
        assert not waiting.done()  # no line yet, and the loop was free to sleep
        os.write(write_end, "1\n[6|4] ▶".encode())
        assert await asyncio.wait_for(waiting, 5) == "1"
        os.close(write_end)
        assert await asyncio.wait_for(lines.readline(), 5) == "[6|4] ▶"
        assert await asyncio.wait_for(lines.readline(), 5) is None
        lines.close()


async def test_a_file_that_cannot_be_watched_is_read_directly() -> None:
    with open(os.devnull, encoding="utf-8") as stream:
        lines = line_source(stream)
        assert isinstance(lines, StreamLines)
        assert await lines.readline() is None


async def test_an_in_memory_stream_is_read_directly() -> None:
    assert isinstance(line_source(io.StringIO("x\n")), StreamLines)
