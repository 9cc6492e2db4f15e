"""A review weighs a move by the chance of winning the match it leaves, which ends
where each game's Variant says: at a target, after so many deals, or with a goat."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.ai.chance import win_chance
from engine import View, new_match, view


def seen(variant: str, totals: tuple[int, ...], deal: int = 1, **options: Any) -> View:
    """Seat 0's view of a fresh deal, at these totals and this deal's number."""
    base = view(new_match(variant, len(totals), options, seed=1), 0)
    return replace(base, match_scores=totals, deal_number=deal)


def test_a_deal_that_reaches_tyagas_target_is_the_match_won_or_lost() -> None:
    chance = win_chance(seen("tyaga", (80, 90), target=100))
    assert chance((25, 0)) == 1.0
    assert chance((0, 15)) == 0.0
    assert 0 < chance((5, 0)) < 1


def test_the_fourth_token_wins_three_guns() -> None:
    chance = win_chance(seen("three_guns", (3, 1, 0)))
    assert chance((1, 0, 0)) == 1.0
    assert 0 < chance((0, 1, 0)) < 1  # two tokens each for the others: it goes on


def test_the_last_deal_of_a_thief_of_baghdad_match_decides_it_and_an_earlier_one_does_not() -> None:
    last = win_chance(seen("baghdad", (30, 25), deal=4, match="deals:4"))
    assert last((10, 0)) == 1.0 and last((0, 20)) == 0.0
    earlier = win_chance(seen("baghdad", (30, 25), deal=3, match="deals:4"))
    assert 0 < earlier((10, 0)) < 1


def test_a_thief_of_baghdad_match_to_a_target_ends_there() -> None:
    chance = win_chance(seen("baghdad", (40, 45), match="target:50"))
    assert chance((12, 0)) == 1.0
    assert 0 < chance((5, 0)) < 1


def test_in_kozel_the_lowest_total_wins_once_someone_is_the_goat() -> None:
    chance = win_chance(seen("kozel", (40, 95, 60), target=101))
    assert chance((0, 13, 0)) == 1.0
    assert chance((70, 0, 0)) == 0.0  # seat 0 is the goat
