"""A seat's chance of winning the match once a simulated deal writes its scores.

Kozel has its own (:func:`bot.ai.judge.kozel_chance`). In the other games the highest
total wins: a deal that ends the match is worth 1 to its winners (shared when tied) and
0 to everyone else; otherwise the seat's chance is that of staying ahead of each rival,
as for Kozel, if each sheet's difference from a rival's wanders as a normal walk of
``SPREAD`` a deal, over the deals the match has left (the deals a match of so many deals
has still to play, or as many as the highest total needs at ``PACE`` a deal to reach the
target). ``SPREAD`` and ``PACE`` were measured over 150 matches of random moves each:
the standard deviation of one sheet's deal and the mean of a deal's highest figure.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Final

from bot.ai.judge import kozel_chance
from bot.ai.worlds import seat_of
from engine import View, get_variant

SPREAD: Final = {"tyaga": 16.0, "baghdad": 6.7, "three_guns": 0.6}
PACE: Final = {"tyaga": 25.0, "baghdad": 13.1, "three_guns": 0.9}

Scores = Sequence[int]


def win_chance(view: View) -> Callable[[Scores], float]:
    """The chance, from 0 to 1, that the view's seat wins the match if the deal being
    played writes these scores."""
    me = seat_of(view)
    if get_variant(view.variant).lower_wins:
        return kozel_chance(view, me)
    before = view.match_scores
    spread, pace = SPREAD[view.variant], PACE[view.variant]
    rivals = [s for s in range(view.players) if s != me]
    target, deals = _goal(view)

    def chance(scores: Scores) -> float:
        totals = [b + s for b, s in zip(before, scores, strict=True)]
        highest = max(totals)
        if (target is not None and highest >= target) or deals == 0:
            winners = [s for s, total in enumerate(totals) if total == highest]
            return 1 / len(winners) if me in winners else 0.0
        left = max(1.0, (target - highest) / pace) if target is not None else float(deals or 1)
        scale = 1 / (2 * spread * math.sqrt(left))
        product = 1.0
        for rival in rivals:
            product *= 0.5 + 0.5 * math.erf((totals[me] - totals[rival]) * scale)
        return product

    return chance


def _goal(view: View) -> tuple[int | None, int | None]:
    """The total that ends the match, or the deals it has left after this one."""
    game = get_variant(view.variant)
    target = game.match_target(view.options)
    if target is not None:
        return target, None
    deals = game.match_deals(view.options)
    assert deals is not None  # a match has a target or a number of deals
    return None, max(0, deals - view.deal_number)
