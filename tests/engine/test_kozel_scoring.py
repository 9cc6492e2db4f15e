"""Kozel: how a deal ends, how its points are written, and the goat who ends the match."""

from __future__ import annotations

import pytest

from engine import api
from engine.errors import GameOver
from engine.state import DealEnd, Event
from tests.engine.kozel_deals import (
    AFTER_FISH,
    CHAIN_1,
    CHAIN_1_MOVES,
    CHAIN_2,
    CHAIN_2_MOVES,
    DRAWING,
    DRAWING_REST,
    DRAWING_UNTIL_STUCK,
    FISH,
    FISH_MOVES,
    deal,
    draws,
    fish_deal,
    fished,
    play,
    seen,
    start,
)

# -- the end of a deal --------------------------------------------------------------


def test_fish_is_declared_at_once_when_nobody_can_move() -> None:
    state, _ = play(start(FISH), FISH_MOVES[:-1])
    assert not state.deal_over and len(state.boneyard) == 1
    state, events = api.apply(state, "draw", 2)
    assert state.deal_over and state.turn is None
    assert state.result is not None and state.result.end is DealEnd.BLOCK
    assert api.legal_moves(state) == ()
    assert events[-1].kind == "deal_over"
    assert dict(events[-1].info)["end"] == "block"


def test_domino_ends_the_deal_and_every_player_adds_his_pips() -> None:
    state, events = play(start(DRAWING), [*DRAWING_UNTIL_STUCK, *DRAWING_REST])
    assert state.deal_over and state.result is not None
    assert (state.result.end, state.result.winner) == (DealEnd.DOMINO, 0)
    # Seat 1 keeps 4-2 (6, under 13, dropped); seat 2 keeps 0-0 2-0 5-5 5-4.
    assert state.result.scores == (0, 0, 25 + 2 + 10 + 9)
    assert dict(events[-1].info)["scores"] == (0, 0, 46)


# -- scoring ----------------------------------------------------------------------------


def test_blank_double_counts_25_with_other_tiles_by_default() -> None:
    state, _ = play(start(DRAWING), [*DRAWING_UNTIL_STUCK, *DRAWING_REST])
    assert state.deal_scores == (0, 0, 46)


def test_blank_double_alone_counts_nothing_beside_other_tiles() -> None:
    state = start(DRAWING, {"blank_double": "alone"})
    state, _ = play(state, [*DRAWING_UNTIL_STUCK, *DRAWING_REST])
    assert state.deal_scores == (0, 0, 0 + 2 + 10 + 9)


@pytest.mark.parametrize("rule", ["always", "alone"])
def test_blank_double_as_the_last_tile_counts_25(rule: str) -> None:
    state, _ = play(start(CHAIN_1, {"blank_double": rule}), CHAIN_1_MOVES)
    assert state.deal_scores == (0, 0, 25)


def test_sheet_opens_at_13_and_smaller_deals_are_dropped_not_carried() -> None:
    state, _ = play(start(CHAIN_1), CHAIN_1_MOVES)
    assert state.deal_scores == (0, 0, 25)  # seat 1's 4 points are dropped
    assert seen(state, 0).opened == (False, False, True)
    state, _ = play(api.next_deal(state, CHAIN_2), CHAIN_2_MOVES)
    # Seat 1 holds 9: with the dropped 4 that would make 13, but nothing carries.
    # Seat 2's sheet is open, so its 2 points are written.
    assert state.deal_scores == (0, 0, 2)
    assert state.match_scores == (0, 0, 27)
    assert seen(state, 1).opened == (False, False, True)


def test_deal_of_exactly_13_opens_the_sheet() -> None:
    # Seat 3 keeps 4-2 2-2 2-1, 13 points; seats 0 and 1 keep 8 and 4.
    state = fished(fish_deal("4-1 3-0", "1-1 2-0", "5-5 4-4 5-3", "4-2 2-2 2-1"))
    assert state.deal_scores == (0, 0, 90, 13)
    assert seen(state, 0).opened == (False, False, True, True)


def test_teams_share_a_sheet_and_the_13_rule_applies_to_their_sum() -> None:
    state = fished(FISH, {"teams": "on"})
    # Seats 0+2: 8 + 90; seats 1+3: 5 + 12, each under 13 but 17 together.
    assert state.deal_scores == (98, 17, 98, 17)
    assert state.match_scores == (98, 17, 98, 17)
    details = seen(state, 0)
    assert details.opened == (True, True, True, True)
    assert details.teams == ((0, 2), (1, 3))


def test_without_teams_each_seat_keeps_its_own_sheet() -> None:
    state = fished(FISH)
    assert state.deal_scores == (0, 0, 90, 0)


def test_teams_fish_leader_is_still_the_seat_with_fewest_points() -> None:
    state = fished(FISH, {"teams": "on"})
    assert api.next_deal(state, AFTER_FISH).turn == 1


# -- the end of the match -----------------------------------------------------------


def test_player_reaching_101_is_the_goat_and_the_lowest_total_wins() -> None:
    fixture = deal("6-6 6-5 6-4 6-3 6-2 6-1 6-0", "5-4 3-2 1-0 0-0 5-5 4-4 3-3")
    moves = [
        (0, "6-6"), *draws(1, 14), (1, "pass"), (0, "6-5@R"), (1, "5-4@R"), (0, "6-4@R"),
        (1, "pass"), (0, "6-3@R"), (1, "3-2@R"), (0, "6-2@R"), (1, "pass"), (0, "6-1@R"),
        (1, "1-0@R"), (0, "6-0@R"),
    ]  # fmt: skip
    state, events = play(start(fixture), moves)
    # Seat 1 holds every tile without a 6 but 5-4, 3-2, 1-0: 90 pips, 0-0 at 25.
    assert state.match_scores == (0, 115)
    assert state.match_over and state.winners == (0,)
    assert seen(state, 0).goats == (1,)
    assert events[-1] == Event("match_over", info=(("winners", (0,)),))
    with pytest.raises(GameOver):
        api.next_deal(state)


def test_goat_ties_for_the_lowest_total_share_the_win() -> None:
    state, _ = play(start(CHAIN_1, {"target": 25}), CHAIN_1_MOVES)
    assert state.match_scores == (0, 0, 25)
    assert state.match_over and state.winners == (0, 1)
    assert seen(state, 2).goats == (2,)


def test_match_goes_on_below_the_target() -> None:
    state, _ = play(start(CHAIN_1, {"target": 26}), CHAIN_1_MOVES)
    assert state.deal_over and not state.match_over and state.winners == ()


def test_teams_goat_makes_both_partners_of_the_other_team_win() -> None:
    state = fished(FISH, {"teams": "on", "target": 90})
    assert state.match_over and state.winners == (1, 3)
    assert seen(state, 3).goats == (0, 2)


def test_when_every_sheet_reaches_the_target_the_lowest_total_still_wins() -> None:
    state = fished(FISH, {"teams": "on", "target": 17})
    assert state.match_scores == (98, 17, 98, 17)
    assert state.winners == (1, 3)
    assert seen(state, 0).goats == (0, 1, 2, 3)
