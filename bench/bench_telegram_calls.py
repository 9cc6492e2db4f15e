"""Bot API calls per accepted move, over whole matches of every game.

How a match is played and what is counted: see
:mod:`tests.adapters.telegram.callcount` (the calls test counts the same way, one
match per setup). Here several matches per setup are played on an embedded Redis
of its own (so no shared server is touched), and the calls per press of a move
button are printed beside the calls per move. The figures do not depend on the
machine's load.

Run: ``.venv/bin/python bench/bench_telegram_calls.py [--seeds N]``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' fake Bot API

from bot.app.embedded_redis import EmbeddedRedis
from tests.adapters.telegram.callcount import LIMIT, SETUPS, Measured, play_counted


async def main(seeds: int) -> None:
    with tempfile.TemporaryDirectory() as data:
        server = EmbeddedRedis(Path(data))
        url = server.start()
        try:
            print(
                f"{'game':<11} {'people+computers':<17} {'moves':>6} {'presses':>7} "
                f"{'calls':>6} {'per move':>8} {'per press':>9} {'limit':>5}  calls by method"
            )
            for setup in SETUPS:
                total = Measured(Counter(), 0, 0)
                for seed in range(1, seeds + 1):
                    total.add(await play_counted(setup, seed, url))
                calls = sum(total.calls.values())
                methods = ", ".join(f"{m} {n}" for m, n in total.calls.most_common())
                kept = "over" if total.per_move > LIMIT else "kept"
                print(
                    f"{setup.name:<11} {setup.seats:<17} {total.moves:>6} {total.presses:>7} "
                    f"{calls:>6} {total.per_move:>8.2f} {calls / total.presses:>9.2f} "
                    f"{kept:>5}  {methods}"
                )
            print(f"limit: at most {LIMIT:.1f} calls a move on average over whole matches")
        finally:
            server.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=2, help="matches per setup")
    asyncio.run(main(parser.parse_args().seeds))
