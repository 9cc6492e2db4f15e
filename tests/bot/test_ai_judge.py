"""The strong level judges a simulated deal by its scores, and by the match when
the deal ends it."""

from __future__ import annotations

from bot.ai.judge import MATCH, judge
from engine import View, new_match, view
from engine.playout import Outcome
from engine.state import DealEnd


def seen(variant: str, players: int, totals: tuple[int, ...], seat: int = 0) -> View:
    base = view(new_match(variant, players, seed=1), seat)
    fields = {name: getattr(base, name) for name in View.__dataclass_fields__}
    fields["match_scores"] = totals
    return View(**fields)


def ending(scores: tuple[int, ...]) -> Outcome:
    return Outcome(DealEnd.DOMINO, None, scores, (0,) * len(scores), 0)


def test_a_deal_that_goes_on_with_the_match_counts_its_scores_alone() -> None:
    value = judge(seen("tyaga", 2, (10, 20)))
    assert value(ending((30, 0))) == 30
    assert judge(seen("kozel", 3, (0, 0, 0)))(ending((0, 20, 10))) == 15


def test_a_tyaga_deal_that_reaches_the_target_wins_the_match() -> None:
    value = judge(seen("tyaga", 2, (80, 90)))
    assert value(ending((25, 0))) == 25 + MATCH["tyaga"]
    assert value(ending((0, 15))) == -15 - MATCH["tyaga"]


def test_a_kozel_deal_that_makes_a_goat_wins_for_the_lowest_total_and_loses_for_the_rest() -> None:
    near = (40, 95, 60)
    assert judge(seen("kozel", 3, near, seat=0))(ending((0, 13, 0))) == 6.5 + MATCH["kozel"]
    assert judge(seen("kozel", 3, near, seat=2))(ending((0, 13, 0))) == 6.5 - MATCH["kozel"]
    # the same deal with no goat is worth its scores alone
    assert judge(seen("kozel", 3, (40, 80, 60), seat=0))(ending((0, 13, 0))) == 6.5


def test_a_shared_match_win_is_worth_a_share() -> None:
    value = judge(seen("kozel", 3, (50, 95, 50)))
    assert value(ending((0, 13, 0))) == 6.5 + MATCH["kozel"] / 2


def test_the_fourth_token_wins_three_guns() -> None:
    value = judge(seen("three_guns", 3, (3, 1, 2)))
    assert value(ending((1, 0, -1))) == 1 + MATCH["three_guns"]
    assert judge(seen("three_guns", 3, (2, 1, 2)))(ending((1, 0, -1))) == 1


def test_thief_of_baghdad_is_judged_by_the_deal_alone() -> None:
    value = judge(seen("baghdad", 2, (200, 0)))
    assert value(ending((30, 10))) == 20
