"""Kozel: a turn (the double move, drawing, passing), refused moves, and legal
moves agreeing with what apply accepts."""

from __future__ import annotations

import random

import pytest

from engine import api
from engine.errors import IllegalMove
from engine.moves import DRAW, PASS, Kind, Move
from engine.state import Event
from engine.tiles import DOUBLE_SIX, Tile
from engine.variant import get_variant
from tests.engine.kozel_deals import (
    CHAIN_1,
    DRAWING,
    DRAWING_UNTIL_STUCK,
    deal,
    draws,
    play,
    refusal,
    start,
    tiles,
)

# -- a turn ---------------------------------------------------------------------------


def test_double_move_plays_two_doubles_on_both_ends_in_one_move() -> None:
    fixture = deal("6-6 3-3 4-4 5-5 2-0", "6-4 2-1 4-1 5-1 3-1", "6-3 5-2 4-2 3-2 5-0")
    state, _ = play(start(fixture), [(0, "6-6"), (1, "6-4@R"), (2, "6-3@L")])
    assert state.ends == (3, 4)
    assert Move.double(Tile(3, 3), Tile(4, 4)) in api.legal_moves(state)
    after, events = api.apply(state, "4-4@R+3-3@L", 0)
    assert [str(p) for p in after.line] == ["3-3", "3-6", "6-6", "6-4", "4-4"]
    assert after.hands[0] == tiles("5-5 2-0")
    assert (after.turn, after.counter) == (1, state.counter + 1)
    assert [e.kind for e in events] == ["move"]


def test_double_move_is_refused_when_the_option_is_off() -> None:
    fixture = deal("6-6 3-3 4-4 5-5 2-0", "6-4 2-1 4-1 5-1 3-1", "6-3 5-2 4-2 3-2 5-0")
    state = start(fixture, {"double_move": "off"})
    state, _ = play(state, [(0, "6-6"), (1, "6-4@R"), (2, "6-3@L")])
    assert all(m.kind is not Kind.DOUBLE for m in api.legal_moves(state))
    assert refusal(state, "3-3@L+4-4@R").reason == "double_move_off"


def test_double_move_needs_each_double_to_fit_its_end() -> None:
    fixture = deal("6-6 3-3 4-4 5-5 2-0", "6-4 2-1 4-1 5-1 3-1", "6-3 5-2 4-2 3-2 5-0")
    state, _ = play(start(fixture), [(0, "6-6"), (1, "6-4@R"), (2, "6-3@L")])
    error = refusal(state, "5-5@L+4-4@R")
    assert error.reason == "does_not_fit"
    assert error.message == "5-5@L+4-4@R does not fit L (3) and R (4)"


def test_player_with_nothing_to_play_draws_one_tile_at_a_time_until_one_fits() -> None:
    state, _ = play(start(DRAWING), DRAWING_UNTIL_STUCK)
    assert state.ends == (6, 1)
    assert api.legal_moves(state) == (DRAW,)
    state, events = api.apply(state, "draw", 2)
    assert events[-1] == Event("draw", 2, DRAW, Tile(5, 5))
    assert state.turn == 2 and api.legal_moves(state) == (DRAW,)
    state, _ = play(state, draws(2, 2))
    assert state.turn == 2
    assert api.legal_moves(state) == (Move.play(Tile(1, 1), "R"),)
    assert state.hands[2] == tiles("0-0 5-3 2-0 5-5 5-4 1-1")


def test_no_draw_or_pass_with_a_playable_tile() -> None:
    state, _ = play(start(DRAWING), [*DRAWING_UNTIL_STUCK, *draws(2, 3)])
    assert refusal(state, "draw").reason == "must_play"
    assert refusal(state, "pass").reason == "must_play"
    fresh = start(DRAWING)
    assert refusal(fresh, "draw").reason == "must_play"


