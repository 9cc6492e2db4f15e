"""The same four whole matches, one press at a time: a fixed amount of work for
comparing two versions of the move path by instructions rather than by seconds.

Run from the repository root: ``.venv/bin/python bench/bench_moves.py`` plays one match
of every game (people at every seat, as in ``bench_core.py``), a press at a time and
each awaited before the next, so the same presses make the same moves in every run, and
prints the moves and the processor time a move took in the event loop. ``--steady``
plays Telegram's steady hands; ``--moves 0`` only opens the tables.

On a shared machine processor time follows the other work too. Instructions do not:
under valgrind, with the hash seed fixed, two runs of the same code count the same to
a few parts in a thousand, and the main thread's count of a run, less that of a
``--moves 0`` run, divided by the moves, is a version's instructions a move::

    PYTHONHASHSEED=0 valgrind --tool=callgrind --separate-threads=yes \\
        --callgrind-out-file=cg.out .venv/bin/python bench/bench_moves.py
    grep summary cg.out-01

(thread 01 is the event loop; the others draw deals' ends). Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import time

from press_path.server import redis_server
from press_path.tables import GAMES, Clock, sessions_on, tables

from bot.app import gc_tuning


async def play(url: str, moves: int, steady: bool) -> tuple[int, float]:
    """Moves made, and the event loop's processor time, for one match of every game
    (or until ``moves`` were made)."""
    sessions, store = sessions_on(url, Clock(), 31, steady)
    playing = tables(sessions, len(GAMES), 31, steady)
    for table in playing:
        await table.open()
    rng = random.Random(31)
    began = time.thread_time()
    made = 0
    while made < moves and not all(t.over for t in playing):
        for table in playing:
            if not table.over:
                await table.press(rng)
        made = sum(t.moves for t in playing)
    used = time.thread_time() - began
    await store.close()
    return made, used


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=100_000, help="stop after this many")
    parser.add_argument("--steady", action="store_true", help="Telegram's steady hands")
    options = parser.parse_args()
    gc_tuning.freeze_startup()  # as a started bot process does
    with redis_server() as url:
        made, used = asyncio.run(play(url, options.moves, options.steady))
    print(f"{made} moves; {used / max(made, 1) * 1e3:.3f} ms a move in the event loop")
    print("load average: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
