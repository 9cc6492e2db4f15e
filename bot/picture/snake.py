"""Where each tile of a line goes: a snake that turns at the edges.

The line runs from its L end at the top left to the right; where the next tile
would pass the right edge, the line turns down with two tiles standing upright
and runs back to the left on the next row, and so on, as players lay a long
line on a real table. In a row, a tile that stands crosswise (a double, or a
Three Guns tile across) stands upright across the row; in a turn every tile
follows the line. Geometry only: nothing here draws.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from bot.model.parts import Laid

T = TypeVar("T", bound=Laid)  # the engine's tiles in a line, or the model's


@dataclass(frozen=True, slots=True)
class Spot:
    """One tile's place: the top left corner of its box, which is ``2 * short``
    by ``short`` lying down (``horizontal``) and ``short`` by ``2 * short``
    standing. ``first`` is the half drawn on the left (lying) or at the top
    (standing)."""

    x: int
    y: int
    first: int
    second: int
    horizontal: bool
    placed: Laid


@dataclass(frozen=True, slots=True)
class Layout:
    spots: tuple[Spot, ...]
    width: int  # the box the spots fill
    height: int
    rows: int


def snake(
    line: Sequence[T],
    short: int,
    width: int,
    crosswise: Callable[[T], bool],
    gap: int = 2,
) -> Layout:
    """Lay ``line`` (L to R) in rows no wider than ``width``; tiles are ``short``
    pixels across. A single row is centred in ``width``."""
    spots: list[Spot] = []
    x, centre, heading = 0, short, 1  # heading: 1 to the right, -1 to the left
    turning = 0  # tiles of the current turn already laid (0: laying a row)
    rows = 1
    for placed in line:
        if turning == 1:
            # The second tile of a turn stands right under the first.
            last = spots[-1]
            spots.append(_standing(last.x, last.y + 2 * short + gap, placed))
            centre = last.y + 2 * short + gap + short + short // 2
            x = last.x - gap if heading == 1 else last.x + short + gap
            heading, turning, rows = -heading, 0, rows + 1
            continue
        across = crosswise(placed)
        length = short if across else 2 * short
        room = x + length + gap + short <= width if heading == 1 else x - length - gap - short >= 0
        if spots and not room:
            # No room for this tile and a turn after it: this tile starts the turn,
            # standing with its upper half beside the row's last tile.
            left = x if heading == 1 else x - short
            spots.append(_standing(left, centre - short // 2, placed))
            turning = 1
            continue
        left = x if heading == 1 else x - length
        if across:
            spots.append(_standing(left, centre - short, placed))
        elif heading == 1:
            spots.append(Spot(left, centre - short // 2, placed.left, placed.right, True, placed))
        else:
            spots.append(Spot(left, centre - short // 2, placed.right, placed.left, True, placed))
        x += heading * (length + gap)
    if turning == 1:
        rows += 1
    height = max((s.y + (short if s.horizontal else 2 * short) for s in spots), default=0)
    top = min((s.y for s in spots), default=0)
    shift = 0
    if rows == 1 and spots:
        used = spots[-1].x + (2 * short if spots[-1].horizontal else short)
        shift = (width - used) // 2
    moved = tuple(
        Spot(s.x + shift, s.y - top, s.first, s.second, s.horizontal, s.placed) for s in spots
    )
    return Layout(moved, width, height - top, rows)


def _standing(x: int, y: int, placed: Laid) -> Spot:
    return Spot(x, y, placed.left, placed.right, False, placed)
