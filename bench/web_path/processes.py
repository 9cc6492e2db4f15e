"""The parent's side of the web benchmarks' processes: web workers started and stopped,
page processes given their sockets and heard, and what ``/proc`` says of a process."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import psutil
from press_path.tables import Table
from pydantic import ValidationError

from bot.model import web_pass
from web_path.pages import All, Arrivals, Order, Ready, Socket

BENCH = Path(__file__).resolve().parent.parent
LINE_LIMIT = 1 << 26  # bytes: a report of every arrival comes on one line


def _env() -> dict[str, str]:
    path = os.pathsep.join(p for p in (str(BENCH), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONPATH": path}


@dataclass
class Worker:
    """A web worker process and the port it serves on."""

    process: asyncio.subprocess.Process
    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/ws"

    def rss(self) -> int:
        """The worker's resident memory (``VmRSS`` in ``/proc``), in bytes."""
        return resident(self.process.pid)

    def cpu(self) -> float:
        """Seconds of processor time the worker has used."""
        return processor_time(self.process.pid)

    def kernel(self) -> float:
        """Seconds of it the kernel spent on the worker's behalf (its sends, mostly)."""
        return kernel_time(self.process.pid)


@contextlib.asynccontextmanager
async def workers(redis_url: str, secret: str, count: int) -> AsyncIterator[list[Worker]]:
    """``count`` web worker processes on the Redis at ``redis_url``, stopped after."""
    started: list[Worker] = []
    try:
        for _ in range(count):
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "web_path.worker", redis_url, secret,
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, env=_env(),
            )  # fmt: skip
            assert process.stdout is not None
            line = await asyncio.wait_for(process.stdout.readline(), 60)
            started.append(Worker(process, int(json.loads(line)["port"])))
        yield started
    finally:
        for worker in started:
            await _end(worker.process)


@dataclass
class Pages:
    """A page process: the sockets it opened, and what it says as it hears them."""

    process: asyncio.subprocess.Process
    order: Order
    ready: Ready | None = None
    heard: asyncio.Queue[All | Arrivals] = field(default_factory=asyncio.Queue)
    done: dict[tuple[str, int], asyncio.Event] = field(default_factory=dict)

    async def hear(self) -> None:
        assert self.process.stdout is not None
        while line := await self.process.stdout.readline():
            try:
                said = All.model_validate_json(line)
            except ValidationError:
                await self.heard.put(Arrivals.model_validate_json(line))
                continue
            self.reached(said.chat, said.version).set()

    def reached(self, chat: str, version: int) -> asyncio.Event:
        """Set once every socket of ``chat`` here has ``version``."""
        return self.done.setdefault((chat, version), asyncio.Event())

    async def report(self) -> Arrivals:
        """Every state the sockets were sent since the last report, and when."""
        await self._say("report")
        heard = await self.heard.get()
        assert isinstance(heard, Arrivals)
        return heard

    async def _say(self, command: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(command.encode() + b"\n")
        await self.process.stdin.drain()


def sockets_for(
    playing: list[Table], each: int, serving: Sequence[Worker], secret: str
) -> list[Socket]:
    """``each`` pages of every table, on the workers of ``serving`` in turn: its seats'
    people first, then spectators."""
    expires = int(time.time() + 3600)
    made = []
    for table in playing:
        for n in range(each):
            person = table.people[n].key if n < len(table.people) else None
            ticket = web_pass.sign(secret, table.chat, person, expires)
            worker = serving[n % len(serving)]
            made.append(Socket(url=worker.url, ticket=ticket, chat=table.chat.key))
    return made


@contextlib.asynccontextmanager
async def pages(
    sockets: Sequence[Socket], opening: int = 200, compress: int = 15
) -> AsyncIterator[Pages]:
    """A page process holding ``sockets``, all open and sent their first state when
    the block starts; closed after."""
    order = Order(sockets=list(sockets), opening=opening, compress=compress)
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "web_path.pages",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, env=_env(),
        limit=LINE_LIMIT,
    )  # fmt: skip
    assert process.stdin is not None and process.stdout is not None
    held = Pages(process, order)
    try:
        process.stdin.write(order.model_dump_json().encode() + b"\n")
        await process.stdin.drain()
        held.ready = Ready.model_validate_json(await process.stdout.readline())
        hearing = asyncio.create_task(held.hear())
        try:
            yield held
        finally:
            hearing.cancel()
    finally:
        await _end(process, "close")


async def _end(process: asyncio.subprocess.Process, command: str = "") -> None:
    """Close the process's input (after ``command``) and wait for it to end."""
    if process.returncode is not None:
        return
    if process.stdin is not None:
        with contextlib.suppress(ConnectionError):
            if command:
                process.stdin.write(command.encode() + b"\n")
            process.stdin.close()
    try:
        await asyncio.wait_for(process.wait(), 60)
    except TimeoutError:
        process.kill()
        await process.wait()


def processor_time(pid: int) -> float:
    """Seconds of processor time a process has used."""
    times = psutil.Process(pid).cpu_times()
    return float(times.user + times.system)


def kernel_time(pid: int) -> float:
    """Seconds of processor time the kernel has spent on a process's behalf."""
    return float(psutil.Process(pid).cpu_times().system)


def resident(pid: int) -> int:
    """A process's resident memory (``VmRSS`` of ``/proc/<pid>/status``), in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise LookupError(f"no VmRSS for process {pid}")
