"""Shared mechanics: seeded shuffles, dealing, fixtures, hands and a matching line."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Final

from engine.errors import BadFixture
from engine.moves import End
from engine.state import Fixture, Hands, Placed
from engine.tiles import MAX_PIPS, Tile


def rng(seed: int, *parts: object) -> random.Random:
    """A generator fixed by the match seed and a purpose (``"deal", 3, 0``)."""
    return random.Random("/".join(str(p) for p in (seed, *parts)))


def shuffle_deal(
    tiles: Sequence[Tile], players: int, hand_size: int, seed: int, deal: int, attempt: int
) -> Fixture:
    """Shuffle ``tiles`` for a deal and give ``hand_size`` to each seat."""
    pool = list(tiles)
    shuffle(pool, rng(seed, "deal", deal, attempt))
    hands = tuple(tuple(pool[i * hand_size : (i + 1) * hand_size]) for i in range(players))
    return Fixture(hands, tuple(pool[players * hand_size :]))


def shuffle(pool: list[Tile], generator: random.Random) -> None:
    """Shuffle ``pool`` in place: from the last place down, swap in a tile from
    a place drawn at random at or before it (each draw takes just enough bits
    and draws again when they overshoot).

    This is the order ``random.shuffle`` gives too. Written out, it pays no
    method call per tile, and a seed keeps its deals whatever a later Python
    does inside ``random.shuffle``.
    """
    bits = generator.getrandbits
    for last in range(len(pool) - 1, 0, -1):
        places = last + 1
        width = places.bit_length()
        drawn = bits(width)
        while drawn >= places:
            drawn = bits(width)
        pool[last], pool[drawn] = pool[drawn], pool[last]


def check_fixture(fixture: Fixture, tiles: Sequence[Tile], players: int, hand_size: int) -> None:
    """A scripted deal must hold exactly the set, with the rules' hand sizes."""
    if len(fixture.hands) != players:
        raise BadFixture(f"deal lists {len(fixture.hands)} hands for {players} players")
    for seat, hand in enumerate(fixture.hands):
        if len(hand) != hand_size:
            raise BadFixture(
                f"hand of seat {seat} has {len(hand)} tiles, the rules deal {hand_size}"
            )
    dealt = [t for hand in fixture.hands for t in hand] + list(fixture.boneyard)
    twice = sorted((t for t, n in Counter(dealt).items() if n > 1), key=lambda t: t.index)
    if twice:
        raise BadFixture(f"tile {twice[0]} is dealt twice")
    missing = sorted(set(tiles) - set(dealt), key=lambda t: t.index)
    if missing:
        raise BadFixture(f"tile {missing[0]} is missing from the deal")
    extra = sorted(set(dealt) - set(tiles), key=lambda t: t.index)
    if extra:
        raise BadFixture(f"tile {extra[0]} is not in this game's set")


def find_tile(hand: tuple[Tile, ...], tile: Tile) -> int:
    """Where ``hand`` holds ``tile``, or -1.

    Tiles are interned, so this compares by identity: ``in`` and ``index``
    would call Tile's Python-level comparison for every other tile they
    pass, which costs several times this whole loop.
    """
    at = 0
    # A counter rather than enumerate(): no pair to build and unpack per tile.
    for held in hand:
        if held is tile:
            return at
        at += 1  # noqa: SIM113
    return -1


def without(hand: tuple[Tile, ...], tile: Tile) -> tuple[Tile, ...]:
    """The hand less one tile (which it holds)."""
    i = find_tile(hand, tile)
    if i < 0:
        raise ValueError(f"{tile} is not in the hand")
    return hand[:i] + hand[i + 1 :]


def replace_hand(hands: Hands, seat: int, hand: tuple[Tile, ...]) -> Hands:
    return hands[:seat] + (hand,) + hands[seat + 1 :]


# Every tile as it may lie along the line, made once: ``_PLACED[left][right]``.
# Placed is immutable, so laying a tile shares one instead of building it.
_PLACED: Final = tuple(
    tuple(Placed(left, right) for right in range(MAX_PIPS + 1)) for left in range(MAX_PIPS + 1)
)


def lay_first(tile: Tile, flip: bool) -> tuple[tuple[Placed, ...], tuple[int, int]]:
    left, right = (tile.lo, tile.hi) if flip else (tile.hi, tile.lo)
    return (_PLACED[left][right],), (left, right)


def lay_matching(
    line: tuple[Placed, ...], ends: tuple[int, int], tile: Tile, end: End
) -> tuple[tuple[Placed, ...], tuple[int, int]]:
    """Lay ``tile`` on ``end`` under the matching rule (the caller checked it fits)."""
    # Runs for nearly every move: the tile's halves are read here rather than
    # through Tile.other, and the Placed taken from the table.
    left, right = ends
    if end == "L":
        outer = tile.lo if tile.hi == left else tile.hi
        return (_PLACED[outer][left],) + line, (outer, right)
    outer = tile.lo if tile.hi == right else tile.hi
    return line + (_PLACED[right][outer],), (left, outer)


def fit_error_text(tile: Tile, ends: tuple[int, int]) -> str:
    """``5-5 does not fit L (3) or R (1)``."""
    return f"{tile} does not fit L ({ends[0]}) or R ({ends[1]})"


def next_seat(seat: int, players: int) -> int:
    return seat + 1 if seat + 1 < players else 0
