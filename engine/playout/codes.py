"""Tiles and moves as small ints, and the masks the simulator looks up.

A hand is a bitmask over tile indices (``Tile.index``, 0..27). A move is an int:
``tile.index * 2 + end`` puts a tile on L (``end`` 0) or R (1) — on an empty line
it is the lead, ``end`` 1 meaning laid flipped (lower half on L) — and
:data:`DRAW`, :data:`PASS`, :data:`DOUBLE` and the codes of Thief of Baghdad's
and Three Guns' own moves are the rest.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final

from engine.moves import Move
from engine.tiles import BY_INDEX, MAX_PIPS, Tile

DRAW: Final = 56
PASS: Final = 57
#: Kozel's double move: the double of the left value on L, of the right value on R.
#: The ends decide both doubles, so one code is enough.
DOUBLE: Final = 58
#: Thief of Baghdad: end the turn without a camel or an extra; steal the active
#: caravan with the thief its ends show; recover with the handcuffs of a thief
#: (``RECOVER + thief index``).
DONE: Final = 59
STEAL: Final = 60
RECOVER: Final = 64
#: Three Guns: a musketeer or d'Artagnan across an end (``ACROSS_BASE + tile * 2 + end``).
ACROSS_BASE: Final = 128

BIT: Final = tuple(1 << i for i in range(len(BY_INDEX)))
PIPS: Final = tuple(t.pips for t in BY_INDEX)
#: ``FIT[v]``: the tiles with a half ``v``.
FIT: Final = tuple(sum(BIT[t.index] for t in BY_INDEX if t.has(v)) for v in range(MAX_PIPS + 1))
#: ``DOUBLE_BIT[v]``: the double ``[v|v]``.
DOUBLE_BIT: Final = tuple(BIT[Tile(v, v).index] for v in range(MAX_PIPS + 1))
BLANK_DOUBLE_BIT: Final = BIT[Tile(0, 0).index]
assert BLANK_DOUBLE_BIT < 1 << 7, "[0|0] is in the first 7-bit slice of a mask"


def _parts(mask: int) -> list[int]:
    """Every mask made of some of ``mask``'s bits."""
    bits = [b for b in BIT if b & mask]
    return [sum(b for i, b in enumerate(bits) if k >> i & 1) for k in range(1 << len(bits))]


#: ``SPLIT[m]``, for ``m`` any part of a ``FIT[v]``: how many tiles it holds and
#: the bit of each, lowest first, so that the random playout picks its n-th
#: fitting tile by index.
SPLIT: Final = {
    part: (len(bits), bits)
    for fit in FIT
    for part in _parts(fit)
    for bits in [tuple(b for b in BIT if b & part)]
}
#: A tile's pips and index by its bit.
PIPS_OF_BIT: Final = {BIT[t]: PIPS[t] for t in range(len(BY_INDEX))}
INDEX_OF_BIT: Final = {BIT[t]: t for t in range(len(BY_INDEX))}
#: ``NEXT_SEAT[players][seat]``: who plays after ``seat``.
NEXT_SEAT: Final = tuple(tuple((s + 1) % n for s in range(n)) for n in range(8))

# The tiles and the pip sum of each 7-bit slice of a mask, so that listing a
# hand or adding up its pips takes four look-ups.
_SLICES: Final = range(len(BY_INDEX) // 7)
_SLICE_TILES: Final = tuple(
    tuple([7 * k + i for i in range(7) if m >> i & 1] for m in range(128)) for k in _SLICES
)
_SLICE_PIPS: Final = tuple(
    tuple(sum(PIPS[t] for t in tiles) for tiles in _SLICE_TILES[k]) for k in _SLICES
)


def play_code(tile: Tile, end: int) -> int:
    """``tile`` on L (``end`` 0) or R (1); the lead on an empty line (1 = flipped)."""
    return tile.index * 2 + end


def tile_move(code: int, led: bool, *, across: bool = False) -> Move:
    """The move a tile's code (:func:`play_code`) stands for: the lead on an empty line
    (``led`` false), else the tile played on its end (``across``: laid across it)."""
    tile, end = BY_INDEX[code >> 1], code & 1
    if not led:
        return Move.lead(tile, flip=bool(end))
    return Move.play(tile, "R" if end else "L", across=across)


def tile_code(move: Move, led: bool) -> int:
    """The code of a lead or a play of a tile (a play names its end, the lead does not)."""
    assert move.tile is not None
    if not led:
        return play_code(move.tile, int(move.flip))
    if move.end is None:
        raise ValueError(f"{move} does not name its end")
    return play_code(move.tile, 1 if move.end == "R" else 0)


def lay(left: int, right: int, tile: int, end: int) -> tuple[int, int]:
    """The open ends after ``tile`` goes on ``end`` under the matching rule (on an
    empty line, ``left`` -1, it is the lead, ``end`` 1 laid flipped)."""
    if left < 0:
        hi, lo = BY_INDEX[tile].hi, BY_INDEX[tile].lo
        return (lo, hi) if end else (hi, lo)
    if end:
        return left, PIPS[tile] - right
    return PIPS[tile] - left, right


def pips_in(hands: Sequence[int], blank_double: int = 0) -> list[int]:
    """The pips in each hand, ``[0|0]`` counting ``blank_double`` points."""
    a, b, c, d = pip_slices(blank_double)
    return [a[h & 127] + b[h >> 7 & 127] + c[h >> 14 & 127] + d[h >> 21] for h in hands]


@functools.cache
def pip_slices(blank_double: int = 0) -> tuple[tuple[int, ...], ...]:
    """The pip sums of each 7-bit slice of a mask, by slice and by the slice's
    bits, ``[0|0]`` (in the first slice) counting ``blank_double`` points: a
    hand's points are the sum of four look-ups."""
    if not blank_double:
        return _SLICE_PIPS
    first = _SLICE_PIPS[0]
    return (
        tuple(p + blank_double if m & BLANK_DOUBLE_BIT else p for m, p in enumerate(first)),
        *_SLICE_PIPS[1:],
    )


def tiles_of(mask: int) -> list[int]:
    """The tile indices in ``mask``, lowest first (a new list)."""
    a, b, c, d = _SLICE_TILES
    return a[mask & 127] + b[mask >> 7 & 127] + c[mask >> 14 & 127] + d[mask >> 21]


def mask_of(tiles: tuple[Tile, ...]) -> int:
    return sum(BIT[t.index] for t in tiles)
