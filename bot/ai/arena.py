"""Pit two computer levels against each other and say how often each wins.

Level A sits in one seat and level B in all the others; the seat A takes turns
round the table from one match to the next, so each level plays every position
equally (over a multiple of the table's size). A match shared by several
winners counts as a fraction of a win for each. With ``deals`` each game is one
deal (the first of a fresh match) and its winner counts; the others play whole
matches. Decision times are measured around each choice that had more than one
legal move. With ``worlds`` set, the strong level thinks over that many
possible worlds whatever the time, so two runs on the same seeds play the same
games however busy the machine is.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import engine
from bot.ai import Allowance, decide
from bot.ai.clues import clues
from engine import State
from engine.state import OptionValue

Z95: Final = 1.959964


@dataclass
class Tally:
    """One level's results."""

    level: str
    seats: int  # seats it held per game
    games: int = 0
    wins: float = 0.0
    times: list[float] = field(default_factory=list)
    worlds: list[int] = field(default_factory=list)  # searched, decision by decision
    shares: list[float] = field(default_factory=list)  # of each game's win, game by game

    def interval(self) -> tuple[float, float]:
        """The Wilson score interval at 95% for the win rate."""
        n = self.games
        if n == 0:
            return 0.0, 1.0
        p = self.wins / n
        centre = p + Z95 * Z95 / (2 * n)
        spread = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n))
        scale = 1 + Z95 * Z95 / n
        return (centre - spread) / scale, (centre + spread) / scale

    def line(self, players: int) -> str:
        rate = self.wins / self.games if self.games else 0.0
        low, high = self.interval()
        fair = self.seats / players
        mean = statistics.fmean(self.times) * 1000 if self.times else 0.0
        p95 = _percentile(self.times, 0.95) * 1000
        searched = ""
        if any(self.worlds):
            ordered = sorted(self.worlds)
            searched = (
                f"; worlds a decision mean {statistics.fmean(ordered):.0f}, "
                f"median {ordered[len(ordered) // 2]}, lowest {ordered[0]}"
            )
        return (
            f"{self.level:>7}: win rate {rate:6.1%} (95% CI {low:.1%}-{high:.1%}; "
            f"fair share {fair:.1%}) over {self.games} games; "
            f"decision time mean {mean:.1f} ms, p95 {p95:.1f} ms over {len(self.times)} decisions"
            f"{searched}"
        )


def paired(new: Sequence[float], old: Sequence[float]) -> tuple[float, float, float]:
    """How much more of each game the level won in ``new`` than in ``old``, the
    same games (seeds and seats) played by two versions of it: the mean paired
    difference and its 95% interval (normal, from the differences' spread).
    Pairing takes out the luck of the deals that both versions met alike."""
    if len(new) != len(old) or len(new) < 2:
        raise ValueError(f"need the same games, at least two: {len(new)} and {len(old)}")
    differences = [a - b for a, b in zip(new, old, strict=True)]
    mean = statistics.fmean(differences)
    error = statistics.stdev(differences) / math.sqrt(len(differences))
    return mean, mean - Z95 * error, mean + Z95 * error


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass(frozen=True)
class Arena:
    variant: str
    players: int
    a: str
    b: str
    options: Mapping[str, OptionValue] = field(default_factory=dict)
    deals: bool = False
    seconds: float = 0.05
    worlds: int | None = None
    clock: Callable[[], float] = field(default=time.perf_counter, compare=False)

    def run(
        self, games: int, seed: int = 0, report: Callable[[str], None] | None = None
    ) -> tuple[Tally, Tally]:
        a, b = Tally(self.a, 1), Tally(self.b, self.players - 1)
        for game in range(games):
            seat_a = game % self.players
            levels = [self.b] * self.players
            levels[seat_a] = self.a
            by_seat = [b] * self.players
            by_seat[seat_a] = a
            winners = self.play(levels, seed + game, by_seat)
            a.games += 1
            b.games += 1
            share = 1 / len(winners) if winners else 0.0
            a.shares.append(share * sum(1 for s in winners if s == seat_a))
            b.shares.append(share * sum(1 for s in winners if s != seat_a))
            a.wins += a.shares[-1]
            b.wins += b.shares[-1]
            if report is not None and (game + 1) % 50 == 0:
                report(f"after {game + 1} games: {a.wins:.1f} / {b.wins:.1f}")
        return a, b

    def play(self, levels: list[str], seed: int, tallies: list[Tally]) -> tuple[int, ...]:
        """One game; the seats that won it."""
        state = engine.new_match(self.variant, self.players, self.options, seed)
        rng = random.Random(f"arena/{seed}")
        if self.worlds is not None:
            allowance = Allowance.of_worlds(self.worlds)
        else:
            allowance = Allowance(seconds=self.seconds, clock=self.clock)
        moves: list[tuple[int, str]] = []
        while True:
            if state.deal_over:
                if self.deals:
                    return _deal_winners(state)
                if state.match_over:
                    return state.winners
                state, moves = engine.next_deal(state), []
                continue
            state, moves = self._move(state, moves, levels, rng, allowance, tallies)

    def _move(
        self,
        state: State[Any],
        moves: list[tuple[int, str]],
        levels: list[str],
        rng: random.Random,
        allowance: Allowance,
        tallies: list[Tally],
    ) -> tuple[State[Any], list[tuple[int, str]]]:
        seat = state.turn
        assert seat is not None
        seen = engine.view(state, seat)
        if len(seen.legal) == 1:
            move = seen.legal[0]
        else:
            started = self.clock()
            lacks = clues(self.variant, self.players, moves)
            decision = decide(seen, rng, levels[seat], allowance, lacks)
            tallies[seat].times.append(self.clock() - started)
            tallies[seat].worlds.append(decision.worlds)
            move = decision.move
        after, _ = engine.apply(state, move)
        return after, [*moves, (seat, engine.format_move(move))]


def _deal_winners(state: State[Any]) -> tuple[int, ...]:
    result = state.result
    assert result is not None
    return () if result.winner is None else (result.winner,)
