"""Thief of Baghdad: the match (its length, its winner, who leads) and its options."""

from __future__ import annotations

import pytest

from engine import (
    BadFixture,
    BadOption,
    Fixture,
    apply,
    get_variant,
    legal_moves,
    new_match,
    next_deal,
)
from tests.engine.baghdad_deals import DEAL_A, DEAL_C, MOVES_A, MOVES_C, replay, start, swapped

# -- the match -------------------------------------------------------------------


def test_a_match_of_n_deals_goes_to_the_higher_total() -> None:
    first = replay("deals:2", (DEAL_A, MOVES_A))
    assert first.deal_over and not first.match_over
    state = replay("deals:2", (DEAL_A, MOVES_A), swapped(DEAL_C, MOVES_C))
    assert state.match_scores == (0 + 5, 24 + 2)
    assert state.match_over and state.winners == (1,) and state.turn is None


def test_a_match_of_n_deals_with_equal_totals_is_shared() -> None:
    state = replay("deals:2", (DEAL_C, MOVES_C), swapped(DEAL_C, MOVES_C))
    assert state.match_scores == (2 + 5, 5 + 2)
    assert state.match_over and state.winners == (0, 1)


def test_the_default_match_is_six_deals() -> None:
    assert new_match("baghdad", 2).options["match"] == "deals:6"
    state = replay("deals:6", (DEAL_C, MOVES_C), swapped(DEAL_C, MOVES_C))
    assert not state.match_over
    for number in range(3, 7):
        state = next_deal(state)
        while not state.deal_over:
            state, _ = apply(state, legal_moves(state)[0])
        assert state.deal_number == number and state.match_over == (number == 6)


def test_a_target_match_ends_when_a_total_reaches_the_target() -> None:
    state = replay("target:24", (DEAL_A, MOVES_A))
    assert state.match_scores == (0, 24)
    assert state.match_over and state.winners == (1,)
    short = replay("target:25", (DEAL_A, MOVES_A))
    assert not short.match_over


def test_a_target_reached_by_both_goes_to_the_higher_total() -> None:
    state = replay("target:2", (DEAL_C, MOVES_C))
    assert state.match_scores == (2, 5)
    assert state.match_over and state.winners == (1,)


def test_a_target_reached_by_both_with_equal_totals_is_shared() -> None:
    first = replay("target:7", (DEAL_C, MOVES_C))
    assert not first.match_over  # 2 and 5 are short of 7
    state = replay("target:7", (DEAL_C, MOVES_C), swapped(DEAL_C, MOVES_C))
    assert state.match_scores == (7, 7)
    assert state.match_over and state.winners == (0, 1)


def test_the_players_lead_deals_in_turn() -> None:
    state = replay("deals:6", (DEAL_C, MOVES_C))
    assert state.leader == 1
    state = next_deal(state)
    assert state.leader == 0 and state.turn == 0
    state = replay("deals:6", (DEAL_C, MOVES_C), swapped(DEAL_C, MOVES_C))
    assert next_deal(state).leader == 1


def test_the_first_leader_is_drawn_from_the_seed() -> None:
    leaders = {new_match("baghdad", 2, seed=s).leader for s in range(20)}
    assert leaders == {0, 1}
    for seed in range(5):
        state = new_match("baghdad", 2, seed=seed)
        assert state.turn == state.leader == new_match("baghdad", 2, seed=seed).leader
        assert state.dealt.leader == state.leader  # recorded, so exports replay it


def test_a_fixture_names_the_leader_only_for_the_first_deal() -> None:
    assert start(DEAL_C).turn == 1
    state = replay("deals:6", (DEAL_C, MOVES_C))
    fixture, _ = swapped(DEAL_C, MOVES_C)
    with pytest.raises(BadFixture, match="in turn"):
        next_deal(state, Fixture(fixture.hands, fixture.boneyard, 0))
    assert next_deal(state, fixture).hands == fixture.hands


def test_a_fixture_must_hold_the_whole_set_in_hands_of_eleven() -> None:
    with pytest.raises(BadFixture, match="11"):
        start(
            Fixture((DEAL_C.hands[0][:10], DEAL_C.hands[1]), DEAL_C.boneyard + DEAL_C.hands[0][10:])
        )


# -- options ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("deals:6", "deals:6"),
        ("Deals:8", "deals:8"),
        ("deals: 100", "deals:100"),
        ("target:50", "target:50"),
        ("target", "target:100"),
        ("deals", "deals:6"),
        ("target:1000", "target:1000"),
    ],
)
def test_the_match_option_is_normalised(given: str, kept: str) -> None:
    assert new_match("baghdad", 2, {"match": given}).options["match"] == kept


@pytest.mark.parametrize(
    ("given", "why"),
    [
        ("deals:5", "even"),
        ("deals:0", "even"),
        ("deals:102", "even"),
        ("target:0", "from 1 to 1000"),
        ("target:1001", "from 1 to 1000"),
        ("target:ten", "whole number"),
        ("deals:-2", "even, from 2 to"),
        ("rounds:6", "deals:N"),
        ("", "deals:N"),
    ],
)
def test_bad_match_options_are_refused(given: str, why: str) -> None:
    with pytest.raises(BadOption, match=why):
        new_match("baghdad", 2, {"match": given})


def test_exactly_two_players() -> None:
    with pytest.raises(BadOption, match="2 players"):
        new_match("baghdad", 3)


def test_the_game_is_found_by_its_aliases() -> None:
    for name in ("baghdad", "thief", "zlodziej", "Złodziej"):
        assert get_variant(name).name == "baghdad"
