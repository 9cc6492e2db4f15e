"""Scripted Kozel ("the goat") deals and the helpers their tests share.

Every deal is scripted with a Fixture; the boneyard lists the tiles named first
and then the rest of the set. Moves are written in the notation, with the seat
that makes them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from engine import KozelPublic, api
from engine.errors import IllegalMove
from engine.state import Event, Fixture, OptionValue, State
from engine.tiles import DOUBLE_SIX, Tile, rank

Moves = Iterable[tuple[int, str]]


def seen(state: State[Any], seat: int) -> KozelPublic:
    """The Kozel parts of what ``seat`` sees."""
    details = api.view(state, seat).details
    assert isinstance(details, KozelPublic)
    return details


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(Tile.parse(t) for t in text.split())


def deal(*hands: str, boneyard: str = "") -> Fixture:
    """Hands as written; the boneyard draws ``boneyard`` first, then every tile
    not named anywhere, highest first."""
    dealt = tuple(tiles(h) for h in hands)
    first = tiles(boneyard)
    named = {t for hand in dealt for t in hand} | set(first)
    rest = sorted((t for t in DOUBLE_SIX if t not in named), key=rank, reverse=True)
    return Fixture(dealt, first + tuple(rest))


def start(fixture: Fixture, options: Mapping[str, OptionValue] | None = None) -> State[Any]:
    return api.new_match("kozel", len(fixture.hands), options, fixture=fixture)


def play(state: State[Any], moves: Moves) -> tuple[State[Any], list[Event]]:
    events: list[Event] = []
    for seat, text in moves:
        state, caused = api.apply(state, text, seat)
        events += caused
    return state, events


def refusal(state: State[Any], move: str) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        api.apply(state, move)
    return caught.value


def draws(seat: int, times: int) -> list[tuple[int, str]]:
    return [(seat, "draw")] * times


# -- scripted deals ----------------------------------------------------------------

# Three players; seat 0 dominoes along R. Seat 1 keeps 3-1 (4), seat 2 keeps 0-0.
CHAIN_1 = deal("6-6 5-4 3-3 2-1 4-0", "6-5 4-4 3-2 1-1 3-1", "5-5 4-3 2-2 1-0 0-0")
CHAIN_1_MOVES = [
    (0, "6-6"), (1, "6-5@R"), (2, "5-5@R"), (0, "5-4@R"), (1, "4-4@R"), (2, "4-3@R"),
    (0, "3-3@R"), (1, "3-2@R"), (2, "2-2@R"), (0, "2-1@R"), (1, "1-1@R"), (2, "1-0@R"),
    (0, "4-0@R"),
]  # fmt: skip

# The next deal, led by seat 0: seat 1 keeps 5-4 (9), seat 2 keeps 2-0 (2).
CHAIN_2 = deal("6-6 5-3 2-2 1-0 4-4", "6-5 3-3 2-1 0-0 5-4", "5-5 3-2 1-1 4-0 2-0")
CHAIN_2_MOVES = [
    (0, "6-6"), (1, "6-5@R"), (2, "5-5@R"), (0, "5-3@R"), (1, "3-3@R"), (2, "3-2@R"),
    (0, "2-2@R"), (1, "2-1@R"), (2, "1-1@R"), (0, "1-0@R"), (1, "0-0@R"), (2, "4-0@R"),
    (0, "4-4@R"),
]  # fmt: skip

# Three players; seat 2 draws 5-5 and 5-4, then 1-1, and ends with 0-0, 2-0, 5-5, 5-4.
DRAWING = deal(
    "6-6 4-3 2-2 1-0 6-5", "6-4 3-3 2-1 3-0 4-2", "4-4 3-2 0-0 5-3 2-0", boneyard="5-5 5-4 1-1"
)
DRAWING_UNTIL_STUCK = [
    (0, "6-6"), (1, "6-4@R"), (2, "4-4@R"), (0, "4-3@R"), (1, "3-3@R"), (2, "3-2@R"),
    (0, "2-2@R"), (1, "2-1@R"),
]  # fmt: skip
DRAWING_REST = [
    (2, "draw"), (2, "draw"), (2, "draw"), (2, "1-1@R"), (0, "1-0@R"), (1, "3-0@R"),
    (2, "5-3@R"), (0, "6-5@R"),
]  # fmt: skip

# Four players put all seven 6s on the line, ends 6 and 6; seat 2 then draws the
# whole boneyard (8 tiles, none with a 6) and nobody can move: a fish.
FISH_MOVES = [
    (0, "6-6"), (1, "6-5@R"), (2, "5-4@R"), (3, "6-4@R"), (0, "6-3@R"), (1, "3-2@R"),
    (2, "6-2@R"), (3, "6-1@R"), (0, "1-0@R"), (1, "6-0@R"), *draws(2, 8),
]  # fmt: skip


def fish_deal(rest0: str, rest1: str, rest2: str, rest3: str) -> Fixture:
    """The fish above, with each seat's tiles that stay in hand."""
    return deal(
        f"6-6 6-3 1-0 {rest0}", f"6-5 3-2 6-0 {rest1}", f"5-4 6-2 {rest2}", f"6-4 6-1 {rest3}"
    )


# Points in hand: seat 0 8, seat 1 5, seat 2 26 + the boneyard's 64 (0-0 is 25) = 90,
# seat 3 12.
FISH = fish_deal("4-1 3-0", "2-1 1-1", "5-5 4-4 5-3", "3-3 2-2 2-0")
# Seats 0 and 1 both hold 8.
TIED_FISH = fish_deal("4-1 3-0", "5-0 2-1", "5-5 4-4 5-3", "3-3 2-2 2-0")
# The deal after a fish: seat 3 holds 6-6.
AFTER_FISH = deal(
    "5-5 4-1 3-0 2-0 1-0", "5-4 4-4 3-1 2-1 1-1", "5-3 4-3 3-3 2-2 0-0", "6-6 6-5 6-4 6-3 6-2"
)


def fished(fixture: Fixture, options: Mapping[str, OptionValue] | None = None) -> State[Any]:
    state, _ = play(start(fixture, options), FISH_MOVES)
    assert state.deal_over
    return state
