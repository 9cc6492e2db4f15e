"""The rule of sixes at the ends of a Three Guns line.

Touching halves add up to six, so an end is described by what it shows and by
the values a touching half may have (what it accepts). A musketeer ``[1|5]``,
``[2|4]`` or ``[3|3]`` laid across an end shows both its halves; d'Artagnan
``[0|0]`` across mirrors what the end showed before him.
"""

from __future__ import annotations

from typing import Final

from engine.errors import IllegalMove
from engine.moves import End, Move
from engine.state import Placed
from engine.tiles import Tile

DARTAGNAN: Final = Tile(0, 0)
MUSKETEERS: Final = frozenset({Tile(5, 1), Tile(4, 2), Tile(3, 3)})
#: The tiles that may be played across an end.
ACROSS: Final = MUSKETEERS | {DARTAGNAN}
SUM: Final = 6

Values = tuple[int, ...]
EndPair = tuple[Values, Values]
NO_ENDS: Final[EndPair] = ((), ())


def normal_end(outer: int) -> tuple[Values, Values]:
    """(shows, accepts) of an end whose tile was laid normally with ``outer`` outward.

    An end showing 0 accepts nothing: a 6 would be needed, and no 6 is ever played.
    """
    return (outer,), ((SUM - outer,) if outer else ())


def across_end(tile: Tile, shows: Values) -> tuple[Values, Values]:
    """(shows, accepts) of an end once ``tile`` is laid across it.

    A musketeer ``[a|b]`` shows both halves; since ``a + b = 6``, a touching half that adds
    up to six with one of them is ``b`` or ``a``: the end accepts its own halves.
    D'Artagnan mirrors: the end accepts exactly what it showed when he was laid.
    """
    if tile is DARTAGNAN:
        return shows, shows
    halves = (tile.lo,) if tile.is_double else (tile.lo, tile.hi)
    return halves, halves


def fits(tile: Tile, accepts: Values) -> bool:
    """Whether ``tile`` may be laid normally on an end that accepts ``accepts``.

    No end accepts 0 while d'Artagnan is in a hand (only his own mirror can), so this
    never lets him be laid normally.
    """
    return tile.hi in accepts or tile.lo in accepts


def first_playable(hand: tuple[Tile, ...], accepts: EndPair) -> Tile | None:
    """A tile of ``hand`` that can be played somewhere (a special always can)."""
    left, right = accepts
    for tile in hand:
        if tile in ACROSS or fits(tile, left) or fits(tile, right):
            return tile
    return None


def describe(accepts: Values) -> str:
    return " or ".join(str(v) for v in accepts) if accepts else "nothing"


Laid = tuple[tuple[Placed, ...], tuple[int, int], EndPair, EndPair]  # line, ends, shows, accepts


def lay_lead(tile: Tile, flip: bool) -> Laid:
    """The first tile, laid normally with both halves showing."""
    left, right = (tile.lo, tile.hi) if flip else (tile.hi, tile.lo)
    (show_l, acc_l), (show_r, acc_r) = normal_end(left), normal_end(right)
    return (Placed(left, right),), (left, right), (show_l, show_r), (acc_l, acc_r)


def lay_on_end(
    line: tuple[Placed, ...],
    ends: tuple[int, int],
    shows: EndPair,
    accepts: EndPair,
    tile: Tile,
    end: End,
    across: bool,
) -> Laid:
    """Lay ``tile`` on ``end``, normally or across (the caller checked it may go there)."""
    side = 0 if end == "L" else 1
    if across:
        placed = Placed(tile.hi, tile.lo, True)
        outer = tile.hi
        show, accept = across_end(tile, shows[side])
    else:
        # Only the musketeer itself could offer both halves to an end; it is on the table.
        acc = accepts[side]
        touching = tile.hi if tile.hi in acc else tile.lo
        outer = tile.other(touching)
        placed = Placed(outer, touching) if side == 0 else Placed(touching, outer)
        show, accept = normal_end(outer)
    (show_l, show_r), (acc_l, acc_r) = shows, accepts
    if side == 0:
        return (placed,) + line, (outer, ends[1]), (show, show_r), (accept, acc_r)
    return line + (placed,), (ends[0], outer), (show_l, show), (acc_l, accept)


def checked_end(accepts: EndPair, tile: Tile, move: Move) -> End:
    """The end ``move`` goes on, once the rules allow it there."""
    end = move.end
    if move.across:
        if tile not in ACROSS:
            raise IllegalMove(
                f"{tile} cannot be played across: only the musketeers 5-1, 4-2, 3-3 "
                "and d'Artagnan 0-0 can",
                "not_across",
                tile=str(tile),
            )
        if end is None:
            raise IllegalMove(
                f"{tile} across needs an end: {tile}x@L or {tile}x@R", "no_end", tile=str(tile)
            )
        return end
    if tile is DARTAGNAN:
        raise IllegalMove(
            "0-0 can only be played across, like 0-0x@L", "across_only", tile=str(tile)
        )
    if end is None or not fits(tile, accepts[0 if end == "L" else 1]):
        where = f" {end}" if end is not None else ""
        raise IllegalMove(
            f"{tile} does not fit{where}: "
            f"L accepts {describe(accepts[0])}, R accepts {describe(accepts[1])}",
            "does_not_fit",
            tile=str(tile),
            left=accepts[0],
            right=accepts[1],
        )
    return end
