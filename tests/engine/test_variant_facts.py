"""What each game says about itself through its Variant, as the rules give it: the set,
drawing, tiles across, who wins a match and when it ends, what a tile left in hand
costs, partners, goats and the points a score sheet did not take."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import (
    DOUBLE_SIX,
    Kind,
    State,
    Tile,
    Unit,
    api,
    get_variant,
    legal_moves,
    new_match,
    next_deal,
    public_view,
)
from tests.engine.kozel_deals import CHAIN_1, CHAIN_1_MOVES, FISH, fished, play, start

GAMES = ("tyaga", "kozel", "baghdad", "three_guns")


def played_out(variant: str, players: int, seed: int, **options: Any) -> State[Any]:
    """A whole match of random legal moves."""
    rng = random.Random(seed)
    state = new_match(variant, players, options, seed=seed)
    while not state.match_over:
        state = (
            next_deal(state)
            if state.deal_over
            else api.apply(state, rng.choice(legal_moves(state)))[0]
        )
    return state


def test_three_guns_is_played_with_double_five_and_the_6_6_the_others_with_double_six() -> None:
    guns = get_variant("three_guns").tiles
    assert len(guns) == 22 and set(guns) == {t for t in DOUBLE_SIX if t.hi <= 5} | {Tile(6, 6)}
    for name in ("tyaga", "kozel", "baghdad"):
        assert get_variant(name).tiles == DOUBLE_SIX


@pytest.mark.parametrize("name", GAMES)
def test_every_tile_dealt_is_of_the_games_set(name: str) -> None:
    variant = get_variant(name)
    state = new_match(name, variant.min_players, seed=5)
    dealt = {t for hand in state.hands for t in hand} | set(state.boneyard)
    assert dealt == set(variant.tiles)


def test_nobody_draws_in_three_guns_where_the_boneyard_is_the_6_6_set_aside() -> None:
    assert [name for name in GAMES if not get_variant(name).draws] == ["three_guns"]
    state = new_match("three_guns", 3, seed=2)
    assert state.boneyard == (Tile(6, 6),)
    seen = public_view(state)
    assert seen.details.face_up() == (Tile(6, 6),)


@pytest.mark.parametrize("name", GAMES)
def test_a_draw_is_legal_only_in_a_game_that_draws(name: str) -> None:
    rng = random.Random(3)
    variant = get_variant(name)
    state = new_match(name, variant.min_players, seed=3)
    kinds: set[Kind] = set()
    while not state.deal_over:
        moves = legal_moves(state)
        kinds |= {m.kind for m in moves}
        state = api.apply(state, rng.choice(moves))[0]
    assert (Kind.DRAW in kinds) == variant.draws


@pytest.mark.parametrize("name", GAMES)
def test_tiles_go_across_only_in_three_guns(name: str) -> None:
    variant = get_variant(name)
    assert variant.plays_across == (name == "three_guns")
    across = False
    for seed in range(4):
        rng = random.Random(seed)
        state = new_match(name, variant.min_players, seed=seed)
        while not state.deal_over:
            moves = legal_moves(state)
            across = across or any(m.across for m in moves)
            state = api.apply(state, rng.choice(moves))[0]
    assert across == variant.plays_across


def test_only_kozel_is_won_by_the_lowest_total() -> None:
    assert [name for name in GAMES if get_variant(name).lower_wins] == ["kozel"]


@pytest.mark.parametrize("seed", range(3))
def test_a_kozel_match_is_won_by_the_lowest_total_and_lost_by_the_goats(seed: int) -> None:
    state = played_out("kozel", 3, seed, target=31)
    low = min(state.match_scores)
    assert state.winners == tuple(s for s, t in enumerate(state.match_scores) if t == low)
    goats = get_variant("kozel").goats(public_view(state))
    assert goats and goats == tuple(s for s, t in enumerate(state.match_scores) if t >= 31)


@pytest.mark.parametrize(
    ("name", "players", "options"), [("tyaga", 3, {"target": 30}), ("baghdad", 2, {})]
)
def test_elsewhere_the_highest_total_wins_and_nobody_is_a_goat(
    name: str, players: int, options: dict[str, Any]
) -> None:
    state = played_out(name, players, 1, **options)
    high = max(state.match_scores)
    assert state.winners == tuple(s for s, t in enumerate(state.match_scores) if t == high)
    assert get_variant(name).goats(public_view(state)) == ()


def test_three_guns_counts_tokens_and_the_other_games_points() -> None:
    assert {name: get_variant(name).unit for name in GAMES} == {
        "tyaga": Unit.POINTS,
        "kozel": Unit.POINTS,
        "baghdad": Unit.POINTS,
        "three_guns": Unit.TOKENS,
    }
    state = played_out("three_guns", 3, 4)
    assert sum(state.match_scores) <= 6  # six tokens change hands


def test_a_tile_left_in_hand_costs_its_pips_but_in_kozel_and_thief_of_baghdad() -> None:
    tyaga, kozel, baghdad, guns = (get_variant(name) for name in GAMES)
    for tile in (Tile(6, 5), Tile(3, 0), Tile(0, 0)):
        assert tyaga.tile_points(tile) == guns.tile_points(tile) == tile.pips
    assert kozel.tile_points(Tile(0, 0)) == 25 and kozel.tile_points(Tile(6, 5)) == 11
    thieves = (Tile(3, 3), Tile(6, 0), Tile(5, 1), Tile(4, 2))
    cuffs = (Tile(6, 6), Tile(0, 0), Tile(5, 5), Tile(1, 1), Tile(4, 4), Tile(2, 2))
    assert [baghdad.tile_points(t) for t in thieves] == [6, 6, 6, 6]
    assert [baghdad.tile_points(t) for t in cuffs] == [3] * 6
    assert baghdad.tile_points(Tile(6, 5)) == 1


def test_a_match_ends_at_the_target_or_after_its_deals() -> None:
    def ends(name: str, **options: Any) -> tuple[int | None, int | None]:
        variant = get_variant(name)
        resolved = new_match(name, variant.min_players, options, seed=0).options
        return variant.match_target(resolved), variant.match_deals(resolved)

    assert ends("tyaga") == (100, None)
    assert ends("kozel", target=61) == (61, None)
    assert ends("three_guns") == (4, None)  # the fourth token
    assert ends("baghdad") == (None, 6)
    assert ends("baghdad", match="target:50") == (50, None)


def test_a_thief_of_baghdad_match_of_so_many_deals_lasts_them() -> None:
    state = played_out("baghdad", 2, 2, match="deals:4")
    assert state.deal_number == get_variant("baghdad").match_deals(state.options) == 4


@pytest.mark.parametrize("name", GAMES)
def test_partners_share_a_sheet_only_in_kozel_with_teams(name: str) -> None:
    variant = get_variant(name)
    state = new_match(name, 4 if name == "kozel" else variant.min_players, seed=0)
    assert variant.teams(state.options) == ()
    if name == "kozel":
        teamed = new_match(name, 4, {"teams": "on"}, seed=0)
        assert variant.teams(teamed.options) == ((0, 2), (1, 3))


def test_kozel_says_the_points_a_sheet_not_yet_open_did_not_take() -> None:
    kozel = get_variant("kozel")
    chained, _ = play(start(CHAIN_1), CHAIN_1_MOVES)
    assert kozel.unwritten(public_view(chained)) == (0, 4, 0)  # seat 1 held 4
    # Seats 0, 1 and 3 keep 8, 5 and 12, each under 13.
    assert kozel.unwritten(public_view(fished(FISH))) == (8, 5, 0, 12)
    # With teams, 5 + 12 opens the partners' sheet: nothing is left unwritten.
    assert kozel.unwritten(public_view(fished(FISH, {"teams": "on"}))) == (0, 0, 0, 0)


def test_kozel_says_nothing_unwritten_while_the_deal_is_played() -> None:
    state = start(CHAIN_1)
    assert get_variant("kozel").unwritten(public_view(state)) == (0, 0, 0)


@pytest.mark.parametrize("name", ["tyaga", "baghdad", "three_guns"])
def test_the_other_games_write_every_point(name: str) -> None:
    variant = get_variant(name)
    state = played_out(name, variant.min_players, 6)
    assert variant.unwritten(public_view(state)) == (0,) * state.players