def test_no_pass_while_the_boneyard_has_tiles() -> None:
    state, _ = play(start(DRAWING), DRAWING_UNTIL_STUCK)
    error = refusal(state, "pass")
    assert error.reason == "must_draw"


def test_pass_with_an_empty_boneyard_and_nothing_to_play() -> None:
    fixture = deal("6-6 6-5 6-4 6-3 6-2 6-1 6-0", "5-4 3-2 1-0 0-0 5-5 4-4 3-3")
    state, _ = play(start(fixture), [(0, "6-6"), *draws(1, 14)])
    assert not state.boneyard and state.turn == 1
    assert api.legal_moves(state) == (PASS,)
    assert refusal(state, "draw").reason == "boneyard_empty"
    state, _ = api.apply(state, "pass", 1)
    assert state.turn == 0 and not state.deal_over


# -- errors ---------------------------------------------------------------------------


def test_tile_that_fits_no_end_is_refused_with_both_ends_named() -> None:
    fixture = deal("6-6 3-3 4-4 5-5 2-0", "6-4 2-1 4-1 5-1 3-1", "6-3 5-2 4-2 3-2 5-0")
    state, _ = play(start(fixture), [(0, "6-6"), (1, "6-4@R"), (2, "6-3@L")])
    error = refusal(state, "5-5@L")
    assert (error.reason, error.message) == ("does_not_fit", "5-5 does not fit L (3) or R (4)")
    assert refusal(state, "3-3@R").message == "3-3 does not fit R (4)"


def test_tile_not_in_hand_is_refused() -> None:
    state = start(CHAIN_1)
    state, _ = api.apply(state, "6-6", 0)
    error = refusal(state, "6-4@R")
    assert (error.reason, error.message) == ("not_in_hand", "6-4 is not in your hand")


def test_first_deal_refuses_any_other_opening_tile() -> None:
    error = refusal(start(CHAIN_1), "5-4")
    assert error.reason == "forced_lead"
    assert error.message == "this deal opens with 6-6: the highest double leads"


def test_moves_of_other_games_are_refused() -> None:
    state = start(CHAIN_1)
    assert refusal(state, "done").reason == "wrong_kind"
    state, _ = api.apply(state, "6-6", 0)
    assert refusal(state, "6-5x@R").reason == "wrong_kind"


# -- legal moves and apply agree ------------------------------------------------------

CANDIDATES: tuple[Move, ...] = (
    DRAW,
    PASS,
    *(Move.play(t, end) for t in DOUBLE_SIX for end in ("L", "R")),
    *(Move.lead(t, flip=True) for t in DOUBLE_SIX),
    *(Move.lead(t) for t in DOUBLE_SIX),
    *(Move.double(a, b) for a in DOUBLE_SIX for b in DOUBLE_SIX if a.is_double and b.is_double),
)


@pytest.mark.parametrize(("players", "teams"), [(2, "off"), (3, "off"), (4, "on")])
def test_apply_accepts_exactly_the_legal_moves(players: int, teams: str) -> None:
    variant = get_variant("kozel")
    chooser = random.Random(players)
    state = api.new_match("kozel", players, {"teams": teams}, seed=players)
    for _ in range(150):
        if state.match_over:
            break
        if state.deal_over:
            state = api.next_deal(state)
            continue
        legal = set(api.legal_moves(state))
        accepted = set()
        for move in CANDIDATES:
            try:
                variant.apply(state, move)
            except IllegalMove:
                continue
            # On an empty line the notation ignores a written end: it is a lead.
            tile = move.tile
            lead = move.kind is Kind.PLAY and not state.line and tile is not None
            accepted.add(Move.lead(tile) if lead and tile is not None else move.unflipped())
        assert accepted == legal
        state, _ = api.apply(state, chooser.choice(sorted(legal, key=str)))
        dealt = [t for hand in state.hands for t in hand] + list(state.boneyard)
        assert len(dealt) + len(state.line) == len(DOUBLE_SIX)
