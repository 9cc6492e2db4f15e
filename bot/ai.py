"""Computer players: given what one seat may see, choose one of its legal moves.

Each level is a function ``(view, rng) -> Move`` that sees only the engine's
:class:`~engine.View` of its own seat, so a computer never peeks at another
hand. Stronger players plug in by registering another level.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from engine import Kind, Move, View

Player = Callable[[View, random.Random], Move]

DEFAULT_LEVEL: Final = "greedy"

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
    best = max(_greedy_key(m) for m in view.legal)
    return rng.choice([m for m in view.legal if _greedy_key(m) == best])


def _greedy_key(move: Move) -> tuple[int, int, bool]:
    tiles = [t for t in (move.tile, move.second) if t is not None]
    pips = sum(t.pips for t in tiles)
    double = any(t.is_double for t in tiles)
    return _KIND_RANK[move.kind], pips, double


LEVELS: Final[dict[str, Player]] = {"random": random_player, "greedy": greedy_player}


def levels() -> tuple[str, ...]:
    return tuple(LEVELS)


def choose(view: View, rng: random.Random, level: str = DEFAULT_LEVEL) -> Move:
    """The move a computer of ``level`` makes from ``view`` (its seat must be to move)."""
    if not view.legal:
        raise ValueError(f"seat {view.seat} has no move to choose")
    return LEVELS.get(level, LEVELS[DEFAULT_LEVEL])(view, rng)


def rng_for(seed: int, counter: int, seat: int) -> random.Random:
    """The computer's dice for one decision, fixed by the game, so a replay of the
    stored game makes the same choices."""
    return random.Random(f"{seed}/ai/{counter}/{seat}")
