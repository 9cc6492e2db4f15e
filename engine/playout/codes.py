"""Tiles and moves as small ints, and the masks the simulator looks up.

A hand is a bitmask over tile indices (``Tile.index``, 0..27). A move is an int:
``tile.index * 2 + end`` puts a tile on L (``end`` 0) or R (1) — on an empty line
it is the lead, ``end`` 1 meaning laid flipped (lower half on L) — and
:data:`DRAW`, :data:`PASS` and :data:`DOUBLE` are the rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.tiles import BY_INDEX, MAX_PIPS, Tile

DRAW: Final = 56
PASS: Final = 57
#: Kozel's double move: the double of the left value on L, of the right value on R.
#: The ends decide both doubles, so one code is enough.
DOUBLE: Final = 58

BIT: Final = tuple(1 << i for i in range(len(BY_INDEX)))
PIPS: Final = tuple(t.pips for t in BY_INDEX)
#: ``FIT[v]``: the tiles with a half ``v``.
FIT: Final = tuple(sum(BIT[t.index] for t in BY_INDEX if t.has(v)) for v in range(MAX_PIPS + 1))
#: ``DOUBLE_BIT[v]``: the double ``[v|v]``.
DOUBLE_BIT: Final = tuple(BIT[Tile(v, v).index] for v in range(MAX_PIPS + 1))
BLANK_DOUBLE_BIT: Final = BIT[Tile(0, 0).index]
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


def pips_in(hands: Sequence[int]) -> list[int]:
    """The pips in each hand."""
    a, b, c, d = _SLICE_PIPS
    return [a[h & 127] + b[h >> 7 & 127] + c[h >> 14 & 127] + d[h >> 21] for h in hands]


def tiles_of(mask: int) -> list[int]:
    """The tile indices in ``mask``, lowest first (a new list)."""
    a, b, c, d = _SLICE_TILES
    return a[mask & 127] + b[mask >> 7 & 127] + c[mask >> 14 & 127] + d[mask >> 21]


def mask_of(tiles: tuple[Tile, ...]) -> int:
    return sum(BIT[t.index] for t in tiles)
