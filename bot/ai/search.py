"""The ``strong`` level: determinized Monte Carlo over the playout simulators.

For each possible world (:mod:`bot.ai.worlds`) every legal move is tried and
the deal played out to its end on the simulator; the move whose deals end best
for the seat on average, over all the worlds sampled within the allowance, is
chosen. Every move is judged on the same worlds, so their differences are not
drowned by the luck of the deal. Moves the worlds sampled cannot tell apart
(means within ``MARGIN`` standard errors of the best) are decided by the greedy
level's heuristic rather than by chance, which matters most when a busy
machine leaves time for few worlds.

"Best for the seat" is what the deal writes down against the others, and the
match when the deal ends it (:mod:`bot.ai.judge`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bot.ai.judge import judge
from bot.ai.simple import greedy_player, greedy_scores
from bot.ai.worlds import Worlds
from engine import Move, View
from engine.playout import scores_each

DEFAULT_SECONDS = 0.05
#: Of the allowance that playouts may use: the rest is for setting up and for the
#: last world, which on a busy machine may be held up well past the limit.
SAFE_SHARE = 0.8
#: Moves whose mean is within this many standard errors of the best one's are
#: too close for the worlds sampled to tell apart: greedy's heuristic picks among them.
MARGIN = 1.0


@dataclass(frozen=True, slots=True)
class Allowance:
    """How long one decision may think: ``seconds`` of ``clock`` time, and at
    most ``worlds`` possible worlds (tests fix this one and not the time, so a
    decision does not depend on how busy the machine is)."""

    seconds: float = DEFAULT_SECONDS
    worlds: int | None = None
    clock: Callable[[], float] = field(default=time.perf_counter, compare=False)

    @classmethod
    def of_worlds(cls, worlds: int) -> Allowance:
        return cls(seconds=math.inf, worlds=worlds)

    def less(self, seconds: float) -> Allowance:
        """This allowance with ``seconds`` already spent (none left at worst)."""
        return Allowance(max(0.0, self.seconds - seconds), self.worlds, self.clock)


@dataclass(frozen=True, slots=True)
class Decision:
    """A move and how many possible worlds it was searched over (0: no search)."""

    move: Move
    worlds: int = 0


def strong_search(
    view: View, rng: random.Random, allowance: Allowance, lacks: Sequence[int] | None = None
) -> Decision:
    """The move that did best over the possible worlds sampled in the allowance, with the
    number of worlds it searched."""
    legal = view.legal
    if len(legal) == 1:
        return Decision(legal[0])
    if allowance.seconds <= 0:
        return Decision(greedy_player(view, rng, lacks))  # the time went while the question waited
    clock = allowance.clock
    started = clock()
    worlds = Worlds(view, lacks)
    codes = [worlds.base.code_of(move) for move in legal]
    totals = [0.0] * len(legal)
    squares = [0.0] * len(legal)
    judged = judge(view)
    sampled = 0
    limit = started + allowance.seconds * SAFE_SHARE
    timed = math.isfinite(allowance.seconds)
    values: dict[tuple[int, ...], float] = {}  # the same scores are judged once
    while allowance.worlds is None or sampled < allowance.worlds:
        if timed and clock() >= limit:
            break
        for i, written in enumerate(scores_each(worlds.sample(rng), codes, rng)):
            value = values.get(written)
            if value is None:
                value = values[written] = judged(written)
            totals[i] += value
            squares[i] += value * value
        sampled += 1
    if sampled == 0:
        return Decision(greedy_player(view, rng, lacks))  # not one world fitted in the allowance
    return Decision(_pick(view, rng, lacks, totals, squares, sampled), sampled)


def _pick(
    view: View,
    rng: random.Random,
    lacks: Sequence[int] | None,
    totals: list[float],
    squares: list[float],
    sampled: int,
) -> Move:
    """The move with the best mean; among those whose mean the worlds could not
    tell from the best (within ``MARGIN`` standard errors), greedy's favourite."""
    means = [total / sampled for total in totals]
    best = max(means)
    spread = max(sq / sampled - mean * mean for sq, mean in zip(squares, means, strict=True))
    error = math.sqrt(max(0.0, spread) / sampled)
    close = [i for i, mean in enumerate(means) if mean >= best - MARGIN * error]
    if len(close) > 1:
        liked = greedy_scores(view, lacks)
        top = max(liked[i] for i in close)
        close = [i for i in close if liked[i] == top]
    return view.legal[rng.choice(close)]
