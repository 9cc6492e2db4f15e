"""How good the end of a simulated deal is for the seat that searches.

Tyaga, Thief of Baghdad and Three Guns are judged by the deal's own figure:
the seat's own score less the best other's (points, points, tokens). A deal
that ends the match counts for the match besides: ``MATCH`` (in the game's own
units) for winning it, shared among its winners, and as much against for
losing it. Near the end a deal that wins the match is worth more than one that
scores more, and a deal that loses it is worth avoiding at any price. Whether
the match ends is worked out from the view's match scores as the engine works
it out: Tyaga at the target, Three Guns at four tokens. Thief of Baghdad's
matches are judged by the deal alone.

Kozel is judged by the match alone, as the chance that the seat ends it with
the lowest total (:func:`kozel_chance`): a Kozel match is lost by the goat but
won only by the lowest total, so at three or four players a point given to the
rival nearest the seat's total counts for more than one given to a rival far
above it, a deal matters more the nearer the goat, and a seat far behind may
take risks a seat ahead should not. A deal that makes a goat is worth 1 to the
lowest total (shared when tied) and 0 to everyone else.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Final

from bot.ai.worlds import seat_of
from engine import View, get_variant
from engine.variants.kozel_scoring import goats_and_winners
from engine.variants.three_guns import TOKENS_TO_WIN

#: A match won, in each game's own units (points or tokens); none for Thief of
#: Baghdad, judged by the deal alone.
MATCH: Final = {"tyaga": 100.0, "three_guns": float(TOKENS_TO_WIN)}
#: How much one sheet's figure for a Kozel deal varies (its standard deviation),
#: and how far the highest total moves a deal: in 300 matches of greedy players
#: to 101, one sheet's deal varied by 17.5 points at three players (19.9 at
#: two, 15.0 at four), and a match lasted 5.7 deals at three and four players
#: (6.8 at two), about 17 points a deal for the highest total.
KOZEL_SPREAD: Final = 17.0
KOZEL_PACE: Final = 17.0

Scores = Sequence[int]


def judge(view: View) -> Callable[[Scores], float]:
    """How good a simulated deal is for the view's seat, by the scores it
    writes (``Outcome.scores``)."""
    me = seat_of(view)
    if get_variant(view.variant).lower_wins:
        return kozel_chance(view, me)
    deal = _deal_value(view, me)
    weight = MATCH.get(view.variant)
    winners = _match_winners(view) if weight is not None else None
    if winners is None or weight is None:
        return deal

    def with_the_match(scores: Scores) -> float:
        won = winners(scores)
        if not won:
            return deal(scores)
        share = weight / len(won) if me in won else -weight
        return deal(scores) + share

    return with_the_match


def _deal_value(view: View, me: int) -> Callable[[Scores], float]:
    others = [s for s in range(view.players) if s != me]

    def ahead(scores: Scores) -> float:
        return scores[me] - max(scores[s] for s in others)

    return ahead


def _match_winners(view: View) -> Callable[[Scores], tuple[int, ...]] | None:
    """The seats that win the match if a deal writes these scores (none while
    the match goes on), or None in a match of so many deals."""
    before = view.match_scores
    target = get_variant(view.variant).match_target(view.options)
    if target is None:
        return None
    return lambda scores: _reaching(before, scores, target)


def kozel_chance(view: View, me: int) -> Callable[[Scores], float]:
    """The chance that seat ``me`` wins the Kozel match once a deal's scores are
    written: 1 or 0 (or a share) when the deal makes a goat, and otherwise the
    chance of staying below each rival (a partner's sheet is the seat's own) if
    every sheet's difference from a rival's wanders as a normal walk of
    ``KOZEL_SPREAD`` a deal for as many deals as the highest total, at
    ``KOZEL_PACE`` a deal, needs to reach the target (at least one). The rivals
    are taken one by one, as if independent: a rough figure, but one that
    weighs each rival by how near it is."""
    before = view.match_scores
    game = get_variant(view.variant)
    target = game.match_target(view.options)
    assert target is not None  # the goat is whoever reaches it
    teams = game.teams(view.options)
    # A rival team is one rival: its partners' sheets are one and the same.
    rivals = [team[0] for team in teams if me not in team] or [
        s for s in range(view.players) if s != me
    ]

    def chance(scores: Scores) -> float:
        totals = tuple(b + s for b, s in zip(before, scores, strict=True))
        highest = max(totals)
        if highest >= target:
            winners = goats_and_winners(totals, target)[1]
            return 1 / len(winners) if me in winners else 0.0
        deals = max(1.0, (target - highest) / KOZEL_PACE)
        # A lead is used up by a walk of sqrt(2) spreads a deal (two sheets
        # wander), over sqrt(deals) deals; erf takes it in sqrt(2) such units.
        scale = 1 / (2 * KOZEL_SPREAD * math.sqrt(deals))
        mine = totals[me]
        product = 1.0
        for rival in rivals:
            product *= 0.5 + 0.5 * math.erf((totals[rival] - mine) * scale)
        return product

    return chance


def _reaching(before: Scores, scores: Scores, target: int) -> tuple[int, ...]:
    return tuple(
        seat for seat, (b, s) in enumerate(zip(before, scores, strict=True)) if b + s >= target
    )
