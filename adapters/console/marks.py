"""What changed between two versions of a screen, for the full-screen table to mark.

The core sends whole screens, never "what just happened", so the table compares
each screen with the one it replaces: tiles added at an end of a row of tiles
(the line of play) are the last move, tiles new in a hand were just drawn, and
recent moves the table did not list before are moves to add to the log. Nothing here
reads a game's rules or a language's words; it works on the text the core wrote.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Final

from rich.text import Text

from adapters.console.draw import hanging

TILE: Final = re.compile(r"\[[^\[\]|]*\|[^\[\]|]*\]")
TILE_RUN: Final = re.compile(r"(?:\[[^\[\]|]*\|[^\[\]|]*\]){2,}|\[[^\[\]|]*\|[^\[\]|]*\]")
SEAT_MARKS: Final = ("▶ ", "• ")  # how the table marks the seat to move and the others
NEW: Final = "bold reverse"
TO_MOVE: Final = "bold"


Marks = dict[int, tuple[str, tuple[int, int]]]
"""The table's rows of tiles that last grew: row number -> (the row, the new tiles' span)."""


def added_span(old: str, new: str) -> tuple[int, int] | None:
    """Where, in ``new``, the tiles added at either end of ``old``'s longest run of
    tiles are (all of them if ``old`` had none); ``None`` when no tile was added."""
    old_run, new_run = _longest_run(old), _longest_run(new)
    if new_run is None:
        return None
    if old_run is None:
        return new_run
    before, now = old[old_run[0] : old_run[1]], new[new_run[0] : new_run[1]]
    if len(now) <= len(before):
        return None
    if now.endswith(before):
        return new_run[0], new_run[1] - len(before)
    if now.startswith(before):
        return new_run[0] + len(before), new_run[1]
    return None


def _longest_run(text: str) -> tuple[int, int] | None:
    runs = [m.span() for m in TILE_RUN.finditer(text)]
    return max(runs, key=lambda span: span[1] - span[0], default=None)


def _above_seats(lines: Sequence[str]) -> int:
    return next((n for n, line in enumerate(lines) if line.startswith(SEAT_MARKS)), len(lines))


def remark(lines: Sequence[str], before: Sequence[str], marks: Marks) -> Marks:
    """The marks after the table changed from ``before`` to ``lines``: a row of tiles
    above the seats (the line of play) that grew is marked where it grew; a mark
    stays while its row does not change."""
    kept: Marks = {}
    for number in range(_above_seats(lines)):
        line = lines[number]
        old = before[number] if number < len(before) else ""
        span = added_span(old, line) if old != line else None
        if span is not None:
            kept[number] = (line, span)
        elif number in marks and marks[number][0] == line:
            kept[number] = marks[number]
    return kept


def board_text(lines: Sequence[str], marks: Marks) -> Text:
    """The table's lines, with the tiles the last move added marked and the seat to
    move in bold."""
    pieces = []
    for number, line in enumerate(lines):
        piece = Text(line)
        if line.startswith(SEAT_MARKS[0]):
            piece.stylize(TO_MOVE)
        if number in marks and marks[number][0] == line:
            piece.stylize(NEW, *marks[number][1])
        pieces.append(piece)
    return Text("\n").join(pieces)


def wrapped(text: Text, width: int, indent: int = 2) -> Text:
    """``text`` cut to ``width`` as :func:`hanging` cuts a line (between words or
    tiles, never inside a tile, later lines indented), its marks kept."""
    if width <= indent:
        return text
    rows: list[Text] = []
    for row in text.split("\n"):
        lines = hanging(row.plain, width, indent)
        starts, at = [], 0
        for line in lines:
            at = row.plain.index(line.strip(), at)
            starts.append(at)
            at += len(line.strip())
        first, *rest = row.divide(starts[1:])
        rows.append(first)
        rows += [Text(" " * indent) + part for part in rest]
    for row in rows:
        row.rstrip()
    return Text("\n").join(rows)


def hand_text(lines: Sequence[str], before: Sequence[str]) -> Text:
    """A hand's lines with the tiles it did not hold before marked (none the first time)."""
    held = {tile for line in before for tile in TILE.findall(line)}
    pieces = []
    for line in lines:
        piece = Text(line)
        if held:
            for found in TILE.finditer(line):
                if found.group() not in held:
                    piece.stylize(NEW, *found.span())
        pieces.append(piece)
    return Text("\n").join(pieces)


def held_lines(lines: Sequence[str]) -> list[str]:
    """A hand's lines down to its last tile: once a deal is over, what the hand said of
    the turn ("Wait for your turn.", "The match is over.") is past, and the table says
    what comes next."""
    last = max((n for n, line in enumerate(lines) if TILE.search(line)), default=len(lines) - 1)
    return list(lines[: last + 1])


def without_moves(lines: Sequence[str], moves: Sequence[str]) -> list[str]:
    """The lines but the block of recent ``moves`` the table shows among them."""
    count = len(moves)
    for at in range(len(lines) - count + 1):
        if count and list(lines[at : at + count]) == list(moves):
            return [*lines[:at], *lines[at + count :]]
    return list(lines)


def new_moves(
    moves: Sequence[str],
    before: Sequence[str],
    grew: Callable[[str, str], bool] = lambda old, new: False,
) -> tuple[list[str], bool]:
    """The recent ``moves`` that the recent moves shown ``before`` did not hold yet,
    and whether the first of them is the newest of ``before`` told anew: the table
    tells a player's draws in a row as one move, which grows with each draw
    (``grew(old, new)`` says whether ``new`` is ``old`` grown)."""
    # The recent moves are a window that slides: find how far it moved.
    for shift in range(len(before) + 1):
        overlap = list(before[shift:])
        if list(moves[: len(overlap)]) == overlap:
            return list(moves[len(overlap) :]), False
        kept, last = overlap[:-1], len(overlap) - 1
        if (
            overlap
            and len(moves) > last
            and list(moves[:last]) == kept
            and grew(overlap[-1], moves[last])
        ):
            return list(moves[last:]), True
    return list(moves), False
