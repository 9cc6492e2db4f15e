"""Scripted Three Guns deals and the helpers their tests share."""

from __future__ import annotations

from typing import Any

from engine import api
from engine.state import Fixture, State
from engine.tiles import Tile

SIX_SIX = Tile(6, 6)


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(Tile.parse(t) for t in text.split())


def deal(seat0: str, seat1: str, seat2: str, left_over: str) -> Fixture:
    """Hands as dealt, before the cardinal swaps 6-6 for the left-over tile."""
    return Fixture((tiles(seat0), tiles(seat1), tiles(seat2)), tiles(left_over))


def start(fixture: Fixture) -> State[Any]:
    return api.new_match("three_guns", 3, fixture=fixture)


def play(state: State[Any], *moves: str) -> State[Any]:
    for text in moves:
        state, _ = api.apply(state, text)
    return state


def details(state: State[Any]) -> dict[str, Any]:
    """The public parts seat 0 sees, as the replay output writes them."""
    return api.view(state, 0).details.data()


def accepts(state: State[Any]) -> list[list[int]]:
    return list(details(state)["accepts"])


def legal(state: State[Any]) -> set[str]:
    return {str(m) for m in api.legal_moves(state)}


# Seat 0 is the cardinal in both deals. Deal A: seat 0 holds 4-2, 5-1, 0-0; seat 1 holds 3-3.
DEAL_A = deal(
    "6-6 4-2 5-1 0-0 3-2 2-1 1-0",
    "3-3 4-4 4-3 4-1 2-2 2-0 1-1",
    "5-5 5-4 5-3 5-2 4-0 3-1 3-0",
    "5-0",
)
# Deal B spreads the specials: 5-1 with seat 0, 0-0 and 3-3 with seat 1, 4-2 with seat 2.
DEAL_B = deal(
    "6-6 5-1 5-5 5-4 3-2 2-1 1-1",
    "0-0 3-3 4-3 4-1 2-2 2-0 1-0",
    "4-2 5-3 5-2 5-0 4-0 3-1 3-0",
    "4-4",
)

# Seven moves play every special and close both ends on a 0, so nobody can move.
QUICK_BLOCK = ("0-0", "5-1x@L", "5-0@L", "4-2x@R", "4-0@R", "3-3x@L", "3-0@L")


def quick_block(extra0: str, extra1: str, extra2: str) -> Fixture:
    """A deal for QUICK_BLOCK; the extra tiles stay in hand and decide the block."""
    return deal(f"6-6 0-0 4-2 {extra0}", f"5-1 4-0 {extra1}", f"5-0 3-3 {extra2}", "3-0")


WON_BY = {  # pips left in hand: 8/25/42, 35/12/28, 35/28/12
    0: quick_block("1-0 1-1 2-0 2-1", "2-2 3-1 3-2 4-1 4-3", "4-4 5-2 5-3 5-4 5-5"),
    1: quick_block("5-5 5-4 5-3 4-4", "1-0 1-1 2-0 2-1 2-2", "3-1 3-2 4-1 4-3 5-2"),
    2: quick_block("5-5 5-4 5-3 4-4", "3-1 3-2 4-1 4-3 5-2", "1-0 1-1 2-0 2-1 2-2"),
}


def deals_won_by(*winners: int) -> State[Any]:
    """A match whose deals are quick blocks won by the given seats, in order."""
    state = start(WON_BY[winners[0]])
    state = play(state, *QUICK_BLOCK)
    for winner in winners[1:]:
        state = play(api.next_deal(state, WON_BY[winner]), *QUICK_BLOCK)
    return state
