"""Kozel: who leads each deal, and with which tile."""

from __future__ import annotations

from engine import api
from engine.moves import Move
from engine.tiles import Tile
from tests.engine.kozel_deals import (
    AFTER_FISH,
    CHAIN_1,
    CHAIN_1_MOVES,
    FISH,
    TIED_FISH,
    deal,
    fish_deal,
    fished,
    play,
    refusal,
    start,
    tiles,
)


def test_first_deal_is_led_by_the_highest_double_with_that_double() -> None:
    state = start(deal("6-5 6-4 4-1 3-1 2-0", "6-3 5-1 4-2 3-2 2-1", "5-5 4-4 4-3 5-0 1-0"))
    assert state.turn == 2
    assert api.legal_moves(state) == (Move.lead(Tile(5, 5)),)
    state, _ = api.apply(state, "5-5", 2)
    assert state.line[0].left == 5 and state.turn == 0


def test_first_deal_without_doubles_is_led_by_the_highest_tile() -> None:
    state = start(
        deal("6-0 5-4 5-3 4-2 3-1 2-0 1-0", "6-4 6-3 5-2 4-3 4-1 3-2 2-1", boneyard="6-5")
    )
    assert state.turn == 1
    assert api.legal_moves(state) == (Move.lead(Tile(6, 4)),)
    # The higher half decides before the pips do: 6-0 leads over 5-4.
    state = start(deal("6-0 3-2 3-1 2-1 2-0 1-0 4-0", "5-4 5-3 5-2 5-1 5-0 4-3 4-2"))
    assert api.legal_moves(state) == (Move.lead(Tile(6, 0)),)


def test_first_lead_may_be_written_either_way_round() -> None:
    state = start(
        deal("6-0 5-4 5-3 4-2 3-1 2-0 1-0", "6-4 6-3 5-2 4-3 4-1 3-2 2-1", boneyard="6-5")
    )
    state, _ = api.apply(state, "4-6", 1)
    assert state.ends == (4, 6)


def test_later_deal_is_led_by_the_domino_winner_with_any_tile() -> None:
    state, _ = play(start(CHAIN_1), CHAIN_1_MOVES)
    assert state.result is not None and state.result.winner == 0
    later = deal("5-5 4-1 3-0 2-0 1-0", "6-6 6-5 4-4 3-1 2-1", "6-4 5-3 4-3 3-3 0-0")
    nxt = api.next_deal(state, later)
    assert (nxt.deal_number, nxt.turn, nxt.leader) == (2, 0, 0)
    assert set(api.legal_moves(nxt)) == {Move.lead(t) for t in tiles("5-5 4-1 3-0 2-0 1-0")}
    nxt, _ = api.apply(nxt, "1-0", 0)
    assert nxt.ends == (1, 0)


def test_later_deal_after_a_fish_is_led_by_the_seat_with_fewest_points() -> None:
    state = fished(FISH)
    assert state.result is not None and state.result.winner == 1
    nxt = api.next_deal(state, AFTER_FISH)
    assert nxt.turn == 1
    assert set(api.legal_moves(nxt)) == {Move.lead(t) for t in tiles("5-4 4-4 3-1 2-1 1-1")}


def test_tied_fish_brings_back_the_first_deal_rule() -> None:
    state = fished(TIED_FISH)
    assert state.result is not None and state.result.winner is None
    nxt = api.next_deal(state, AFTER_FISH)
    assert nxt.turn == 3
    assert api.legal_moves(nxt) == (Move.lead(Tile(6, 6)),)
    error = refusal(nxt, "6-5")
    assert error.reason == "forced_lead"
    assert error.message == "this deal opens with 6-6: the highest double leads"


def test_fish_leader_counts_the_blank_double_as_25() -> None:
    # Seat 1 holds 0-0 and 1-0 (25 by default, 1 when 0-0 counts only alone);
    # seat 0 holds 4-1 and 3-0 (8).
    fixture = fish_deal("4-1 3-0", "0-0 2-1", "5-5 4-4 5-3", "3-3 2-2 2-0")
    assert fished(fixture).result.winner == 0  # type: ignore[union-attr]
    alone = fished(fixture, {"blank_double": "alone"})
    assert alone.result is not None and alone.result.winner == 1
