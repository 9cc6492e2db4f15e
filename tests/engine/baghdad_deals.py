"""Scripted Thief of Baghdad deals and the helpers their tests share.

A deal lists the hands as dealt (seat 0, seat 1) and the boneyard in draw order;
moves are written in the notation, each with the seat that makes it.
"""

from __future__ import annotations

import json
from typing import Any

from engine import Fixture, State, Tile, apply, format_move, get_variant, legal_moves, new_match
from engine.replay import fixture_json, parse_replay, run

THIEVES = {"3-3", "6-0", "5-1", "4-2"}
HANDCUFFS = {"6-6", "0-0", "5-5", "1-1", "4-4", "2-2"}


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(Tile.parse(t) for t in text.split())


def deal(seat0: str, seat1: str, boneyard: str, leader: int | None = 0) -> Fixture:
    return Fixture((tiles(seat0), tiles(seat1)), tiles(boneyard), leader)


def start(fixture: Fixture, match: str = "deals:6") -> State[Any]:
    return new_match("baghdad", 2, {"match": match}, seed=3, fixture=fixture)


def play(state: State[Any], *moves: tuple[int, str]) -> State[Any]:
    for seat, text in moves:
        state, _ = apply(state, text, seat)
    return state


def texts(state: State[Any]) -> list[str]:
    return [format_move(m) for m in legal_moves(state)]


def details(state: State[Any]) -> dict[str, Any]:
    """The public parts, as the replay output writes them."""
    return get_variant("baghdad").public(state).data()


def hand_text(state: State[Any], seat: int) -> set[str]:
    return {str(t) for t in state.hands[seat]}


# Seat 0 leads 6-6; the boneyard's first tile 6-1 fits, its second 5-2 fits neither 6 nor 1.
DRAWS = deal(
    "6-6 6-5 5-5 4-4 3-3 0-0 1-0 2-0 3-0 4-0 5-0",
    "6-2 6-3 6-4 6-0 1-1 2-2 3-1 4-1 5-1 3-2 4-2",
    "6-1 5-2 2-1 4-3 5-3 5-4",
)


Script = list[tuple[int, str]]

# Seat 1 steals with [4|2], seat 0 with [6|0]; seat 1 recovers that one with
# [6|6]+[0|0], seat 0 draws twice without a camel, and seat 1 goes out.
DEAL_A = deal(
    "4-0 5-5 3-3 3-1 6-3 1-1 6-0 5-0 5-3 3-0 5-2",
    "0-0 4-2 4-3 6-6 6-4 6-1 2-0 3-2 6-5 5-1 4-1",
    "2-2 6-2 1-0 4-4 5-4 2-1",
    leader=1,
)
MOVES_A: Script = [
    (1, "4-1"), (0, "3-1@R"), (1, "3-2@R"), (1, "steal 4-2"), (0, "6-3"), (1, "4-3@R"),
    (0, "4-0@R"), (0, "steal 6-0"), (1, "6-4"), (1, "recover 6-6 0-0"), (0, "draw"),
    (1, "6-5@L"), (0, "draw"), (1, "5-1@L"), (0, "1-1@L"), (1, "6-1@L"), (0, "6-2@L"),
    (1, "2-0@L"),
]  # fmt: skip
# Seat 0 steals twice; seat 1 plays [3|3] as a camel and then recovers the caravan
# holding it; seat 1 goes out. Both seats score.
DEAL_C = deal(
    "0-0 6-0 4-2 3-2 6-2 4-0 6-3 2-1 3-1 4-4 5-1",
    "5-2 3-3 5-3 3-0 1-1 5-0 6-1 4-3 6-4 2-0 5-5",
    "4-1 2-2 5-4 6-6 1-0 6-5",
    leader=1,
)
MOVES_C: Script = [
    (1, "6-4"), (0, "6-2@L"), (0, "steal 4-2"), (1, "5-2"), (0, "3-2@R"), (1, "3-3@R"),
    (0, "3-1@R"), (0, "steal 5-1"), (1, "4-3"), (1, "recover 5-5 1-1"), (0, "4-4@L"),
    (1, "3-0@R"), (0, "0-0@R"), (1, "5-0@R"), (0, "4-0@L"), (1, "5-3@R"), (0, "6-0@L"),
    (1, "6-1@L"), (0, "2-1@L"), (1, "2-0@L"),
]  # fmt: skip
# Every 0 goes onto the caravan, whose ends both show 0; the boneyard runs dry.
DEAL_BLOCK = deal(
    "5-2 6-1 2-1 3-2 5-1 5-4 4-1 3-0 5-3 6-0 1-0",
    "6-4 6-2 2-2 4-4 4-0 6-5 1-1 2-0 3-1 5-0 4-3",
    "5-5 4-2 6-3 0-0 6-6 3-3",
    leader=1,
)
MOVES_BLOCK: Script = [
    (1, "6-2"), (0, "6-0@L"), (1, "2-0@R"), (0, "1-0@R"), (1, "3-1@R"), (0, "3-0@R"),
    (1, "4-0@L"), (0, "5-4@L"), (1, "5-0@L"), (0, "draw"), (1, "draw"), (0, "draw"),
    (1, "draw"), (1, "0-0@R"), (0, "draw"), (1, "draw"),
]  # fmt: skip


def swapped(fixture: Fixture, moves: Script) -> tuple[Fixture, Script]:
    """The same deal with the seats exchanged (the next deal's leader is the other seat)."""
    hands = (fixture.hands[1], fixture.hands[0])
    return Fixture(hands, fixture.boneyard), [(1 - seat, move) for seat, move in moves]


def replay(match: str, *deals: tuple[Fixture, Script]) -> State[Any]:
    data = {
        "variant": "baghdad",
        "players": 2,
        "options": {"match": match},
        "seed": 3,
        "deals": [fixture_json(fixture) for fixture, _ in deals],
        "moves": [[seat, move] for _, moves in deals for seat, move in moves],
    }
    outcome = run(parse_replay(json.loads(json.dumps(data))))
    assert outcome.failed_at is None, outcome.error
    return outcome.state


def hand_points(hand: set[str]) -> int:
    """The rules' value of a hand for the opponent, tile by tile."""
    return sum(6 if t in THIEVES else 3 if t in HANDCUFFS else 1 for t in hand)
