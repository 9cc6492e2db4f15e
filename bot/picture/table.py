"""The table as a picture: the line of tiles on a felt, and the players round it.

Drawn from the table's model (:class:`~bot.model.table.TableView`), which holds what
every seat sees: the line, the boneyard's size, the game's public parts, every
seat's tile count and score; and, given apart, the hands a finished deal reveals,
which the model never holds. No hand is drawn while a deal is played
(:func:`bot.picture.hand.hand_picture` draws a player's own).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from PIL import Image

from bot.model.parts import BaghdadParts, GunsParts, Laid, LineTile
from bot.model.table import TableView
from bot.picture import palette
from bot.picture.caravans import caravan_block
from bot.picture.frame import INNER, LEFT, WIDTH, Block, Sheet, compose
from bot.picture.ink import text_width
from bot.picture.seats import seats_block
from bot.picture.snake import Layout, snake
from bot.picture.sprites import back, tile
from bot.views.i18n import Translator
from bot.views.texts import tile_text, variant_title
from engine import get_variant
from engine.state import Hands

LINE_TILE: Final = 34  # a line tile's short side, made smaller for a very long line
SMALLEST_TILE: Final = 16
MOST_ROWS: Final = 4


def table_picture(
    translator: Translator,
    table: TableView,
    names: Sequence[str],
    status: Sequence[str] = (),
    revealed: Hands | None = None,
) -> Image.Image:
    """The table as its model ``table`` shows it; ``names`` are the seats' names in
    seat order, ``status`` the sentences under the line (see :mod:`bot.picture.status`),
    ``revealed`` the hands a finished deal shows."""
    return compose(table_blocks(translator, table, names, status, revealed))


def table_blocks(
    translator: Translator,
    table: TableView,
    names: Sequence[str],
    status: Sequence[str] = (),
    revealed: Hands | None = None,
) -> list[Block]:
    """The bands :func:`table_picture` stacks, from the top down."""
    blocks = [
        _header(translator, table),
        *_notes(translator, table, names),
        _line(translator, table, names),
    ]
    return [*blocks, *_status(status), seats_block(translator, table, names, revealed)]


def _header(_: Translator, table: TableView) -> Block:
    """The game and the deal on the left; the boneyard, or Three Guns' pool, on the right."""
    left = LEFT
    right = WIDTH - LEFT
    parts = table.parts

    def paint(sheet: Sheet, y: int) -> None:
        sheet.write((left, y), variant_title(_, table.game), 22, bold=True, width=INNER // 2)
        sheet.write((left, y + 30), _("Deal %(n)d", n=table.deal), 16, palette.TEXT_DIM)
        if isinstance(parts, GunsParts):
            pool = parts.pool
            text = _.ngettext("Tokens in the pool: %(n)d", "Tokens in the pool: %(n)d", pool)
            sheet.write((right, y + 20), text, 16, anchor="rm")
            return
        text = _.ngettext("Boneyard: %(n)d tile", "Boneyard: %(n)d tiles", table.boneyard)
        sheet.write((right, y + 20), text, 16, anchor="rm")
        x = right - text_width(text, 16) - 40
        stack = min(table.boneyard, 3)
        sheet.lay(
            [(back(12, horizontal=True), x - 4 * i, y + 12 - 4 * i, 12) for i in range(stack)]
        )

    return Block(48, paint)


def _notes(_: Translator, table: TableView, names: Sequence[str]) -> list[Block]:
    """Lines about the game's public parts: Three Guns' cardinal and the tile he set aside."""
    parts = table.parts
    if not isinstance(parts, GunsParts) or not 0 <= parts.cardinal < len(names):
        return []
    text = _(
        "Cardinal: %(name)s (%(tile)s is set aside)",
        name=names[parts.cardinal],
        tile=tile_text(parts.aside.tile()),
    )

    def paint(sheet: Sheet, y: int) -> None:
        sheet.write((LEFT, y), text, 15, palette.TEXT_DIM, width=INNER)

    return [Block(18, paint)]


def _line(_: Translator, table: TableView, names: Sequence[str]) -> Block:
    if isinstance(table.parts, BaghdadParts):
        return caravan_block(_, table.parts.caravans, names)
    if not table.line:
        return _centred(_("The line is empty"), 60)
    crosswise = _crosswise(table.game)
    layout, short = _fit(table.line, crosswise)
    left = LEFT

    def paint(sheet: Sheet, y: int) -> None:
        tiles = []
        for spot in layout.spots:
            ring = "across" if spot.placed.across else None
            sprite = tile(spot.first, spot.second, short, spot.horizontal, ring)
            tiles.append((sprite, left + spot.x, y + spot.y, short))
        sheet.lay(tiles)

    return Block(layout.height + 8, paint)


def _crosswise(game: str) -> Callable[[Laid], bool]:
    """Which tiles stand across the line: doubles, except in Three Guns, where a
    tile stands across only when it was laid across (a double laid normally is
    played along the line there)."""
    if get_variant(game).plays_across:
        return lambda placed: placed.across
    return lambda placed: placed.left == placed.right


def _fit(line: Sequence[LineTile], crosswise: Callable[[Laid], bool]) -> tuple[Layout, int]:
    """The line at the largest tile size that keeps it within :data:`MOST_ROWS`
    rows, and that size."""
    short = LINE_TILE
    layout = snake(line, short, INNER, crosswise, gap=max(1, short // 12))
    while layout.rows > MOST_ROWS and short > SMALLEST_TILE:
        short -= 2
        layout = snake(line, short, INNER, crosswise, gap=max(1, short // 12))
    return layout, short


def _centred(text: str, height: int) -> Block:
    def paint(sheet: Sheet, y: int) -> None:
        sheet.write((WIDTH // 2, y + height // 2), text, 18, palette.TEXT_DIM, anchor="mm")

    return Block(height, paint)


def _status(lines: Sequence[str]) -> list[Block]:
    """The status under the line, in gold, one sentence after another."""
    if not lines:
        return []
    text = " ".join(lines)

    def paint(sheet: Sheet, y: int) -> None:
        sheet.write(
            (WIDTH // 2, y + 12), text, 18, palette.GOLD, bold=True, width=INNER, anchor="mm"
        )

    return [Block(24, paint)]
