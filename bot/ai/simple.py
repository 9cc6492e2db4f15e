"""The simple levels: any legal move, or the one that sheds the most pips."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from engine import Kind, Move, View

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


def random_player(view: View, rng: random.Random) -> Move:
    """Any legal move, uniformly."""
    return rng.choice(view.legal)


def greedy_player(view: View, rng: random.Random) -> Move:
    """Get rid of points fast: steal or recover when possible (Thief of Baghdad),
    else lay the tiles with the most pips, a double before another tile of the
    same pips; ties are broken at random."""
    return greedy_choice(view.legal, rng)


def greedy_choice(legal: Sequence[Move], rng: random.Random) -> Move:
    best = max(_greedy_key(m) for m in legal)
    return rng.choice([m for m in legal if _greedy_key(m) == best])


def _greedy_key(move: Move) -> tuple[int, int, bool]:
    tiles = [t for t in (move.tile, move.second) if t is not None]
    pips = sum(t.pips for t in tiles)
    double = any(t.is_double for t in tiles)
    return _KIND_RANK[move.kind], pips, double
