"""How good the end of a simulated deal is for the seat that searches.

The deal's own figure, against the others:

- Tyaga, Thief of Baghdad, Three Guns: the seat's own score less the best
  other's (points, points, tokens);
- Kozel (fewer points are better): the opponents' average less the seat's, a
  partner's sheet being the seat's own.

A deal that ends the match counts for the match besides: ``MATCH`` (in the
game's own units) for winning it, shared among its winners, and as much
against for losing it. Near the end a deal that wins the match is worth more
than one that scores more, and a deal that loses it is worth avoiding at any
price. Whether the match ends is worked out from the view's match scores as
the engine works it out: Tyaga and Kozel at the target (Kozel's lowest total
wins once somebody is a goat), Three Guns at four tokens. Thief of Baghdad's
matches are judged by the deal alone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from bot.ai.worlds import seat_of
from engine import View
from engine.playout import Outcome
from engine.variants.kozel_scoring import goats_and_winners
from engine.variants.three_guns import TOKENS_TO_WIN

#: A match won, in each game's own units (points or tokens).
MATCH: Final = {"tyaga": 100.0, "kozel": 100.0, "three_guns": float(TOKENS_TO_WIN)}

Scores = Sequence[int]


def judge(view: View) -> Callable[[Outcome], float]:
    """How good each simulated deal's outcome is for the view's seat."""
    me = seat_of(view)
    deal = _deal_value(view, me)
    winners = _match_winners(view)
    if winners is None:
        return deal
    weight = MATCH[view.variant]

    def with_the_match(outcome: Outcome) -> float:
        won = winners(outcome.scores)
        if not won:
            return deal(outcome)
        share = weight / len(won) if me in won else -weight
        return deal(outcome) + share

    return with_the_match


def _deal_value(view: View, me: int) -> Callable[[Outcome], float]:
    if view.variant == "kozel":
        teams = view.options.get("teams") == "on"
        rivals = [s for s in range(view.players) if (s % 2 != me % 2 if teams else s != me)]

        def fewer_points(outcome: Outcome) -> float:
            scores = outcome.scores
            return sum(scores[s] for s in rivals) / len(rivals) - scores[me]

        return fewer_points
    others = [s for s in range(view.players) if s != me]

    def ahead(outcome: Outcome) -> float:
        scores = outcome.scores
        return scores[me] - max(scores[s] for s in others)

    return ahead


def _match_winners(view: View) -> Callable[[Scores], tuple[int, ...]] | None:
    """The seats that win the match if a deal writes these scores (none while
    the match goes on), or None in a game judged by the deal alone."""
    before = view.match_scores
    if view.variant == "three_guns":
        return lambda scores: _reaching(before, scores, TOKENS_TO_WIN)
    if view.variant not in MATCH:
        return None
    target = int(view.options["target"])
    if view.variant == "tyaga":
        return lambda scores: _reaching(before, scores, target)

    def kozel_winners(scores: Scores) -> tuple[int, ...]:
        totals = tuple(b + s for b, s in zip(before, scores, strict=True))
        return goats_and_winners(totals, target)[1]

    return kozel_winners


def _reaching(before: Scores, scores: Scores, target: int) -> tuple[int, ...]:
    return tuple(
        seat for seat, (b, s) in enumerate(zip(before, scores, strict=True)) if b + s >= target
    )
