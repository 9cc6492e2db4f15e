"""Reviewing a match from one seat: a clearly worse move is flagged, a strong player's
matches come out clean more often than a random player's, and the review goes to the
player who asks, in his language, kept beside the match once made."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot import ai
from bot.ai.clues import clues
from bot.ai.review import COSTLY, ReviewJob, decisions, review
from engine import (
    Fixture,
    Move,
    State,
    apply,
    format_move,
    legal_moves,
    new_match,
    next_deal,
    view,
)

# Positions reached by seeded random play in matches the deal at hand may decide, where
# the reviewed seat (0) holds two moves apart: one lets the next player lay his last
# tile at once (it hands him the domino), the other does not.
CLEAR: dict[str, tuple[int, dict[str, Any], int, int, str, str]] = {
    # variant: (players, options, seed, moves before, the worse move, the better one)
    "tyaga": (2, {"target": 10}, 4, 16, "2-1@R", "6-1@R"),
    "kozel": (2, {"target": 11}, 9, 92, "5-2@R", "2-2@R"),
    "baghdad": (2, {"match": "deals:2"}, 14, 26, "5-0@R", "1-0@L"),
    "three_guns": (3, {}, 19, 213, "3-2@L", "2-2@L"),
}


def seeded(
    variant: str, players: int, options: dict[str, Any], seed: int, until: int
) -> tuple[State[Any], list[Fixture], list[tuple[int, str]]]:
    """A match of random moves from ``seed``, stopped after ``until`` moves: its state,
    its deals as dealt and its moves."""
    rng = random.Random(seed)
    state = new_match(variant, players, options, seed=seed)
    deals, moves = [state.dealt], []
    while state.counter < until:
        if state.deal_over:
            state = next_deal(state)
            deals.append(state.dealt)
            continue
        seat = state.turn
        assert seat is not None
        move = rng.choice(legal_moves(state))
        state, _events = apply(state, move)
        moves.append((seat, format_move(move)))
    if state.deal_over:
        state = next_deal(state)
        deals.append(state.dealt)
    return state, deals, moves


def hands_a_domino(state: State[Any], move: Move) -> bool:
    """After ``move`` the next player can lay his last tile."""
    after, _events = apply(state, move)
    if after.deal_over or after.turn is None:
        return False
    return any(len(apply(after, reply)[0].hands[after.turn]) == 0 for reply in legal_moves(after))


@pytest.mark.parametrize("variant", CLEAR)
def test_a_move_that_hands_the_next_player_a_domino_is_flagged(variant: str) -> None:
    players, options, seed, before, worse, better = CLEAR[variant]
    state, deals, moves = seeded(variant, players, options, seed, before)
    assert state.turn == 0
    by_text = {format_move(m): m for m in legal_moves(state)}
    assert hands_a_domino(state, by_text[worse]) and not hands_a_domino(state, by_text[better])
    job = ReviewJob(variant, players, options, seed, tuple(deals), (*moves, (0, worse)), seat=0)
    (judged,) = [j for j in decisions(job) if j.index == before]
    assert format_move(judged.played) == worse
    assert judged.cost >= COSTLY, judged
    assert (*moves, (0, worse))[judged.index] == (0, worse)
    told = review(job)
    assert told and all(j.cost >= COSTLY for j in told)


def played_match(level: str, seed: int) -> ReviewJob:
    """A short Tyaga match of ``level`` in seat 0 against a greedy computer, as a job
    reviewing seat 0."""
    rng = random.Random(seed)
    options = {"target": 30}
    state = new_match("tyaga", 2, options, seed=seed)
    deals = [state.dealt]
    moves: list[tuple[int, str]] = []
    this_deal: list[tuple[int, str]] = []
    allowance = ai.Allowance.of_worlds(30)
    while not state.match_over:
        if state.deal_over:
            state = next_deal(state)
            deals.append(state.dealt)
            this_deal = []
            continue
        seat = state.turn
        assert seat is not None
        lacks = clues("tyaga", 2, this_deal)
        chooser = level if seat == 0 else "greedy"
        move = ai.choose(view(state, seat), rng, chooser, allowance, lacks)
        state, _events = apply(state, move)
        moves.append((seat, format_move(move)))
        this_deal.append(moves[-1])
    return ReviewJob("tyaga", 2, options, seed, tuple(deals), tuple(moves), seat=0, worlds=200)


def test_a_strong_players_matches_come_out_clean_more_often_than_a_random_players() -> None:
    clean = {
        level: sum(review(played_match(level, seed)) == () for seed in range(20))
        for level in ("strong", "random")
    }
    assert clean["strong"] > clean["random"], clean
