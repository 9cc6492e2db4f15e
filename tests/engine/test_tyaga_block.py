"""Tyaga's block, checked against its definition over many random deals.

The engine looks for a block only where one can happen; these tests look
everywhere, after every move, at every table size and opening.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import DealEnd, State, apply, legal_moves, new_match

OPENINGS = ("any", "highest_double", "double_six")
TABLES = [(players, opening) for players in range(2, 7) for opening in OPENINGS]


def someone_can_play(state: State[Any]) -> bool:
    assert state.ends is not None
    left, right = state.ends
    return any(left in (t.hi, t.lo) or right in (t.hi, t.lo) for h in state.hands for t in h)


def random_deal_states(players: int, opening: str, seed: int) -> list[State[Any]]:
    choose = random.Random(seed).choice
    state = new_match("tyaga", players, {"opening": opening}, seed=seed)
    states = [state]
    while not state.deal_over:
        # each tile is drawn and laid at most once, with fewer passes than seats
        # between two tiles laid: a deal that runs longer missed its end
        assert len(states) < 28 * players * 2, f"seed {seed}: the deal does not end"
        state, _ = apply(state, choose(legal_moves(state)))
        states.append(state)
    return states


@pytest.mark.parametrize(("players", "opening"), TABLES)
def test_a_deal_is_blocked_exactly_when_nothing_is_left_to_draw_and_no_hand_fits(
    players: int, opening: str
) -> None:
    blocks = 0
    for seed in range(40):
        for state in random_deal_states(players, opening, seed):
            result = state.result if state.deal_over else None
            if state.ends is None or (result is not None and result.end is DealEnd.DOMINO):
                continue  # a hand played out wins, whether or not the others could go on
            stuck = not state.boneyard and not someone_can_play(state)
            blocked = result is not None and result.end is DealEnd.BLOCK
            assert blocked == stuck, f"seed {seed}, move {state.counter}"
            blocks += blocked
    assert blocks > 0  # the deals tried reach some blocks, so the check above was exercised
