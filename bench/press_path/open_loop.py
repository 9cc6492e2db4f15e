"""An open loop: presses sent at a fixed rate whether or not the earlier ones are
answered, as people who do not wait for one another send them, and their latency from
the moment each was due (``bench/bench_core.py`` runs it at half the rate it measured
one process to keep up with)."""

from __future__ import annotations

import asyncio
import gc
import random
import time

import psutil

from .tables import Clock, sessions_on, tables


async def open_loop(url: str, games: int, rate: float, seconds: float) -> dict[str, float]:
    """Presses sent to ``games`` tables at ``rate`` a second for ``seconds``, each when it
    is due whether or not the earlier ones are answered (a table already waiting for its
    answer is passed over for the next), as people who do not wait for one another send
    them. A press's latency runs from the moment it was due, so a loop that falls behind
    counts the wait it causes. It is split in two: the wait, from the moment the press
    was due to the moment its handling began (the event loop busy with other presses, a
    pause of the garbage collector, the machine's other work), and the handling itself,
    from then to the answer (the press's own work, and the other presses' work it waits
    for at each ``await``, Redis's round trip among them)."""
    sessions, store = sessions_on(url, Clock(), 17)
    playing = tables(sessions, games, 17)
    began = time.perf_counter()
    for batch in range(0, games, 100):
        await asyncio.gather(*(t.open() for t in playing[batch : batch + 100]))
    opened = time.perf_counter() - began
    rng = random.Random(17)
    latencies: list[float] = []
    waits: list[float] = []
    handled: list[float] = []
    pictured: list[float] = []  # the latencies of the presses that ended a deal
    others: list[float] = []
    busy: set[int] = set()
    tasks: set[asyncio.Task[None]] = set()
    pauses = GcPauses()

    async def one(index: int, due: float) -> None:
        started, drawn = time.perf_counter(), playing[index].pictures
        await playing[index].press(rng)
        answered = time.perf_counter()
        latencies.append(answered - due)
        (pictured if playing[index].pictures > drawn else others).append(answered - due)
        waits.append(started - due)
        handled.append(answered - started)
        busy.discard(index)

    moves_before = sum(t.moves for t in playing)
    preempted = psutil.Process().num_ctx_switches().involuntary
    start, loop_cpu, sent, turn = time.perf_counter(), time.thread_time(), 0, 0
    with pauses:
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
    elapsed, loop_used = time.perf_counter() - start, time.thread_time() - loop_cpu
    preempted = psutil.Process().num_ctx_switches().involuntary - preempted
    await store.close()
    return {
        "opened_seconds": opened,
        "presses": len(latencies),
        "seconds": elapsed,
        "moves": sum(t.moves for t in playing) - moves_before,
        "loop_busy": loop_used / elapsed,
        "preempted": preempted,
        "pictured": len(pictured),
        "gc_longest": pauses.longest,
        "gc_share": pauses.total / elapsed,
        **{f"p{q}": percentile(latencies, q) for q in (50, 90, 99, 100)},
        **{f"wait_p{q}": percentile(waits, q) for q in (50, 99, 100)},
        **{f"handled_p{q}": percentile(handled, q) for q in (50, 99, 100)},
        **{f"pictured_p{q}": percentile(pictured, q) for q in (50, 99, 100)},
        **{f"others_p{q}": percentile(others, q) for q in (50, 99, 100)},
    }


def percentile(values: list[float], q: int) -> float:
    """The value ``q`` per cent of ``values`` are not above (100: the largest)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, len(ordered) * q // 100)] if ordered else float("nan")


class GcPauses:
    """The garbage collector's pauses while it is entered: their sum and the longest."""

    def __init__(self) -> None:
        self.total = self.longest = 0.0
        self._began = 0.0

    def _time(self, phase: str, _info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            took = time.perf_counter() - self._began
            self.total += took
            self.longest = max(self.longest, took)

    def __enter__(self) -> GcPauses:
        gc.callbacks.append(self._time)
        return self

    def __exit__(self, *_exc: object) -> None:
        gc.callbacks.remove(self._time)
