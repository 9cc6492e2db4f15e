"""The table as a picture: the line of tiles on a felt, and the players round it.

Drawn from a :class:`~engine.View` alone, and from its public part only: the
line, the boneyard's size, the public details, every seat's tile count and
score, and, once a deal is over, the hands it reveals. The viewing seat's own
hand is never read here, so the picture is the same whichever seat's view it
is drawn from (:func:`bot.picture.hand.hand_picture` draws a hand).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from PIL import Image, ImageDraw

from bot.picture import palette
from bot.picture.caravans import caravan_block
from bot.picture.frame import INNER, LEFT, WIDTH, Block, compose
from bot.picture.ink import paste, text_width, write
from bot.picture.seats import seats_block
from bot.picture.snake import Layout, snake
from bot.picture.sprites import back, tile
from bot.views.i18n import Translator
from bot.views.texts import tile_text, variant_title
from engine import BaghdadPublic, GunsPublic, Placed, View, get_variant

LINE_TILE: Final = 34  # a line tile's short side, made smaller for a very long line
SMALLEST_TILE: Final = 16
MOST_ROWS: Final = 4


def table_picture(
    translator: Translator, view: View, names: Sequence[str], status: Sequence[str] = ()
) -> Image.Image:
    """The table as ``view`` shows it; ``names`` are the seats' names in seat
    order, ``status`` the sentences under the line (see :mod:`bot.picture.status`)."""
    blocks = [
        _header(translator, view),
        *_notes(translator, view, names),
        _line(translator, view, names),
    ]
    blocks += [*_status(status), seats_block(translator, view, names)]
    return compose(blocks)


def _header(_: Translator, view: View) -> Block:
    """The game and the deal on the left; the boneyard, or Three Guns' pool, on the right."""
    left = LEFT
    right = WIDTH - LEFT
    details = view.details

    def paint(canvas: Image.Image, draw: ImageDraw.ImageDraw, y: int) -> None:
        write(draw, (left, y), variant_title(_, view.variant), 22, bold=True, width=INNER // 2)
        write(draw, (left, y + 30), _("Deal %(n)d", n=view.deal_number), 16, palette.TEXT_DIM)
        if isinstance(details, GunsPublic):
            pool = details.pool
            text = _.ngettext("Tokens in the pool: %(n)d", "Tokens in the pool: %(n)d", pool)
            write(draw, (right, y + 20), text, 16, anchor="rm")
            return
        text = _.ngettext("Boneyard: %(n)d tile", "Boneyard: %(n)d tiles", view.boneyard)
        write(draw, (right, y + 20), text, 16, anchor="rm")
        stack = min(view.boneyard, 3)
        width = text_width(text, 16)
        for i in range(stack):
            paste(canvas, back(12, horizontal=True), right - width - 40 - 4 * i, y + 12 - 4 * i, 12)

    return Block(48, paint)


def _notes(_: Translator, view: View, names: Sequence[str]) -> list[Block]:
    """Lines about public details: Three Guns' cardinal and the tile he set aside."""
    details = view.details
    if not isinstance(details, GunsPublic) or not 0 <= details.cardinal < len(names):
        return []
    text = _(
        "Cardinal: %(name)s (%(tile)s is set aside)",
        name=names[details.cardinal],
        tile=tile_text(details.aside),
    )

    def paint(canvas: Image.Image, draw: ImageDraw.ImageDraw, y: int) -> None:
        write(draw, (LEFT, y), text, 15, palette.TEXT_DIM, width=INNER)

    return [Block(18, paint)]


def _line(_: Translator, view: View, names: Sequence[str]) -> Block:
    if isinstance(view.details, BaghdadPublic):
        return caravan_block(_, view.details.caravans, names)
    if not view.line:
        return _centred(_("The line is empty"), 60)
    crosswise = _crosswise(view)
    layout, short = _fit(view.line, crosswise)
    left = LEFT

    def paint(canvas: Image.Image, draw: ImageDraw.ImageDraw, y: int) -> None:
        for spot in layout.spots:
            ring = "across" if spot.placed.across else None
            sprite = tile(spot.first, spot.second, short, spot.horizontal, ring)
            paste(canvas, sprite, left + spot.x, y + spot.y, short)

    return Block(layout.height + 8, paint)


def _crosswise(view: View) -> Callable[[Placed], bool]:
    """Which tiles stand across the line: doubles, except in Three Guns, where a
    tile stands across only when it was laid across (a double laid normally is
    played along the line there)."""
    if get_variant(view.variant).plays_across:
        return lambda placed: placed.across
    return lambda placed: placed.left == placed.right


def _fit(line: Sequence[Placed], crosswise: Callable[[Placed], bool]) -> tuple[Layout, int]:
    """The line at the largest tile size that keeps it within :data:`MOST_ROWS`
    rows, and that size."""
    short = LINE_TILE
    layout = snake(line, short, INNER, crosswise, gap=max(1, short // 12))
    while layout.rows > MOST_ROWS and short > SMALLEST_TILE:
        short -= 2
        layout = snake(line, short, INNER, crosswise, gap=max(1, short // 12))
    return layout, short


def _centred(text: str, height: int) -> Block:
    def paint(canvas: Image.Image, draw: ImageDraw.ImageDraw, y: int) -> None:
        write(draw, (WIDTH // 2, y + height // 2), text, 18, palette.TEXT_DIM, anchor="mm")

    return Block(height, paint)


def _status(lines: Sequence[str]) -> list[Block]:
    """The status under the line, in gold, one sentence after another."""
    if not lines:
        return []
    text = " ".join(lines)

    def paint(canvas: Image.Image, draw: ImageDraw.ImageDraw, y: int) -> None:
        write(
            draw, (WIDTH // 2, y + 12), text, 18, palette.GOLD, bold=True, width=INNER, anchor="mm"
        )

    return [Block(24, paint)]
