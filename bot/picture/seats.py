"""The players round the table: one row each with his name, his tiles (face
down during a deal, face up once it is over) and his score."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from PIL import Image, ImageDraw

from bot.picture import palette
from bot.picture.frame import INNER, LEFT, Block
from bot.picture.ink import paste, write
from bot.picture.sprites import back, tile
from bot.views.i18n import Translator
from bot.views.texts import score_words
from engine import View

ROW: Final = 38  # one seat's row
NAME_WIDTH: Final = 190
TILES_AT: Final = 225  # where a row's tiles start, from the panel's left
SCORE_WIDTH: Final = 235
FACE_UP: Final = 12  # the short side of a revealed tile
FACE_DOWN: Final = 10  # the short side of a tile back


def seats_block(translator: Translator, view: View, names: Sequence[str]) -> Block:
    """Every seat in order; the seat to move is marked in gold."""
    players = len(view.hand_counts)

    def paint(canvas: Image.Image, draw: ImageDraw.ImageDraw, y: int) -> None:
        draw.rounded_rectangle(
            (LEFT - 6, y, LEFT + INNER + 5, y + players * ROW + 8), 10, fill=palette.PANEL
        )
        for seat in range(players):
            _seat_row(translator, view, names[seat], seat, canvas, draw, y + 4 + seat * ROW)

    return Block(players * ROW + 8, paint)


def _seat_row(
    _: Translator,
    view: View,
    name: str,
    seat: int,
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    y: int,
) -> None:
    moving = view.turn == seat and not view.deal_over
    middle = y + ROW // 2
    if moving:
        x = LEFT + 6
        draw.polygon(((x, middle - 7), (x + 11, middle), (x, middle + 7)), fill=palette.GOLD)
    colour = palette.GOLD if moving else palette.TEXT
    write(draw, (LEFT + 24, middle), name, 17, colour, bold=True, width=NAME_WIDTH, anchor="lm")
    _tiles(view, seat, canvas, y)
    right = LEFT + INNER - 8
    total = score_words(_, view.variant, view.match_scores[seat])
    result = view.result
    if view.deal_over and result is not None:
        deal = score_words(_, view.variant, result.scores[seat])
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
    tiles = _.ngettext("%(n)d tile", "%(n)d tiles", view.hand_counts[seat])
    write(
        draw,
        (right, middle),
        f"{tiles} · {total}",
        15,
        palette.TEXT_DIM,
        width=SCORE_WIDTH,
        anchor="rm",
    )


def _tiles(view: View, seat: int, canvas: Image.Image, y: int) -> None:
    """The seat's tiles: the hand a finished deal reveals, else one back per tile."""
    room = INNER - TILES_AT - SCORE_WIDTH - 16
    revealed = view.revealed
    if revealed is not None:
        hand = sorted(revealed[seat], key=lambda t: -t.index)
        step = min(FACE_UP + 3, room // max(1, len(hand)))
        top = y + (ROW - 2 * FACE_UP) // 2
        for i, held in enumerate(hand):
            paste(canvas, tile(held.hi, held.lo, FACE_UP), LEFT + TILES_AT + i * step, top, FACE_UP)
        return
    count = view.hand_counts[seat]
    step = min(FACE_DOWN + 3, room // max(1, count))
    top = y + (ROW - 2 * FACE_DOWN) // 2
    for i in range(count):
        paste(canvas, back(FACE_DOWN), LEFT + TILES_AT + i * step, top, FACE_DOWN)
