"""Invariants over random games of every variant and table size."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from itertools import combinations
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    DONE,
    DOUBLE_SIX,
    DRAW,
    PASS,
    THREE_GUNS_SET,
    BaghdadPublic,
    GunsPublic,
    IllegalMove,
    Move,
    State,
    all_variants,
    apply,
    format_move,
    get_variant,
    legal_moves,
    new_match,
    next_deal,
    own_hand,
    parse_move,
    public_view,
    resolve,
    view,
)
from engine.replay import Replay, run
from engine.tiles import Tile

TABLES = [(v.name, p) for v in all_variants() for p in range(v.min_players, v.max_players + 1)]
MAX_MOVES_PER_DEAL = 400

table = st.sampled_from(TABLES)
seeds = st.integers(min_value=0, max_value=2**31)
common = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_deal(variant: str, players: int, seed: int) -> Iterator[tuple[State[Any], Move]]:
    """Yield (state, move) through one random deal; the last state has the deal over."""
    choose = random.Random(seed).choice
    state = new_match(variant, players, seed=seed)
    for _ in range(MAX_MOVES_PER_DEAL):
        if state.deal_over:
            yield state, DONE
            return
        move = choose(legal_moves(state))
        yield state, move
        state, _ = apply(state, move)
    raise AssertionError(f"{variant} deal did not end in {MAX_MOVES_PER_DEAL} moves")


def the_set(variant: str) -> set[Tile]:
    return set(THREE_GUNS_SET if variant == "three_guns" else DOUBLE_SIX)


def tiles_on_table(state: State[Any]) -> list[Tile]:
    """Every tile placed: the line, plus closed caravans with their thieves and
    handcuffs (Thief of Baghdad)."""
    placed = [Tile(p.left, p.right) for p in state.line]
    details = get_variant(state.variant).public(state)
    for caravan in details.caravans if isinstance(details, BaghdadPublic) else ():
        if caravan.status == "open":
            continue
        placed += [Tile(p.left, p.right) for p in caravan.camels]
        placed += [caravan.thief] if caravan.thief else []
        placed += list(caravan.handcuffs or ())
    return placed


@common
@given(table, seeds)
def test_tiles_are_conserved(game: tuple[str, int], seed: int) -> None:
    variant, players = game
    expected = the_set(variant)
    for state, _ in random_deal(variant, players, seed):
        held = [t for hand in state.hands for t in hand]
        everything = held + list(state.boneyard) + tiles_on_table(state)
        assert set(everything) == expected
        assert len(everything) == len(expected)


@common
@given(table, seeds)
def test_every_deal_ends_and_the_turn_counter_counts_moves(
    game: tuple[str, int], seed: int
) -> None:
    variant, players = game
    for count, (state, _) in enumerate(random_deal(variant, players, seed)):
        assert state.counter == count
    assert state.deal_over and state.turn is None and legal_moves(state) == ()
    assert state.result is not None


def candidate_moves(state: State[Any]) -> Iterator[Move]:
    """Every move of every shape the notation can write, for the tiles in play."""
    tiles = sorted(the_set(state.variant), key=lambda t: t.index)
    yield from (DRAW, PASS, DONE)
    for tile in tiles:
        yield Move.lead(tile)
        yield Move.steal(tile)
        for end in ("L", "R"):
            yield Move.play(tile, end)
            yield Move.play(tile, end, across=True)
    doubles = [t for t in tiles if t.is_double]
    for a, b in combinations(doubles, 2):
        yield Move.double(a, b)
        yield Move.double(b, a)
        yield Move.recover(a, b)


def resolved(state: State[Any], move: Move) -> Move | None:
    """The move with its end filled in, or None where the end is ambiguous."""
    try:
        return resolve(state, move)
    except IllegalMove:
        return None


@settings(max_examples=12, deadline=None)
@given(table, seeds)
def test_offered_moves_apply_and_nothing_else_does(game: tuple[str, int], seed: int) -> None:
    variant, players = game
    for number, (state, _) in enumerate(random_deal(variant, players, seed)):
        if state.deal_over or number % 4:
            continue
        legal = set(legal_moves(state))
        for move in candidate_moves(state):
            if resolved(state, move) in legal:
                apply(state, move)
            else:
                with pytest.raises(IllegalMove):
                    apply(state, move)


@common
@given(table, seeds)
def test_no_view_shows_another_seats_tiles(game: tuple[str, int], seed: int) -> None:
    variant, players = game
    for state, _ in random_deal(variant, players, seed):
        for seat in range(players):
            seen = view(state, seat)
            assert seen.hand == state.hands[seat]
            if not state.deal_over:
                assert seen.revealed is None
                others = {t for s, h in enumerate(state.hands) if s != seat for t in h}
                public = json.dumps(seen.details.data())
                assert not [t for t in others if f'"{t}"' in public]
                assert {m.tile for m in seen.legal if m.tile} <= set(seen.hand)
            assert (seen.legal != ()) == (state.turn == seat and not state.deal_over)
            assert own_hand(state, seat) == (seen.hand, seen.legal)


@common
@given(table, seeds)
def test_the_view_of_no_seat_holds_no_hidden_tile(game: tuple[str, int], seed: int) -> None:
    variant, players = game
    for state, _ in random_deal(variant, players, seed):
        seen = public_view(state)
        assert seen.seat is None and seen.hand == () and seen.legal == ()
        assert not seen.my_turn
        assert seen.hand_counts == tuple(len(h) for h in state.hands)
        hidden = {t for h in (*state.hands, state.boneyard) for t in h}
        if state.deal_over:
            assert seen.revealed == state.hands
            hidden = set(state.boneyard)
        else:
            assert seen.revealed is None
        if isinstance(seen.details, GunsPublic):  # the [6|6] lies face up beside the line
            hidden.discard(seen.details.aside)
        # Every value the view holds, written out: no hidden tile in any spelling.
        written = repr(seen) + json.dumps(seen.details.data())
        for tile in hidden:
            assert repr(tile) not in written and f'"{tile}"' not in written
            assert f"'{tile}'" not in written


@common
@given(table, seeds)
def test_notation_round_trips_for_every_offered_move(game: tuple[str, int], seed: int) -> None:
    variant, players = game
    for state, move in random_deal(variant, players, seed):
        if not state.deal_over:
            assert parse_move(format_move(move)) == move


@settings(max_examples=15, deadline=None)
@given(table, seeds)
def test_replaying_a_matchs_moves_reproduces_it(game: tuple[str, int], seed: int) -> None:
    variant, players = game
    choose = random.Random(seed).choice
    state = new_match(variant, players, seed=seed)
    deals = [state.dealt]
    moves: list[tuple[int, str]] = []
    for _ in range(3 * MAX_MOVES_PER_DEAL):
        if state.match_over:
            break
        if state.deal_over:
            state = next_deal(state)
            deals.append(state.dealt)
            continue
        move = choose(legal_moves(state))
        assert state.turn is not None
        moves.append((state.turn, format_move(move)))
        state, _ = apply(state, move)
    # from the fixtures alone (a different seed must not matter) and from the seed alone
    by_fixture = run(Replay(variant, players, state.options, seed + 1, tuple(deals), tuple(moves)))
    by_seed = run(Replay(variant, players, state.options, seed, (), tuple(moves)))
    for outcome in (by_fixture, by_seed):
        assert outcome.failed_at is None, outcome.error
        replayed = outcome.state
        assert replayed.hands == state.hands
        assert replayed.line == state.line
        assert replayed.match_scores == state.match_scores
        assert replayed.deal_number == state.deal_number
        assert replayed.winners == state.winners


@common
@given(table, seeds)
def test_whole_matches_end_with_winners(game: tuple[str, int], seed: int) -> None:
    variant, players = game
    choose = random.Random(seed).choice
    state = new_match(variant, players, seed=seed)
    for _ in range(60 * MAX_MOVES_PER_DEAL):
        if state.match_over:
            break
        state = next_deal(state) if state.deal_over else apply(state, choose(legal_moves(state)))[0]
    assert state.match_over and state.winners
    assert all(0 <= w < players for w in state.winners)
