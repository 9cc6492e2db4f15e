"""Computer players choose legal moves through the engine's public view."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot import ai
from engine import (
    DRAW,
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
from engine.playout.codes import FIT


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


def test_greedy_sheds_the_heavier_of_two_tiles_that_leave_alike() -> None:
    legal = (Move.play(Tile(6, 4), "L"), Move.play(Tile(4, 1), "L"))
    seen = _line_view("tyaga", 2, (Tile(6, 4), Tile(4, 1)), (4, 4), legal)
    assert ai.choose(seen, random.Random(1), "greedy").tile is Tile(6, 4)


@pytest.mark.parametrize(("variant", "shed"), [("kozel", Tile(0, 0)), ("tyaga", Tile(6, 6))])
def test_greedy_counts_the_blank_double_at_25_in_kozel_only(variant: str, shed: Tile) -> None:
    legal = (Move.play(Tile(0, 0), "L"), Move.play(Tile(6, 6), "R"))
    seen = _line_view(variant, 2, (Tile(0, 0), Tile(6, 6)), (0, 6), legal)
    assert ai.choose(seen, random.Random(1), "greedy").tile is shed


def test_greedy_keeps_the_ends_its_hand_can_follow_over_a_few_more_pips() -> None:
    hand = (Tile(6, 3), Tile(3, 1), Tile(1, 0), Tile(2, 1), Tile(4, 1))
    legal = (Move.play(Tile(6, 3), "L"), Move.play(Tile(3, 1), "L"))
    seen = _line_view("tyaga", 2, hand, (3, 3), legal)
    assert ai.choose(seen, random.Random(1), "greedy").tile is Tile(3, 1)


def test_greedy_blocks_a_rival_the_table_showed_to_lack_the_new_ends() -> None:
    legal = (Move.play(Tile(5, 2), "L"), Move.play(Tile(6, 2), "L"))
    seen = _line_view("tyaga", 2, (Tile(5, 2), Tile(6, 2)), (2, 4), legal)
    lacks = (0, FIT[2] | FIT[4] | FIT[5])
    assert ai.choose(seen, random.Random(1), "greedy", lacks=lacks).tile is Tile(5, 2)
    assert ai.choose(seen, random.Random(1), "greedy").tile is Tile(6, 2)


def test_greedy_does_not_block_its_partner_in_kozel_teams() -> None:
    legal = (Move.play(Tile(5, 2), "L"), Move.play(Tile(6, 2), "L"))
    seen = _line_view("kozel", 4, (Tile(5, 2), Tile(6, 2)), (2, 4), legal, teams=True)
    lacks = (0, 0, FIT[2] | FIT[4] | FIT[5], 0)  # seat 2 sits opposite seat 0
    assert ai.choose(seen, random.Random(1), "greedy", lacks=lacks).tile is Tile(6, 2)


def test_greedy_prefers_a_double_among_tiles_of_equal_pips() -> None:
    legal = (Move.play(Tile(5, 1), "L"), Move.play(Tile(3, 3), "R"), DRAW)
    chosen = ai.choose(_view_with(legal, "baghdad"), random.Random(1), "greedy")
    assert chosen.tile is Tile(3, 3)


def test_greedy_steals_when_it_can() -> None:
    legal = (Move.steal(Tile(5, 1)), Move(Kind.DONE))
    assert ai.choose(_view_with(legal, "baghdad"), random.Random(1), "greedy").kind is Kind.STEAL


def test_greedy_recovers_before_ending_the_turn() -> None:
    legal = (Move(Kind.DONE), Move.recover(Tile(5, 5), Tile(1, 1)))
    chosen = ai.choose(_view_with(legal, "baghdad"), random.Random(1), "greedy")
    assert chosen.kind is Kind.RECOVER


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


def _view_with(legal: tuple[Move, ...], variant: str = "tyaga") -> View:
    state = new_match(variant, 2, seed=1)
    assert state.turn is not None
    base = view(state, state.turn)
    fields = {name: getattr(base, name) for name in View.__dataclass_fields__}
    fields["legal"] = legal
    assert legal_moves(state)
    return View(**fields)


def _line_view(
    variant: str,
    players: int,
    hand: tuple[Tile, ...],
    ends: tuple[int, int],
    legal: tuple[Move, ...],
    *,
    teams: bool = False,
) -> View:
    """Seat 0's view of a Tyaga or Kozel table with these ends and no line shown."""
    options = {"teams": "on"} if teams else {}
    state = new_match(variant, players, options, seed=1)
    base = view(state, 0)
    fields = {name: getattr(base, name) for name in View.__dataclass_fields__}
    fields.update(hand=hand, ends=ends, line=(), legal=legal, turn=0)
    return View(**fields)
