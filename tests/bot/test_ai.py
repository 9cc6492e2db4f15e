"""Computer players choose legal moves through the engine's public view."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot import ai
from engine import (
    DOUBLE_SIX,
    DRAW,
    Fixture,
    Kind,
    Move,
    State,
    Tile,
    View,
    all_variants,
    apply,
    legal_moves,
    new_match,
    next_deal,
    view,
)


def play_out(state: State[Any], level: str, seed: int) -> State[Any]:
    rng = random.Random(seed)
    for _ in range(5000):
        if state.match_over:
            return state
        if state.deal_over:
            state = next_deal(state)
            continue
        assert state.turn is not None
        seen = view(state, state.turn)
        move = ai.choose(seen, rng, level)
        assert move in seen.legal
        state, _events = apply(state, move)
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("level", ai.levels())
def test_every_level_plays_every_game_to_its_end_with_legal_moves(level: str) -> None:
    for variant in all_variants():
        players = variant.max_players if variant.name != "tyaga" else 3
        state = new_match(variant.name, players, seed=11)
        assert play_out(state, level, 5).match_over


def test_greedy_plays_the_tile_with_most_pips() -> None:
    hands = (
        (Tile(6, 5), Tile(1, 0), Tile(2, 2), Tile(3, 1), Tile(4, 0), Tile(0, 0), Tile(5, 0)),
        (Tile(6, 6), Tile(5, 5), Tile(4, 4), Tile(3, 3), Tile(2, 1), Tile(3, 0), Tile(4, 1)),
    )
    rest = tuple(t for t in DOUBLE_SIX if not any(t in h for h in hands))
    state = new_match("tyaga", 2, fixture=Fixture(hands, rest, leader=0))
    move = ai.choose(view(state, 0), random.Random(1), "greedy")
    assert move.tile is Tile(6, 5)


def test_greedy_prefers_a_double_among_tiles_of_equal_pips() -> None:
    legal = (Move.play(Tile(5, 1), "L"), Move.play(Tile(3, 3), "R"), DRAW)
    chosen = ai.choose(_view_with(legal), random.Random(1), "greedy")
    assert chosen.tile is Tile(3, 3)


def test_greedy_steals_when_it_can() -> None:
    legal = (Move.steal(Tile(5, 1)), Move(Kind.DONE))
    assert ai.choose(_view_with(legal), random.Random(1), "greedy").kind is Kind.STEAL


def test_greedy_recovers_before_ending_the_turn() -> None:
    legal = (Move(Kind.DONE), Move.recover(Tile(5, 5), Tile(1, 1)))
    assert ai.choose(_view_with(legal), random.Random(1), "greedy").kind is Kind.RECOVER


def test_the_dice_are_fixed_by_the_game_so_a_replay_chooses_the_same() -> None:
    state = new_match("kozel", 3, seed=4)
    assert state.turn is not None
    seen = view(state, state.turn)
    first = ai.choose(seen, ai.rng_for(4, 0, state.turn), "random")
    again = ai.choose(seen, ai.rng_for(4, 0, state.turn), "random")
    assert first == again


def test_a_seat_with_no_move_cannot_choose() -> None:
    state = new_match("tyaga", 2, seed=1)
    assert state.turn is not None
    idle = 1 - state.turn
    with pytest.raises(ValueError):
        ai.choose(view(state, idle), random.Random(1))


def _view_with(legal: tuple[Move, ...]) -> View:
    state = new_match("tyaga", 2, seed=1)
    assert state.turn is not None
    base = view(state, state.turn)
    fields = {name: getattr(base, name) for name in View.__dataclass_fields__}
    fields["legal"] = legal
    assert legal_moves(state)
    return View(**fields)
