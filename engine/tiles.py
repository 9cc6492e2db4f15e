"""Tiles: interned value objects, the two sets, and tile text.

Every tile exists once: ``Tile(4, 6) is Tile(6, 4)``. Equality is identity and
the hash is the tile's index, which keeps hands, sets and dict lookups cheap.
"""

from __future__ import annotations

from typing import Final

from engine.errors import BadTile

MAX_PIPS: Final = 6


class Tile:
    """A domino ``[hi|lo]`` with ``hi >= lo``; ``str()`` writes ``6-4``."""

    __slots__ = ("hi", "lo", "index", "pips", "is_double")

    hi: int
    lo: int
    index: int
    pips: int
    is_double: bool

    def __new__(cls, a: int, b: int) -> Tile:
        if not (0 <= a <= MAX_PIPS and 0 <= b <= MAX_PIPS):
            raise BadTile(f"{a}-{b}", "halves must be 0 to 6")
        return _TABLE[a][b]

    @classmethod
    def _make(cls, hi: int, lo: int) -> Tile:
        tile = object.__new__(cls)
        tile.hi, tile.lo = hi, lo
        tile.index = hi * (hi + 1) // 2 + lo
        tile.pips = hi + lo
        tile.is_double = hi == lo
        return tile

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read ``6-4`` (either order; ``6|4`` is accepted too)."""
        halves = parse_halves(text)
        return cls(*halves)

    def has(self, value: int) -> bool:
        return self.hi == value or self.lo == value

    def other(self, value: int) -> int:
        """The half opposite ``value`` (``value`` must be on the tile)."""
        return self.lo if self.hi == value else self.hi

    def __str__(self) -> str:
        return f"{self.hi}-{self.lo}"

    def __repr__(self) -> str:
        return f"Tile({self.hi}, {self.lo})"

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Tile) -> bool:
        return self.index < other.index

    def __reduce__(self) -> tuple[type[Tile], tuple[int, int]]:
        return (Tile, (self.hi, self.lo))


def parse_halves(text: str) -> tuple[int, int]:
    """Split tile text into its two halves as written (``4-6`` gives ``(4, 6)``)."""
    raw = text.strip()
    for sep in ("-", "|"):
        if sep in raw:
            left, _, right = raw.partition(sep)
            break
    else:
        raise BadTile(text, "write a tile as two halves, like 6-4")
    halves = left + right  # ASCII digits only: str.isdigit takes "²", which int refuses
    if not (len(left) == 1 and len(right) == 1 and halves.isascii() and halves.isdigit()):
        raise BadTile(text, "write a tile as two halves, like 6-4")
    a, b = int(left), int(right)
    if a > MAX_PIPS or b > MAX_PIPS:
        raise BadTile(text, "halves must be 0 to 6")
    return a, b


_TABLE: list[list[Tile]] = [[None] * (MAX_PIPS + 1) for _ in range(MAX_PIPS + 1)]  # type: ignore[list-item]
for _hi in range(MAX_PIPS + 1):
    for _lo in range(_hi + 1):
        _TABLE[_hi][_lo] = _TABLE[_lo][_hi] = Tile._make(_hi, _lo)

#: The double-six set, 28 tiles, in index order.
DOUBLE_SIX: Final[tuple[Tile, ...]] = tuple(
    sorted({t for row in _TABLE for t in row}, key=lambda t: t.index)
)
#: By index: ``BY_INDEX[t.index] is t``.
BY_INDEX: Final[tuple[Tile, ...]] = DOUBLE_SIX
#: The Three Guns set: double-five (21 tiles) and ``[6|6]``.
THREE_GUNS_SET: Final[tuple[Tile, ...]] = tuple(t for t in DOUBLE_SIX if t.hi <= 5) + (Tile(6, 6),)


def rank(tile: Tile) -> tuple[int, int]:
    """Order for "the highest tile": higher half first, then lower half."""
    return (tile.hi, tile.lo)


def pip_total(tiles: tuple[Tile, ...] | list[Tile]) -> int:
    return sum(t.pips for t in tiles)


def format_tiles(tiles: tuple[Tile, ...] | list[Tile]) -> list[str]:
    return [str(t) for t in tiles]
