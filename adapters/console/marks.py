"""What changed at the table, for the full-screen table to mark.

The core's shows carry the table's model and what happened since the table was last
shown (see :class:`~bot.model.contract.Show`): the tiles the events say were just
played are marked where the model's line has them, and the tiles a hand's model holds
that it did not hold before were just drawn. The table's text is only searched for
where the model's tiles are written, the way every screen writes a tile (``[6|4]``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final

from rich.text import Text

from adapters.console.draw import hanging
from bot.model.events import DealStarted, Played, TableEvent
from bot.model.hand import HandView
from bot.model.parts import LineTile, TileRef

SEAT_MARKS: Final = ("▶ ", "• ")  # how the table marks the seat to move and the others
NEW: Final = "bold reverse"
TO_MOVE: Final = "bold"

Span = tuple[int, int]
Mark = tuple[str, tuple[Span, ...]]
"""The line of play as the table writes it, and the spans of the tiles last laid in it."""


def tile_written(tile: TileRef) -> str:
    """A tile as every screen writes it: ``[6|4]``, the higher half first."""
    return f"[{tile.hi}|{tile.lo}]"


def placed_written(placed: LineTile) -> str:
    """A tile on the line as the table writes it, from L to R (``×``: laid across)."""
    return f"[{placed.left}|{placed.right}]{'×' if placed.across else ''}"


def laid(events: Sequence[TableEvent], since: int | None) -> tuple[TileRef, ...] | None:
    """The tiles played after version ``since`` (none seen yet: those of the last move
    played), or ``None`` when nothing after it changed the line (the mark stays); a
    deal begun after it clears the mark."""
    newer = [e for e in events if since is None or e.version > since]
    played = [e for e in newer if isinstance(e, Played)]
    if since is None and played:
        return tuple(e.tile for e in played if e.version == played[-1].version)
    if played:
        return tuple(e.tile for e in played if not _before_a_deal(e, newer))
    if any(isinstance(e, DealStarted) for e in newer):
        return ()
    return None


def _before_a_deal(event: Played, events: Sequence[TableEvent]) -> bool:
    """``event`` was played in a deal that a later one among ``events`` followed."""
    return any(isinstance(e, DealStarted) and e.version > event.version for e in events)


def line_mark(line: Sequence[LineTile], tiles: Collection[TileRef]) -> Mark:
    """The line as the table writes it, with where ``tiles`` lie in it."""
    written, spans, at = "", [], 0
    for placed in line:
        text = placed_written(placed)
        if placed.tile in tiles:
            spans.append((at, at + len(tile_written(placed.tile))))
        written += text
        at += len(text)
    return written, tuple(spans)


def board_text(lines: Sequence[str], mark: Mark | None) -> Text:
    """The table's lines, with the tiles the last move laid marked where the line of
    play is written, and the seat to move in bold."""
    pieces = []
    for line in lines:
        piece = Text(line)
        if line.startswith(SEAT_MARKS[0]):
            piece.stylize(TO_MOVE)
        at = line.find(mark[0]) if mark is not None and mark[0] else -1
        if mark is not None and at >= 0:
            for begin, end in mark[1]:
                piece.stylize(NEW, at + begin, at + end)
            mark = None  # the line of play is written once, first
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


def hand_text(lines: Sequence[str], hand: HandView | None, before: HandView | None) -> Text:
    """A hand's lines with the tiles its model holds that its model ``before`` (of the
    same deal) did not marked: the tiles just drawn (none the first time)."""
    fresh: list[TileRef] = []
    if hand is not None and before is not None and before.deal == hand.deal:
        fresh = [tile for tile in hand.tiles if tile not in before.tiles]
    pieces = []
    for line in lines:
        piece = Text(line)
        for tile in fresh:
            at = line.find(tile_written(tile))
            if at >= 0:
                piece.stylize(NEW, at, at + len(tile_written(tile)))
        pieces.append(piece)
    return Text("\n").join(pieces)


def held_lines(lines: Sequence[str], hand: HandView | None) -> list[str]:
    """A hand's lines down to the last that writes one of its model's tiles: once a deal
    is over, what the hand said of the turn ("Wait for your turn.", "The match is
    over.") is past, and the table says what comes next."""
    tiles = [tile_written(tile) for tile in hand.tiles] if hand is not None else []
    holding = [n for n, line in enumerate(lines) if any(tile in line for tile in tiles)]
    return list(lines[: max(holding, default=len(lines) - 1) + 1])


def replaced(lines: Sequence[str], block: Sequence[str], by: Sequence[str]) -> list[str]:
    """The lines with the ``block`` of them the table's card names (its recent moves, its
    closing lines) put ``by`` other lines; as they are if they hold no such block."""
    count = len(block)
    for at in range(len(lines) - count + 1):
        if count and list(lines[at : at + count]) == list(block):
            return [*lines[:at], *by, *lines[at + count :]]
    return list(lines)
