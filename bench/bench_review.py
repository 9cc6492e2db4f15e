"""Reviews: the processor time a match's review takes, per game, for a hundred decisions.

Plays whole matches of random moves (long ones: random play draws out a deal), reviews
seat 0 of each as the bot does (``bot.ai.review.review``, with each game's own number of
worlds a decision) and prints, per game, the decisions reviewed and the seconds of one
core they took (``time.process_time``: the machine's load does not count), and those
seconds scaled to a hundred decisions. The aim is at most 10 s for a hundred.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai.review import WORLDS, ReviewJob, review
from engine import State, apply, format_move, legal_moves, new_match, next_deal

TABLES = (("tyaga", 2), ("kozel", 3), ("baghdad", 2), ("three_guns", 3))
MATCHES = 3


def played(variant: str, players: int, seed: int) -> ReviewJob:
    rng = random.Random(seed)
    state: State[object] = new_match(variant, players, seed=seed)
    deals = [state.dealt]
    moves: list[tuple[int, str]] = []
    while not state.match_over:
        if state.deal_over:
            state = next_deal(state)
            deals.append(state.dealt)
            continue
        seat = state.turn
        assert seat is not None
        move = rng.choice(legal_moves(state))
        state, _events = apply(state, move)
        moves.append((seat, format_move(move)))
    return ReviewJob(variant, players, state.options, seed, tuple(deals), tuple(moves), 0)


def main() -> None:
    print(f"{'game, players':<16} {'worlds':>6} {'decisions':>9} {'seconds':>8} {'per 100':>8}")
    for variant, players in TABLES:
        jobs = [played(variant, players, seed) for seed in range(MATCHES)]
        started = time.process_time()
        for job in jobs:
            review(job)
        spent = time.process_time() - started
        count = sum(_choices(job) for job in jobs)
        print(
            f"{variant + ', ' + str(players):<16} {WORLDS[variant]:>6} {count:>9} "
            f"{spent:>8.2f} {spent / count * 100:>8.2f}"
        )


def _choices(job: ReviewJob) -> int:
    """The seat's decisions with more than one legal move (those a review judges)."""
    state = new_match(job.variant, job.players, job.options, job.seed, job.deals[0])
    found = 0
    for seat, text in job.moves:
        if state.deal_over:
            state = next_deal(state, job.deals[state.deal_number])
        found += seat == job.seat and len(legal_moves(state)) > 1
        state, _events = apply(state, text, seat)
    return found


if __name__ == "__main__":
    main()
