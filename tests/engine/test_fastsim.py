"""The playout simulator agrees with the engine move for move, and its deals end
the way the engine would end and score them."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import api
from engine.errors import GameOver
from engine.moves import Kind, Move
from engine.playout import DOUBLE, Sim, UnsupportedVariant, playout, scores_each, simulate
from engine.playout.codes import BIT, tiles_of
from engine.state import DealEnd, Fixture, State
from engine.tiles import BY_INDEX, Tile
from engine.variant import get_variant

ALL_TILES = sum(BIT)
MAX_DEALS = 4
MAX_MOVES_PER_DEAL = 300

Game = tuple[str, int, dict[str, Any]]
common = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def tyaga_games(draw: st.DrawFn) -> Game:
    players = draw(st.integers(2, 6))
    options: dict[str, Any] = {
        "opening": draw(st.sampled_from(["any", "highest_double", "double_six"])),
        "hand_size": draw(st.integers(3, min(8, 28 // players))),
    }
    if options["opening"] == "highest_double":
        options["no_double"] = draw(st.sampled_from(["reshuffle", "blank"]))
    return "tyaga", players, options


@st.composite
def kozel_games(draw: st.DrawFn) -> Game:
    players = draw(st.integers(2, 4))
    options: dict[str, Any] = {
        "double_move": draw(st.sampled_from(["on", "off"])),
        "blank_double": draw(st.sampled_from(["always", "alone"])),
        "target": draw(st.sampled_from([31, 101])),
    }
    if players == 4:
        options["teams"] = draw(st.sampled_from(["on", "off"]))
    return "kozel", players, options


games = st.one_of(tyaga_games(), kozel_games())
seeds = st.integers(min_value=0, max_value=2**31)


def random_move(state: State[Any], rng: random.Random) -> Move:
    """A random legal move; a lead is sometimes written flipped, which the engine
    lays as written."""
    move = rng.choice(api.legal_moves(state))
    if move.end is None and move.tile is not None and rng.random() < 0.5:
        return Move.lead(move.tile, flip=True)
    return move


def deal_starts(game: Game, seed: int) -> Iterator[State[Any]]:
    """The first state of each deal of a random match (at most ``MAX_DEALS``)."""
    variant, players, options = game
    rng = random.Random(seed)
    state = api.new_match(variant, players, options, seed=seed)
    for _ in range(MAX_DEALS):
        yield state
        while not state.deal_over:
            state, _ = api.apply(state, random_move(state, rng))
        if state.match_over:
            return
        state = api.next_deal(state)


def mid_deal(start: State[Any], seed: int) -> State[Any]:
    """A random position of the deal that begins at ``start``, before its end."""
    rng = random.Random(seed)
    state = start
    for _ in range(rng.randrange(40)):
        after, _ = api.apply(state, random_move(state, rng))
        if after.deal_over:
            break
        state = after
    return state


def assert_same(sim: Sim, state: State[Any], counter_at_start: int) -> None:
    """Hands, boneyard, ends, turn, line and (once over) the result all agree."""
    assert sim.hands == [sum(BIT[t.index] for t in hand) for hand in state.hands]
    assert sim.bone[::-1] == [t.index for t in state.boneyard]
    assert sim.ends == state.ends
    assert sim.turn == (-1 if state.turn is None else state.turn)
    assert sim.last == (-1 if state.last_player is None else state.last_player)
    assert sim.table == sum(BIT[Tile(p.left, p.right).index] for p in state.line)
    assert sim.moves == state.counter - counter_at_start
    assert (sim.outcome is not None) == state.deal_over
    if sim.outcome is not None:
        assert state.result is not None
        assert sim.outcome.end == state.result.end
        assert sim.outcome.winner == state.result.winner
        assert sim.outcome.scores == state.result.scores


def assert_tiles_conserved(sim: Sim) -> None:
    places = [*sim.hands, sim.table, sum(BIT[t] for t in sim.bone)]
    assert sum(place.bit_count() for place in places) == len(BY_INDEX)
    union = 0
    for place in places:
        union |= place
    assert union == ALL_TILES


class Trace(list[int]):
    """The moves of a playout, refusing to grow past any deal's length, so that
    a simulator that never ends a deal fails instead of eating memory."""

    def append(self, code: int) -> None:
        assert len(self) < MAX_MOVES_PER_DEAL, "the deal does not end"
        super().append(code)


def replay_trace(state: State[Any], trace: Sequence[int]) -> State[Any]:
    """Apply the simulator's codes through the engine, each one checked legal."""
    shadow = Sim.from_state(state)
    for number, code in enumerate(trace):
        assert not state.deal_over, f"the engine's deal ended before move {number}"
        move = shadow.move_of(code)
        assert move.unflipped() in api.legal_moves(state)
        state, _ = api.apply(state, move)
        shadow.apply(code)
    return state


