"""The simple levels: any legal move, or the best by a one-look heuristic.

``greedy`` looks one move ahead and no further. In Tyaga and Kozel it weighs
each tile it could lay (:class:`LineJudge`): the points it sheds (Kozel's
``[0|0]`` at 25), a double shed while it still fits, the tiles left in hand
that will follow on the new ends, how few unseen tiles fit them, and an
opponent the table showed to hold nothing for them (a rival blocked, a
partner not). In Thief of Baghdad and Three Guns it steals or recovers when it
can and otherwise lays the tile with the most pips.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from bot.ai.clues import ends_after
from bot.ai.worlds import unseen_mask
from engine import Kind, Move, View, get_variant
from engine.playout.codes import FIT, mask_of

# Greedy preference by kind: an extra that wins a caravan first, then tiles,
# and drawing, passing or ending a turn only when nothing else is legal.
_KIND_RANK: Final = {
    Kind.RECOVER: 4,
    Kind.STEAL: 4,
    Kind.DOUBLE: 3,
    Kind.PLAY: 2,
    Kind.DRAW: 1,
    Kind.DONE: 0,
    Kind.PASS: 0,
}

# The line games' weights, per pip shed, per double shed, per tile of the hand
# left that fits the new ends, per unseen tile that fits them, and per rival
# (or partner, counted against) known to hold nothing for them. Chosen by
# reason, then checked by playing greedy against random in the arena.
PIP: Final = 1.0
DOUBLE_SHED: Final = 4.0
FOLLOW: Final = 2.0
OPEN_TO_OTHERS: Final = 0.5
BLOCKED: Final = 6.0


def random_player(view: View, rng: random.Random, lacks: Sequence[int] | None = None) -> Move:
    """Any legal move, uniformly."""
    return rng.choice(view.legal)


def greedy_player(view: View, rng: random.Random, lacks: Sequence[int] | None = None) -> Move:
    """The legal move the heuristic of the view's game likes best; ties are
    broken at random. ``lacks`` are the tiles each seat is known not to hold."""
    scores = greedy_scores(view, lacks)
    best = max(scores)
    return rng.choice([m for m, s in zip(view.legal, scores, strict=True) if s == best])


def greedy_scores(view: View, lacks: Sequence[int] | None = None) -> list[float]:
    """How much the heuristic of the view's game likes each legal move."""
    game = get_variant(view.variant)
    # The line's judge reads an end as the value it shows and a turn as one tile laid:
    # not so where tiles go across (Three Guns) or a camel may be followed by an extra
    # (Thief of Baghdad).
    if not game.plays_across and not game.ends_at_will:
        judge = LineJudge(view, lacks)
        return [judge.score(m) for m in view.legal]
    return [_greedy_key(m) for m in view.legal]


def _greedy_key(move: Move) -> float:
    """Thief of Baghdad and Three Guns: steal or recover when possible, else lay
    the tiles with the most pips, a double before another tile of the same pips
    (the kind's rank first, then pips, at most 24, then a half for a double)."""
    tiles = [t for t in (move.tile, move.second) if t is not None]
    pips = sum(t.pips for t in tiles)
    double = any(t.is_double for t in tiles)
    return 100 * _KIND_RANK[move.kind] + pips + 0.5 * double


class LineJudge:
    """Scores Tyaga's and Kozel's moves for the seat whose view this is."""

    def __init__(self, view: View, lacks: Sequence[int] | None) -> None:
        assert view.seat is not None
        self.view = view
        self.hand = mask_of(view.hand)
        self.unseen = unseen_mask(view)
        self.game = get_variant(view.variant)
        seat, players = view.seat, view.players
        partners = {s for team in self.game.teams(view.options) if seat in team for s in team}
        known = lacks if lacks is not None else (0,) * players
        # Each other seat, with +1 for a rival and -1 for a partner, and what it lacks.
        self.others = [
            (-1.0 if s in partners else 1.0, known[s]) for s in range(players) if s != seat
        ]

    def score(self, move: Move) -> float:
        if move.kind is not Kind.PLAY and move.kind is not Kind.DOUBLE:
            return -1e9  # drawing or passing is only ever the one legal move
        placed = [t for t in (move.tile, move.second) if t is not None]
        left, right = self._ends_after(move)
        fits = FIT[left] | FIT[right]
        rest = self.hand & ~mask_of(tuple(placed))
        open_to_others = self.unseen & fits
        blocked = sum(side for side, lack in self.others if not open_to_others & ~lack)
        return (
            PIP * sum(self.game.tile_points(t) for t in placed)
            + DOUBLE_SHED * sum(t.is_double for t in placed)
            + FOLLOW * (rest & fits).bit_count()
            - OPEN_TO_OTHERS * open_to_others.bit_count()
            + BLOCKED * blocked
        )

    def _ends_after(self, move: Move) -> tuple[int, int]:
        if move.kind is Kind.DOUBLE:
            assert self.view.ends is not None
            return self.view.ends
        return ends_after(self.view.ends, move)
