"""The players round the table: one row each with his name, his tiles (face
down during a deal, face up once it is over) and his score, from the table's model."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.model.table import SeatView, TableView
from bot.picture import palette
from bot.picture.frame import INNER, LEFT, Block, Sheet, Tiles
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

    def paint(sheet: Sheet, y: int) -> None:
        sheet.panel((LEFT - 6, y, LEFT + INNER + 5, y + players * ROW + 8), 10, palette.PANEL)
        for held in table.seats:
            row = y + 4 + held.seat * ROW
            hand = None if revealed is None else revealed[held.seat]
            _seat_row(translator, table, held, names[held.seat], hand, sheet, row)

    return Block(players * ROW + 8, paint)


def _seat_row(
    _: Translator,
    table: TableView,
    held: SeatView,
    name: str,
    hand: tuple[Tile, ...] | None,
    sheet: Sheet,
    y: int,
) -> None:
    moving = table.turn is not None and table.turn.seat == held.seat
    middle = y + ROW // 2
    if moving:
        x = LEFT + 6
        sheet.polygon(((x, middle - 7), (x + 11, middle), (x, middle + 7)), palette.GOLD)
    colour = palette.GOLD if moving else palette.TEXT
    panel = palette.PANEL
    sheet.write(
        (LEFT + 24, middle),
        name,
        17,
        colour,
        bold=True,
        width=NAME_WIDTH,
        anchor="lm",
        ground=panel,
    )
    sheet.lay(_tiles(held.tiles, hand, y), panel)
    right = LEFT + INNER - 8
    total = unit_words(_, table.unit, held.total)
    dim = palette.TEXT_DIM
    if held.deal_points is not None:
        deal = unit_words(_, table.unit, held.deal_points)
        sheet.write((right, middle + 1), total, 15, width=SCORE_WIDTH, anchor="rs", ground=panel)
        this_deal = _("%(points)s this deal", points=deal)
        sheet.write(
            (right, middle + 4), this_deal, 13, dim, width=SCORE_WIDTH, anchor="ra", ground=panel
        )
        return
    tiles = _.ngettext("%(n)d tile", "%(n)d tiles", held.tiles)
    text = f"{tiles} · {total}"
    sheet.write((right, middle), text, 15, dim, width=SCORE_WIDTH, anchor="rm", ground=panel)


def _tiles(count: int, revealed: tuple[Tile, ...] | None, y: int) -> Tiles:
    """The seat's tiles: the hand a finished deal reveals, else one back per tile."""
    room = INNER - TILES_AT - SCORE_WIDTH - 16
    left = LEFT + TILES_AT
    if revealed is not None:
        hand = sorted(revealed, key=lambda t: -t.index)
        step = min(FACE_UP + 3, room // max(1, len(hand)))
        top = y + (ROW - 2 * FACE_UP) // 2
        return [
            (tile(held.hi, held.lo, FACE_UP), left + i * step, top, FACE_UP)
            for i, held in enumerate(hand)
        ]
    step = min(FACE_DOWN + 3, room // max(1, count))
    top = y + (ROW - 2 * FACE_DOWN) // 2
    return [(back(FACE_DOWN), left + i * step, top, FACE_DOWN) for i in range(count)]
