"""The players round the table: one row each with his name, his tiles (face
down during a deal, face up once it is over) and his score, from the table's model."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from PIL import Image, ImageDraw

from bot.model.table import SeatView, TableView
from bot.picture import palette
from bot.picture.frame import INNER, LEFT, Block
from bot.picture.ink import paste, write
from bot.picture.sprites import back, tile
from bot.views.i18n import Translator
from bot.views.texts import unit_words
from engine import Tile
from engine.state import Hands

ROW: Final = 38  # one seat's row
NAME_WIDTH: Final = 190
TILES_AT: Final = 225  # where a row's tiles start, from the panel's left
SCORE_WIDTH: Final = 235
FACE_UP: Final = 12  # the short side of a revealed tile
FACE_DOWN: Final = 10  # the short side of a tile back


def seats_block(
    translator: Translator, table: TableView, names: Sequence[str], revealed: Hands | None = None
) -> Block:
    """Every seat in order, with the hands a finished deal ``revealed``; the seat to
    move is marked in gold."""
    players = len(table.seats)

    def paint(canvas: Image.Image, draw: ImageDraw.ImageDraw, y: int) -> None:
        draw.rounded_rectangle(
            (LEFT - 6, y, LEFT + INNER + 5, y + players * ROW + 8), 10, fill=palette.PANEL
        )
        for held in table.seats:
            row = y + 4 + held.seat * ROW
            hand = None if revealed is None else revealed[held.seat]
            _seat_row(translator, table, held, names[held.seat], hand, canvas, draw, row)

    return Block(players * ROW + 8, paint)


def _seat_row(
    _: Translator,
    table: TableView,
    held: SeatView,
    name: str,
    hand: tuple[Tile, ...] | None,
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    y: int,
) -> None:
    moving = table.turn is not None and table.turn.seat == held.seat
    middle = y + ROW // 2
    if moving:
        x = LEFT + 6
        draw.polygon(((x, middle - 7), (x + 11, middle), (x, middle + 7)), fill=palette.GOLD)
    colour = palette.GOLD if moving else palette.TEXT
    write(draw, (LEFT + 24, middle), name, 17, colour, bold=True, width=NAME_WIDTH, anchor="lm")
    _tiles(held.tiles, hand, canvas, y)
    right = LEFT + INNER - 8
    total = unit_words(_, table.unit, held.total)
    if held.deal_points is not None:
        deal = unit_words(_, table.unit, held.deal_points)
        write(draw, (right, middle + 1), total, 15, width=SCORE_WIDTH, anchor="rs")
        this_deal = _("%(points)s this deal", points=deal)
        write(
            draw,
            (right, middle + 4),
            this_deal,
            13,
            palette.TEXT_DIM,
            width=SCORE_WIDTH,
            anchor="ra",
        )
        return
    tiles = _.ngettext("%(n)d tile", "%(n)d tiles", held.tiles)
    write(
        draw,
        (right, middle),
        f"{tiles} · {total}",
        15,
        palette.TEXT_DIM,
        width=SCORE_WIDTH,
        anchor="rm",
    )


def _tiles(count: int, revealed: tuple[Tile, ...] | None, canvas: Image.Image, y: int) -> None:
    """The seat's tiles: the hand a finished deal reveals, else one back per tile."""
    room = INNER - TILES_AT - SCORE_WIDTH - 16
    if revealed is not None:
        hand = sorted(revealed, key=lambda t: -t.index)
        step = min(FACE_UP + 3, room // max(1, len(hand)))
        top = y + (ROW - 2 * FACE_UP) // 2
        for i, held in enumerate(hand):
            paste(canvas, tile(held.hi, held.lo, FACE_UP), LEFT + TILES_AT + i * step, top, FACE_UP)
        return
    step = min(FACE_DOWN + 3, room // max(1, count))
    top = y + (ROW - 2 * FACE_DOWN) // 2
    for i in range(count):
        paste(canvas, back(FACE_DOWN), LEFT + TILES_AT + i * step, top, FACE_DOWN)
