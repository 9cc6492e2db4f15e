"""The strong level judges a simulated deal by its scores, and by the match when
the deal ends it; Kozel's deals by the chance of winning the match."""

from __future__ import annotations

import pytest

from bot.ai.judge import MATCH, judge
from engine import View, new_match, view


def seen(
    variant: str, players: int, totals: tuple[int, ...], seat: int = 0, teams: bool = False
) -> View:
    options = {"teams": "on"} if teams else {}
    base = view(new_match(variant, players, options, seed=1), seat)
    fields = {name: getattr(base, name) for name in View.__dataclass_fields__}
    fields["match_scores"] = totals
    return View(**fields)


def test_a_deal_that_goes_on_with_the_match_counts_its_scores_alone() -> None:
    value = judge(seen("tyaga", 2, (10, 20)))
    assert value((30, 0)) == 30


def test_a_tyaga_deal_that_reaches_the_target_wins_the_match() -> None:
    value = judge(seen("tyaga", 2, (80, 90)))
    assert value((25, 0)) == 25 + MATCH["tyaga"]
    assert value((0, 15)) == -15 - MATCH["tyaga"]


def test_a_kozel_deal_that_makes_a_goat_wins_for_the_lowest_total_and_loses_for_the_rest() -> None:
    near = (40, 95, 60)
    assert judge(seen("kozel", 3, near, seat=0))((0, 13, 0)) == 1
    assert judge(seen("kozel", 3, near, seat=2))((0, 13, 0)) == 0
    assert judge(seen("kozel", 3, near, seat=1))((0, 13, 0)) == 0
    # the same deal with no goat leaves each seat a chance between the two
    assert 0 < judge(seen("kozel", 3, (40, 80, 60), seat=0))((0, 13, 0)) < 1


def test_a_shared_kozel_match_win_is_worth_a_share() -> None:
    value = judge(seen("kozel", 3, (50, 95, 50)))
    assert value((0, 13, 0)) == 0.5


def test_in_kozel_fewer_points_of_ones_own_are_better_and_more_of_a_rivals() -> None:
    value = judge(seen("kozel", 3, (30, 40, 50)))
    assert value((0, 20, 20)) > value((13, 20, 20)) > value((20, 20, 20))
    assert value((13, 25, 13)) > value((13, 13, 13))


def test_in_kozel_a_point_on_the_rival_nearest_below_counts_more_than_on_one_far_above() -> None:
    value = judge(seen("kozel", 3, (40, 35, 80)))
    assert value((0, 15, 0)) > value((0, 0, 15))
    # with the two rivals level, the two deals are alike
    level = judge(seen("kozel", 3, (40, 50, 50)))
    assert level((0, 15, 0)) == pytest.approx(level((0, 0, 15)))


def test_in_kozel_the_same_lead_is_worth_more_the_nearer_the_goat() -> None:
    early = judge(seen("kozel", 2, (20, 30)))((0, 0))
    late = judge(seen("kozel", 2, (80, 90)))((0, 0))
    assert 0.5 < early < late < 1
    # and a seat far behind keeps less hope late than early
    assert judge(seen("kozel", 2, (80, 40)))((0, 0)) < judge(seen("kozel", 2, (50, 10)))((0, 0))


def test_kozel_partners_share_a_sheet_and_face_the_other_team_alone() -> None:
    value = judge(seen("kozel", 4, (30, 40, 30, 40), seat=2, teams=True))
    assert value((0, 26, 0, 26)) > value((13, 13, 13, 13))
    # the seat's own sheet is its partner's: the lead over the other team alone counts
    alone = judge(seen("kozel", 2, (30, 40)))((0, 0))
    assert value((0, 0, 0, 0)) == pytest.approx(alone)


def test_the_fourth_token_wins_three_guns() -> None:
    value = judge(seen("three_guns", 3, (3, 1, 2)))
    assert value((1, 0, -1)) == 1 + MATCH["three_guns"]
    assert judge(seen("three_guns", 3, (2, 1, 2)))((1, 0, -1)) == 1


def test_thief_of_baghdad_is_judged_by_the_deal_alone() -> None:
    value = judge(seen("baghdad", 2, (200, 0)))
    assert value((30, 10)) == 20
