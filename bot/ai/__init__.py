"""Computer players: given what one seat may see, choose one of its legal moves.

A level sees only the engine's :class:`~engine.View` of its own seat (and the
clues every seat could read from the moves, :mod:`bot.ai.clues`), so a
computer never peeks at another hand. ``random`` plays any legal move,
``greedy`` sheds the most pips, ``strong`` searches possible worlds on the
playout simulators (:mod:`bot.ai.search`) within a time allowance.
:mod:`bot.ai.thinker` runs searches in worker processes, off the event loop;
``python -m bot.ai arena`` pits levels against each other. The worker processes
computers think in (:mod:`bot.ai.workers`) serve the pictures too. It imports the
engine and libraries, nothing else of the core.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final

from bot.ai.search import DEFAULT_SECONDS, Allowance, Decision, strong_search
from bot.ai.simple import greedy_player, random_player
from engine import Move, View

Player = Callable[[View, random.Random, Sequence[int] | None], Move]

DEFAULT_LEVEL: Final = "strong"
STRONG: Final = "strong"
SIMPLE: Final[dict[str, Player]] = {"random": random_player, "greedy": greedy_player}

__all__ = [
    "DEFAULT_LEVEL",
    "DEFAULT_SECONDS",
    "Allowance",
    "Decision",
    "choose",
    "decide",
    "dice_for",
    "levels",
    "rng_for",
]


def levels() -> tuple[str, ...]:
    return (*SIMPLE, STRONG)


def choose(
    view: View,
    rng: random.Random,
    level: str = DEFAULT_LEVEL,
    allowance: Allowance | None = None,
    lacks: Sequence[int] | None = None,
) -> Move:
    """The move a computer of ``level`` makes from ``view`` (its seat must be to
    move). ``allowance`` bounds a search (default: ``DEFAULT_SECONDS``); ``lacks``
    are the tiles each seat is known not to hold (:func:`bot.ai.clues.clues`).
    The same view, dice and world allowance always give the same move."""
    return decide(view, rng, level, allowance, lacks).move


def decide(
    view: View,
    rng: random.Random,
    level: str = DEFAULT_LEVEL,
    allowance: Allowance | None = None,
    lacks: Sequence[int] | None = None,
) -> Decision:
    """:func:`choose`'s move, with how many possible worlds a search looked at."""
    if not view.legal:
        raise ValueError(f"seat {view.seat} has no move to choose")
    if level == STRONG:
        return strong_search(view, rng, allowance or Allowance(), lacks)
    return Decision(SIMPLE.get(level, SIMPLE["greedy"])(view, rng, lacks))


def dice_for(seed: int, counter: int, seat: int) -> str:
    """The seed of the computer's dice for one decision, fixed by the game."""
    return f"{seed}/ai/{counter}/{seat}"


def rng_for(seed: int, counter: int, seat: int) -> random.Random:
    """The computer's dice for one decision, fixed by the game, so the same
    position and allowance make the same choice."""
    return random.Random(dice_for(seed, counter, seat))
