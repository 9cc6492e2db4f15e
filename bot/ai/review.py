"""A finished match reviewed from one seat: at each of its decisions, how each legal
move changed its chance of winning the match, judged from what the seat could see.

The match is replayed through the engine. At every decision of the seat with more than
one legal move, the seat's :class:`~engine.View` and the clues of the deal's moves
(:mod:`bot.ai.clues`) give possible worlds (:mod:`bot.ai.worlds`), as the strong level
deals them; each legal move is played out to the end of the deal on the same worlds,
and the deal's scores are turned into the chance of winning the match
(:mod:`bot.ai.chance`). A decision's cost is the best move's mean chance less the
chance of the move made. Nothing here reads a hand the seat could not see, and the
same job always gives the same review (the worlds come from the job's dice).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import engine
from bot.ai.chance import win_chance
from bot.ai.clues import clues
from bot.ai.worlds import Worlds
from engine import Fixture, Move, State, View
from engine.playout import scores_each
from engine.state import OptionValue

WORLDS: Final = {"tyaga": 600, "kozel": 600, "baghdad": 160, "three_guns": 160}
"""Possible worlds each decision is judged over, by game: as many as keep a hundred
decisions within ten seconds of one core (``bench/bench_review.py``; a world of Thief of
Baghdad or Three Guns costs some four times one of Tyaga or Kozel)."""
COSTLY: Final = 0.05
"""A decision is told when it cost at least this much chance of winning (5 points)."""
SHOWN: Final = 3


@dataclass(frozen=True, slots=True)
class ReviewJob:
    """A finished match as its replay file has it, and the seat to review."""

    variant: str
    players: int
    options: Mapping[str, OptionValue]
    seed: int
    deals: tuple[Fixture, ...]
    moves: tuple[tuple[int, str], ...]
    seat: int
    worlds: int | None = None  # None: the game's own number, :data:`WORLDS`


@dataclass(frozen=True, slots=True)
class Judged:
    """One decision: the index of its move in the match, the move made, the move
    judged best, and the chance of winning each gave (0 to 1)."""

    index: int
    played: Move
    best: Move
    played_chance: float
    best_chance: float

    @property
    def cost(self) -> float:
        return self.best_chance - self.played_chance


def review(job: ReviewJob) -> tuple[Judged, ...]:
    """The seat's costliest decisions, at most :data:`SHOWN`, each costing at least
    :data:`COSTLY`, costliest first."""
    judged = [j for j in decisions(job) if j.cost >= COSTLY]
    judged.sort(key=lambda j: (-j.cost, j.index))
    return tuple(judged[:SHOWN])


def decisions(job: ReviewJob) -> list[Judged]:
    """Every decision of the seat that had a choice, judged."""
    state = engine.new_match(job.variant, job.players, job.options, job.seed, job.deals[0])
    deal_moves: list[tuple[int, str]] = []
    found = []
    for index, (seat, text) in enumerate(job.moves):
        if state.deal_over:
            state = engine.next_deal(state, job.deals[state.deal_number])
            deal_moves = []
        if seat == job.seat:
            legal = engine.legal_moves(state)
            if len(legal) > 1:
                view = engine.view(state, seat)
                lacks = clues(job.variant, job.players, deal_moves)
                made = engine.resolve(state, text)
                rng = random.Random(f"{job.seed}/review/{index}/{seat}")
                worlds = job.worlds or WORLDS[job.variant]
                found.append(judge_decision(view, lacks, made, rng, worlds, index))
        state, _events = engine.apply(state, text, seat)
        deal_moves.append((seat, text))
    return found


def judge_decision(
    view: View, lacks: Sequence[int], made: Move, rng: random.Random, worlds: int, index: int = 0
) -> Judged:
    """The move made and the best one at ``view``, with the chance of winning each gave."""
    chances = move_chances(view, lacks, rng, worlds)
    best = max(range(len(view.legal)), key=lambda i: (chances[i], -i))
    played = view.legal.index(made)
    return Judged(index, made, view.legal[best], chances[played], chances[best])


def move_chances(view: View, lacks: Sequence[int], rng: random.Random, worlds: int) -> list[float]:
    """Each legal move's mean chance of winning the match over ``worlds`` possible worlds."""
    possible = Worlds(view, lacks)
    codes = [possible.base.code_of(move) for move in view.legal]
    chance = win_chance(view)
    totals = [0.0] * len(codes)
    seen: dict[tuple[int, ...], float] = {}
    for _ in range(worlds):
        for i, written in enumerate(scores_each(possible.sample(rng), codes, rng)):
            value = seen.get(written)
            if value is None:
                value = seen[written] = chance(written)
            totals[i] += value
    return [total / worlds for total in totals]


def state_before(job: ReviewJob, index: int) -> State[Any]:
    """The match just before its move ``index`` (for the position's picture)."""
    state = engine.new_match(job.variant, job.players, job.options, job.seed, job.deals[0])
    for seat, text in job.moves[:index]:
        if state.deal_over:
            state = engine.next_deal(state, job.deals[state.deal_number])
        state, _events = engine.apply(state, text, seat)
    if state.deal_over:
        state = engine.next_deal(state, job.deals[state.deal_number])
    return state
