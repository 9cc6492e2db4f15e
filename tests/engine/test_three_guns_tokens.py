"""Three Guns: how a deal ends, the tokens that move, the match's end, and what a seat sees."""

from __future__ import annotations

import pytest

from engine import GunsPublic, Tile, api
from engine.errors import GameOver
from engine.state import DealEnd
from engine.tiles import pip_total
from tests.engine.three_guns_deals import (
    DEAL_A,
    QUICK_BLOCK,
    WON_BY,
    deals_won_by,
    details,
    play,
    quick_block,
    start,
)

# Seats 1 and 2 keep as many pips as each other, fewer than seat 0.
TIED = quick_block("5-5 5-4 5-3 4-4", "1-0 1-1 2-1 4-3 5-2", "2-0 2-2 3-1 3-2 4-1")


# -- deal end and tokens ---------------------------------------------------------------------


def test_a_block_is_declared_as_soon_as_nobody_can_move() -> None:
    state = play(start(WON_BY[0]), *QUICK_BLOCK[:-1])
    assert not state.deal_over
    state, events = api.apply(state, QUICK_BLOCK[-1])
    assert state.deal_over and state.turn is None
    assert state.result is not None and state.result.end is DealEnd.BLOCK
    assert api.legal_moves(state) == ()
    assert [e.kind for e in events] == ["move", "token", "deal_over"]


def test_a_block_is_won_by_the_fewest_pips_in_hand() -> None:
    state = deals_won_by(1)
    assert [pip_total(h) for h in state.hands] == [35, 12, 28]
    assert state.result is not None and state.result.winner == 1
    assert state.deal_scores == (0, 1, 0)
    assert state.match_scores == (0, 1, 0)
    assert details(state)["pool"] == 5


def test_a_block_with_a_tie_for_fewest_pips_moves_no_token() -> None:
    state = play(start(TIED), *QUICK_BLOCK[:-1])
    state, events = api.apply(state, QUICK_BLOCK[-1])
    assert [pip_total(h) for h in state.hands] == [35, 20, 20]
    assert state.result is not None and state.result.winner is None
    assert state.deal_scores == (0, 0, 0)
    assert state.match_scores == (0, 0, 0)
    assert details(state)["pool"] == 6
    assert "token" not in [e.kind for e in events]


def test_domino_wins_the_deal_and_a_token_from_the_pool() -> None:
    state = play(
        start(DEAL_A),
        *("4-2", "4-4@R", "5-2@L", "2-1@L", "4-1@L", "5-5@L", "5-1@L", "3-3x@L", "5-3@L"),
        *("1-0@L", "2-0@R", "pass", "0-0x@L", "pass", "3-0@L", "3-2@L", "4-3@L", "3-1@L"),
    )
    state, events = api.apply(state, "5-0@L")
    assert state.hands[0] == ()
    assert state.result is not None
    assert (state.result.end, state.result.winner) == (DealEnd.DOMINO, 0)
    assert state.deal_scores == (1, 0, 0)
    assert details(state)["pool"] == 5
    token = next(e for e in events if e.kind == "token")
    assert (token.seat, dict(token.info)) == (0, {"from": None, "pool": 5})


def test_with_the_pool_empty_the_token_comes_from_the_richest_opponent() -> None:
    state = deals_won_by(0, 0, 0, 2, 2, 1)
    assert state.match_scores == (3, 1, 2)
    assert details(state)["pool"] == 0
    state = play(api.next_deal(state, WON_BY[1]), *QUICK_BLOCK)
    assert state.match_scores == (2, 2, 2)
    assert state.deal_scores == (-1, 1, 0)


def test_between_equally_rich_opponents_the_first_after_the_winner_gives_the_token() -> None:
    state = deals_won_by(0, 0, 0, 2, 2, 1, 1)
    assert state.match_scores == (2, 2, 2)
    state = play(api.next_deal(state, WON_BY[1]), *QUICK_BLOCK)
    assert state.match_scores == (2, 3, 1)
    assert state.deal_scores == (0, 1, -1)


def test_the_first_player_to_hold_four_tokens_wins_the_match() -> None:
    state = deals_won_by(0, 0, 0)
    assert not state.match_over
    state = play(api.next_deal(state, WON_BY[0]), *QUICK_BLOCK[:-1])
    state, events = api.apply(state, QUICK_BLOCK[-1])
    assert state.match_over and state.winners == (0,)
    assert state.match_scores == (4, 0, 0)
    assert events[-1].kind == "match_over"
    with pytest.raises(GameOver):
        api.next_deal(state)


# -- what a seat sees -----------------------------------------------------------------------


def test_a_seat_sees_its_own_hand_the_tokens_and_what_each_end_accepts() -> None:
    state = play(api.next_deal(deals_won_by(2), DEAL_A), "3-2")
    seen = api.view(state, 1)
    assert seen.hand == DEAL_A.hands[1]
    assert seen.hand_counts == (6, 7, 7)
    assert seen.revealed is None
    assert seen.boneyard == 1
    assert seen.details == GunsPublic(
        pool=5,
        tokens=(0, 0, 1),
        aside=Tile(6, 6),
        cardinal=0,
        shows=((3,), (2,)),
        accepts=((3,), (4,)),
        reshuffles=0,
    )
