"""Pictures drawn straight in the 256 colours they are stored in.

A picture is mostly flat colour: the felt, the rim, the panels. Drawn in full colour
and then mapped onto the palette, every one of its pixels cost the mapping, near a
third of the instructions of a deal-end picture (``bench/bench_instructions.py``).
Drawn here instead, a flat shape is filled with its colour's index, words are laid
from a patch mapped once for their colour and ground, and only the tiles, whose
shadows fall on each other, are drawn in full colour on a piece of their ground and
that piece mapped. Each pixel comes out as mapping the full-colour picture gives it
(``tests/bot/test_picture_indexed.py``), as long as words and tiles are drawn on the
ground they are said to lie on."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from bot.picture import palette
from bot.picture.frame import WIDTH, Block, Sheet, Tiles, draw_frame, height_of, paint_blocks
from bot.picture.ink import lettering, paste
from bot.picture.sprites import shadow_pad
from bot.picture.stored import learnt_palette


def indexed(blocks: Sequence[Block], gap: int = 12) -> Image.Image:
    """Stack ``blocks`` on a felt in a wooden rim, in the :func:`learnt_palette` (a
    picture in mode P): what :func:`~bot.picture.frame.compose` draws, mapped onto it."""
    sheet = IndexedSheet(_frame(height_of(blocks, gap)).copy())
    paint_blocks(sheet, blocks, gap)
    return sheet.image


class IndexedSheet(Sheet):
    """A sheet in mode P, whose pixels are indices in the :func:`learnt_palette`."""

    def ink(self, colour: palette.Colour) -> int:
        return index(colour)

    def write(
        self,
        xy: tuple[int, int],
        text: str,
        size: int,
        colour: palette.Colour = palette.TEXT,
        bold: bool = False,
        width: int | None = None,
        anchor: str = "la",
        ground: palette.Colour = palette.FELT,
    ) -> None:
        patch, cover, left, top = _lettered(text, size, bold, width, anchor, colour, ground)
        self.image.paste(patch, (xy[0] + left, xy[1] + top), cover)

    def lay(self, tiles: Tiles, ground: palette.Colour = palette.FELT) -> None:
        """The tiles laid on a piece of their ground in full colour, as the full-colour
        sheet lays them, and that piece mapped onto the palette."""
        if not tiles:
            return
        boxes = [_box(sprite, x, y, short) for sprite, x, y, short in tiles]
        left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
        right, bottom = max(b[2] for b in boxes), max(b[3] for b in boxes)
        piece = Image.new("RGB", (right - left, bottom - top), ground)
        for sprite, x, y, short in tiles:
            paste(piece, sprite, x - left, y - top, short)
        self.image.paste(_mapped(piece), (left, top))


def _box(sprite: Image.Image, x: int, y: int, short: int) -> tuple[int, int, int, int]:
    """Where a sprite laid as :func:`~bot.picture.ink.paste` lays it falls."""
    pad = shadow_pad(short)
    return x - pad, y - pad, x - pad + sprite.width, y - pad + sprite.height


def _mapped(image: Image.Image) -> Image.Image:
    """``image`` in the :func:`learnt_palette`, each pixel its nearest colour."""
    return image.quantize(palette=learnt_palette(), dither=Image.Dither.NONE)


@cache
def index(colour: palette.Colour) -> int:
    """The index ``colour`` is mapped to in the :func:`learnt_palette`."""
    return _mapped(Image.new("RGB", (1, 1), colour[:3])).tobytes()[0]


@lru_cache(maxsize=16)
def _frame(height: int) -> Image.Image:
    """The rim and the felt of a picture ``height`` pixels tall, in the palette: kept
    for the few heights a process meets most (some 400 KB each), as copying one takes
    a fortieth of the time of drawing it."""
    blank = _mapped(Image.new("RGB", (WIDTH, height), palette.WOOD))
    draw_frame(IndexedSheet(blank), height)
    return blank


@lru_cache(maxsize=1024)
def _lettered(
    text: str,
    size: int,
    bold: bool,
    width: int | None,
    anchor: str,
    colour: palette.Colour,
    ground: palette.Colour,
) -> tuple[Image.Image, Image.Image, int, int]:
    """Words written in ``colour`` on ``ground``, mapped onto the palette: the patch,
    the mask of the pixels their letters touch, and where the patch's top left lies
    from the point they are written at (see :func:`~bot.picture.ink.lettering`)."""
    mask, left, top = lettering(text, size, bold, width, anchor)
    written = Image.new("RGB", mask.size, ground)
    ImageDraw.Draw(written).bitmap((0, 0), mask, fill=colour)
    touched = mask.point(lambda coverage: 255 if coverage else 0)
    return _mapped(written), touched, left, top