@common
@given(games, seeds)
def test_legal_moves_agree_with_the_engine_in_every_position(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    for state in deal_starts(game, seed):
        while not state.deal_over:
            sim = Sim.from_state(state)
            codes = sim.legal()
            moves = [sim.move_of(code) for code in codes]
            assert sorted(map(str, moves)) == sorted(map(str, api.legal_moves(state)))
            assert [sim.code_of(move) for move in moves] == codes
            state, _ = api.apply(state, random_move(state, rng))


@common
@given(games, seeds)
def test_applying_a_move_changes_the_simulator_as_it_changes_the_engine(
    game: Game, seed: int
) -> None:
    rng = random.Random(seed)
    for state in deal_starts(game, seed):
        sim, counter = Sim.from_state(state), state.counter
        while not state.deal_over:
            move = random_move(state, rng)
            sim.apply(sim.code_of(move))
            state, _ = api.apply(state, move)
            assert_same(sim, state, counter)
            assert_tiles_conserved(sim)
        assert sim.legal() == []


@common
@given(games, seeds, seeds)
def test_a_random_playout_is_a_legal_game_the_engine_ends_and_scores_alike(
    game: Game, seed: int, playout_seed: int
) -> None:
    for start in deal_starts(game, seed):
        state = mid_deal(start, playout_seed)
        sim, trace = Sim.from_state(state), Trace()
        playout(sim, random.Random(playout_seed), trace=trace)
        final = replay_trace(state, trace)
        assert final.deal_over
        assert_same(sim, final, state.counter)


@common
@given(games, seeds, seeds)
def test_a_playout_ends_with_every_tile_in_exactly_one_place(
    game: Game, seed: int, playout_seed: int
) -> None:
    for start in deal_starts(game, seed):
        sim = Sim.from_state(mid_deal(start, playout_seed))
        outcome = playout(sim, random.Random(playout_seed), trace=Trace())
        assert sim.turn == -1 and sim.outcome is outcome
        assert_tiles_conserved(sim)


@common
@given(games, seeds, seeds)
def test_a_policy_chooses_among_the_legal_moves_and_plays_to_the_end(
    game: Game, seed: int, playout_seed: int
) -> None:
    calls = []

    def last_listed(sim: Sim, legal: Sequence[int]) -> int:
        calls.append(1)
        assert len(calls) < MAX_DEALS * MAX_MOVES_PER_DEAL, "the deal does not end"
        assert list(legal) == sim.legal()
        return legal[-1]

    for start in deal_starts(game, seed):
        state = mid_deal(start, playout_seed)
        sim, trace = Sim.from_state(state), Trace()
        playout(sim, random.Random(playout_seed), last_listed, trace)
        assert_same(sim, replay_trace(state, trace), state.counter)


@common
@given(games, seeds, seeds)
def test_the_scores_of_each_move_are_those_of_playing_it_on_a_copy_and_out_at_random(
    game: Game, seed: int, playout_seed: int
) -> None:
    for start in deal_starts(game, seed):
        state = start if playout_seed % 4 == 0 else mid_deal(start, playout_seed)  # leads too
        sim = Sim.from_state(state)
        before = (sim.hands[:], sim.bone[:], sim.ends, sim.turn, sim.table, sim.moves)
        codes = sim.legal()
        if DOUBLE not in codes and len(codes) > 1:
            codes.append(codes[0])  # a move twice: two playouts, drawn one after the other
        rng = random.Random(playout_seed)
        expected = []
        for code in codes:
            twin = sim.copy()
            twin.apply(code)
            expected.append((twin.outcome or playout(twin, rng, trace=Trace())).scores)
        assert scores_each(sim, codes, random.Random(playout_seed)) == expected
        assert (sim.hands, sim.bone, sim.ends, sim.turn, sim.table, sim.moves) == before


@common
@given(games, seeds, seeds)
def test_redeal_keeps_the_table_the_kept_hand_and_every_size(
    game: Game, seed: int, world_seed: int
) -> None:
    start = next(deal_starts(game, seed))
    sim = Sim.from_state(mid_deal(start, world_seed))
    keep = world_seed % len(sim.hands)
    world = sim.copy()
    world.redeal(random.Random(world_seed), keep)
    assert world.hands[keep] == sim.hands[keep]
    assert world.table == sim.table and world.ends == sim.ends and world.turn == sim.turn
    assert [h.bit_count() for h in world.hands] == [h.bit_count() for h in sim.hands]
    assert len(world.bone) == len(sim.bone)
    assert sorted(tiles_of(sum(world.hands)) + world.bone) == sorted(
        tiles_of(sum(sim.hands)) + sim.bone
    )
    assert_tiles_conserved(world)


def test_redeal_moves_hidden_tiles_between_hands() -> None:
    state = api.new_match("tyaga", 4, {"opening": "double_six"}, seed=5)
    sim = Sim.from_state(state)
    rng = random.Random(1)
    seen = set()
    for _ in range(20):
        world = sim.copy()
        world.redeal(rng, keep=0)
        seen.add(tuple(world.hands))
    assert len(seen) > 1


def test_a_copy_plays_on_without_touching_the_original() -> None:
    state = api.new_match("kozel", 3, seed=9)
    sim = Sim.from_state(state)
    before = (sim.hands[:], sim.bone[:], sim.ends, sim.turn, sim.table, sim.moves)
    playout(sim.copy(), random.Random(2), trace=Trace())
    assert (sim.hands, sim.bone, sim.ends, sim.turn, sim.table, sim.moves) == before


def test_the_same_random_generator_seed_gives_the_same_playout() -> None:
    state = api.new_match("tyaga", 3, seed=11)
    first, second = Trace(), Trace()
    assert simulate(state, random.Random(4), trace=first) == simulate(
        state, random.Random(4), trace=second
    )
    assert first == second


def test_random_playouts_choose_among_all_the_legal_moves() -> None:
    state = api.new_match("tyaga", 4, {"opening": "double_six"}, seed=8)
    traces = set()
    for seed in range(10):
        trace = Trace()
        simulate(state, random.Random(seed), trace=trace)
        traces.add(tuple(trace))
    assert len(traces) > 1


def first_moves(sim: Sim, playouts: int = 300) -> set[int]:
    """The first move of many random playouts from ``sim``."""
    first = set()
    for seed in range(playouts):
        trace = Trace()
        playout(sim.copy(), random.Random(seed), trace=trace)
        first.add(trace[0])
    return first


def test_random_playouts_start_with_every_legal_move_of_random_positions() -> None:
    for seed in range(30):
        start = next(deal_starts(("kozel", 3, {}), seed))
        sim = Sim.from_state(mid_deal(start, seed))
        assert first_moves(sim) == set(sim.legal())


def test_random_playouts_make_the_kozel_double_move_among_the_others() -> None:
    sim = Sim.from_state(double_move_position())
    assert DOUBLE in sim.legal()
    assert first_moves(sim) == set(sim.legal())


def test_a_move_that_blocks_the_deal_at_once_is_scored_as_the_block() -> None:
    """Tyaga's block goes to the fewest points (or nobody), not to the seat that
    made the last move: random positions with such a move are found and scored."""
    found = 0
    for seed in range(1000):
        sim = Sim.from_state(mid_deal(next(deal_starts(("tyaga", 2, {}), seed)), seed))
        for code in sim.legal():
            twin = sim.copy()
            twin.apply(code)
            outcome = twin.outcome
            if outcome is None or outcome.end is not DealEnd.BLOCK or outcome.winner == sim.turn:
                continue
            assert scores_each(sim, [code], random.Random(0)) == [outcome.scores]
            found += 1
        if found == 3:
            return
    raise AssertionError(f"{found} moves that block to another seat's gain in random positions")


def test_simulate_leaves_the_engine_state_as_it_was() -> None:
    state = api.new_match("kozel", 2, seed=3)
    hands = state.hands
    simulate(state, random.Random(0), trace=Trace())
    assert state.hands is hands and not state.deal_over


def tiles(*texts: str) -> tuple[Tile, ...]:
    return tuple(Tile.parse(text) for text in texts)


def double_move_position() -> State[Any]:
    """Kozel for two, the ends 2 and 3, and seat 0 holding [2|2] and [3|3]."""
    hands = (
        tiles("5-5", "5-1", "2-2", "3-3", "0-0", "0-1", "0-2"),
        tiles("5-3", "2-1", "4-0", "4-1", "4-2", "6-0", "6-1"),
    )
    boneyard = tuple(t for t in BY_INDEX if not any(t in hand for hand in hands))
    state = api.new_match("kozel", 2, seed=1, fixture=Fixture(hands, boneyard))
    for text in ("5-5", "5-3@R", "5-1@L", "2-1@L"):
        state, _ = api.apply(state, text)
    return state


def test_the_kozel_double_move_is_one_code_that_places_both_doubles() -> None:
    state = double_move_position()
    sim = Sim.from_state(state)
    assert DOUBLE in sim.legal()
    assert sim.move_of(DOUBLE) == Move.double(Tile(2, 2), Tile(3, 3))
    sim.apply(DOUBLE)
    state, _ = api.apply(state, "2-2@L+3-3@R")
    assert_same(sim, state, state.counter - 1)
    assert sim.ends == (2, 3)


@pytest.mark.parametrize("variant", ["baghdad", "three_guns"])
def test_other_games_are_refused_with_an_error_naming_them(variant: str) -> None:
    state = api.new_match(variant, get_variant(variant).min_players, seed=1)
    with pytest.raises(UnsupportedVariant, match=variant):
        Sim.from_state(state)


def test_a_finished_deal_cannot_be_simulated() -> None:
    state = api.new_match("tyaga", 2, seed=2)
    rng = random.Random(0)
    while not state.deal_over:
        state, _ = api.apply(state, rng.choice(api.legal_moves(state)))
    with pytest.raises(GameOver):
        Sim.from_state(state)


def test_codes_other_than_tyaga_and_kozel_moves_are_refused() -> None:
    sim = Sim.from_state(api.new_match("tyaga", 2, seed=2))
    with pytest.raises(ValueError, match="steal"):
        sim.code_of(Move(Kind.STEAL, Tile(3, 3)))
