"""How many possible worlds the strong level gets through per second of processor time.

Run from the repository root: ``.venv/bin/python bench/bench_search.py``
(``--variant``, ``--players``, ``--positions N``, ``--worlds W``, ``--repeat R``).

Greedy players play matches (seeded, the same every run) and every position in
which a seat has more than one legal move, with the clues the table showed, is
kept, up to ``--positions``. The strong level then decides each of them over a
fixed ``--worlds`` possible worlds (``Allowance.of_worlds``, so the work does not
depend on the clock), and the processor time of the whole pass
(``time.process_time``) is divided by the worlds and by the playouts (a world
plays out every legal move once). The pass is repeated ``--repeat`` times and
the fastest counted. ``worlds in 40 ms`` is how many a decision gets from the
default allowance's playout share (50 ms at 0.8) with a whole core to itself: on a
machine shared with N busy processes it gets about 2/N of a core.

Processor time is less disturbed than wall time by other processes, but not
immune (caches, frequency): compare two versions of the code by runs taken in
turn, and note the load average.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from bot.ai import choose  # noqa: E402
from bot.ai.clues import clues  # noqa: E402
from bot.ai.search import SAFE_SHARE, Allowance, strong_search  # noqa: E402
from engine import View  # noqa: E402

Position = tuple[View, tuple[int, ...]]


def positions(variant: str, players: int, count: int, seed: int) -> list[Position]:
    """Decisions with a choice, met by greedy players in whole matches."""
    found: list[Position] = []
    game = seed
    while len(found) < count:
        state = engine.new_match(variant, players, {}, game)
        rng = random.Random(game)
        moves: list[tuple[int, str]] = []
        while len(found) < count and not state.match_over:
            if state.deal_over:
                state, moves = engine.next_deal(state), []
                continue
            seat = state.turn
            assert seat is not None
            seen = engine.view(state, seat)
            lacks = clues(variant, players, moves)
            if len(seen.legal) > 1:
                found.append((seen, lacks))
            move = choose(seen, rng, "greedy", None, lacks)
            state, _ = engine.apply(state, move)
            moves.append((seat, engine.format_move(move)))
        game += 1
    return found


def one_pass(found: list[Position], worlds: int) -> float:
    allowance = Allowance.of_worlds(worlds)
    started = time.process_time()
    for number, (seen, lacks) in enumerate(found):
        strong_search(seen, random.Random(number), allowance, lacks)
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="kozel")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--worlds", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    found = positions(args.variant, args.players, args.positions, args.seed)
    playouts = sum(len(seen.legal) for seen, _ in found) * args.worlds
    worlds = len(found) * args.worlds
    best = min(one_pass(found, args.worlds) for _ in range(args.repeat))
    per_world = best / worlds
    print(
        f"{args.variant} {args.players}p, {len(found)} positions x {args.worlds} worlds "
        f"({playouts / worlds:.2f} playouts a world), best of {args.repeat}, "
        f"load {os.getloadavg()[0]:.2f}:"
    )
    print(f"  {per_world * 1e6:7.1f} us of processor time a world")
    print(f"  {best / playouts * 1e6:7.1f} us a playout (dealing and judging included)")
    allowance = Allowance().seconds * SAFE_SHARE
    print(f"  {allowance / per_world:7.0f} worlds in {allowance * 1000:.0f} ms of one core")


if __name__ == "__main__":
    main()
