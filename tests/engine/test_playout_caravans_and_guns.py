"""The Thief of Baghdad and Three Guns simulators agree with the engine move for
move, and their deals end the way the engine would end and score them."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import api
from engine.moves import Kind, Move
from engine.playout import (
    BaghdadSim,
    GunsSim,
    Simulator,
    finish_at_random,
    scores_each,
    simulator,
)
from engine.playout.codes import BIT, DONE, DRAW, RECOVER, STEAL
from engine.state import State

MAX_DEALS = 4
MAX_MOVES_PER_DEAL = 300

common = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
variants = st.sampled_from([("baghdad", 2), ("three_guns", 3)])
seeds = st.integers(min_value=0, max_value=2**31)


def random_move(state: State[Any], rng: random.Random) -> Move:
    move = rng.choice(api.legal_moves(state))
    if move.kind is Kind.PLAY and move.end is None and move.tile is not None and rng.random() < 0.5:
        return Move.lead(move.tile, flip=True)
    return move


def deal_starts(variant: str, players: int, seed: int) -> list[State[Any]]:
    rng = random.Random(seed)
    state = api.new_match(variant, players, seed=seed)
    starts = []
    for _ in range(MAX_DEALS):
        starts.append(state)
        while not state.deal_over:
            state, _ = api.apply(state, random_move(state, rng))
        if state.match_over:
            break
        state = api.next_deal(state)
    return starts


def mid_deal(start: State[Any], seed: int) -> State[Any]:
    rng = random.Random(seed)
    state = start
    for _ in range(rng.randrange(60)):
        after, _ = api.apply(state, random_move(state, rng))
        if after.deal_over:
            break
        state = after
    return state


def masks(state: State[Any]) -> list[int]:
    return [sum(BIT[t.index] for t in hand) for hand in state.hands]


def assert_same(sim: Simulator, state: State[Any]) -> None:
    assert sim.hands == masks(state)
    assert sim.turn == (-1 if state.turn is None else state.turn)
    assert (sim.outcome is not None) == state.deal_over
    if isinstance(sim, BaghdadSim):
        assert sim.bone[::-1] == [t.index for t in state.boneyard]
        assert sim.ends == state.ends
        assert sim.camels == len(state.line)
        assert sim.penalties == list(state.detail.penalties)
        closed = [(c.thief.index, c.owner, len(c.camels)) for c in state.detail.caravans]
        assert [(t, o, n) for t, o, n, _ in sim.caravans] == closed
    else:
        assert isinstance(sim, GunsSim)
        assert sim.shows == list(state.detail.shows)
        assert sim.accepts == list(state.detail.accepts)
    if sim.outcome is not None:
        assert state.result is not None
        assert sim.outcome.end == state.result.end
        assert sim.outcome.winner == state.result.winner
        assert sim.outcome.scores == state.result.scores


@common
@given(variants, seeds)
def test_legal_moves_agree_with_the_engine_in_every_position(
    game: tuple[str, int], seed: int
) -> None:
    rng = random.Random(seed)
    for state in deal_starts(*game, seed):
        while not state.deal_over:
            sim = simulator(state)
            codes = sim.legal()
            moves = [sim.move_of(code) for code in codes]
            assert sorted(map(str, moves)) == sorted(map(str, api.legal_moves(state)))
            assert [sim.code_of(move) for move in moves] == codes
            state, _ = api.apply(state, random_move(state, rng))


@common
@given(variants, seeds)
def test_applying_a_move_changes_the_simulator_as_it_changes_the_engine(
    game: tuple[str, int], seed: int
) -> None:
    rng = random.Random(seed)
    for state in deal_starts(*game, seed):
        sim = simulator(state)
        while not state.deal_over:
            move = random_move(state, rng)
            sim.apply(sim.code_of(move))
            state, _ = api.apply(state, move)
            assert_same(sim, state)
        assert sim.legal() == []


@common
@given(variants, seeds, seeds)
def test_a_playout_is_a_legal_deal_the_engine_ends_and_scores_alike(
    game: tuple[str, int], seed: int, playout_seed: int
) -> None:
    for start in deal_starts(*game, seed):
        state = mid_deal(start, playout_seed)
        sim = simulator(state)
        shadow = sim.copy()
        rng = random.Random(playout_seed)
        for _ in range(MAX_MOVES_PER_DEAL):
            if sim.turn < 0:
                break
            code = rng.choice(sim.legal())
            move = sim.move_of(code)
            assert move.unflipped() in api.legal_moves(state)
            sim.apply(code)
            state, _ = api.apply(state, move)
        assert_same(sim, state)
        assert state.deal_over
        assert shadow.turn >= 0, "a copy plays on without touching the original"


@common
@given(variants, seeds, seeds)
def test_the_light_policy_plays_legal_moves_to_the_deal_end(
    game: tuple[str, int], seed: int, playout_seed: int
) -> None:
    for start in deal_starts(*game, seed):
        state = mid_deal(start, playout_seed)
        sim = simulator(state)
        outcome = finish_at_random(sim, random.Random(playout_seed))
        assert sim.turn == -1 and sim.outcome is outcome
        tiles = sum(hand.bit_count() for hand in sim.hands)
        assert tiles <= sum(len(hand) for hand in state.hands) + len(state.boneyard)


@common
@given(variants, seeds, seeds)
def test_the_scores_of_each_move_are_those_of_playing_it_on_a_copy_and_out_at_random(
    game: tuple[str, int], seed: int, playout_seed: int
) -> None:
    for start in deal_starts(*game, seed):
        sim = simulator(mid_deal(start, playout_seed))
        codes = sim.legal()
        rng = random.Random(playout_seed)
        expected = []
        for code in codes:
            twin = sim.copy()
            twin.apply(code)
            expected.append((twin.outcome or finish_at_random(twin, rng)).scores)
        assert scores_each(sim, codes, random.Random(playout_seed)) == expected
        assert sim.outcome is None and sim.legal() == codes


def test_random_deals_reach_steals_recoveries_and_penalties_in_step_with_the_engine() -> None:
    """The lockstep above is not vacuous: random deals do steal, recover and
    end turns without a camel, and the simulator follows each one."""
    seen: set[str] = set()
    for seed in range(2000):
        if len(seen) == 3:
            break
        rng = random.Random(seed)
        state = api.new_match("baghdad", 2, seed=seed)
        sim = simulator(state)
        while not state.deal_over:
            legal = sim.legal()
            extras = [c for c in legal if c == STEAL or c >= RECOVER]
            camels = [c for c in legal if c < DRAW] or legal
            code = extras[0] if extras else rng.choice(camels if rng.random() < 0.9 else legal)
            if code == STEAL:
                seen.add("steal")
            elif code >= RECOVER:
                seen.add("recover")
            elif code == DONE and isinstance(sim, BaghdadSim) and sim.phase == 1:
                seen.add("penalty")
            move = sim.move_of(code)
            sim.apply(code)
            state, _ = api.apply(state, move)
            assert_same(sim, state)
    assert seen == {"steal", "recover", "penalty"}


def test_musketeers_and_d_artagnan_go_across_either_end_as_their_own_codes() -> None:
    state = api.new_match("three_guns", 3, seed=3)
    rng = random.Random(3)
    across_seen = False
    for _ in range(200):
        if state.deal_over:
            state = api.next_deal(state)
        sim = simulator(state)
        assert isinstance(sim, GunsSim)
        for code in sim.legal():
            move = sim.move_of(code)
            across_seen |= move.across
            assert sim.code_of(move) == code
        state, _ = api.apply(state, rng.choice(api.legal_moves(state)))
        if state.match_over:
            break
    assert across_seen
