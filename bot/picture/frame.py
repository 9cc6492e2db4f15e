"""The frame every picture shares: a green felt in a wooden rim, and the
bands (blocks) stacked on it from the top down.

A block draws on a :class:`Sheet`: flat shapes in a named colour, words, and tiles,
each on the ground it lies on (the felt, or a panel). :func:`compose` draws the blocks
in full colour; :mod:`bot.picture.indexed` draws the same blocks straight in the
256 colours a picture is stored in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from bot.picture import palette
from bot.picture.ink import lettering, paste

WIDTH: Final = 800  # pixels; the height follows what the table holds
RIM: Final = 12  # the wooden edge round the felt
PAD: Final = 18  # from the felt's edge to what is drawn on it
LEFT: Final = RIM + PAD  # where drawing starts
INNER: Final = WIDTH - 2 * LEFT  # the width drawing may use

Fill = palette.Colour | int  # a colour, or its index in a palette
Tiles = Sequence[tuple[Image.Image, int, int, int]]
"""Tile sprites to lay, each with the top left corner of its tile box and the tile's
short side (see :func:`bot.picture.ink.paste`)."""


class Sheet:
    """What a block draws on, in full colour: the picture as it is drawn."""

    def __init__(self, image: Image.Image) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)

    def ink(self, colour: palette.Colour) -> Fill:
        """What a flat shape of ``colour`` is filled with on this sheet."""
        return colour

    def panel(self, box: tuple[int, int, int, int], radius: int, colour: palette.Colour) -> None:
        """A rounded panel of one colour."""
        self.draw.rounded_rectangle(box, radius, fill=self.ink(colour))

    def polygon(self, points: Sequence[tuple[int, int]], colour: palette.Colour) -> None:
        self.draw.polygon(points, fill=self.ink(colour))

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
        """Write ``text`` with its top left (or ``anchor``) at ``xy``, cut to ``width``, on
        ``ground`` (the colour under it)."""
        mask, left, top = lettering(text, size, bold, width, anchor)
        self.draw.bitmap((xy[0] + left, xy[1] + top), mask, fill=colour)

    def lay(self, tiles: Tiles, ground: palette.Colour = palette.FELT) -> None:
        """Lay ``tiles`` in order on ``ground`` (the colour round them), each on the
        shadows of those before it."""
        for sprite, x, y, short in tiles:
            paste(self.image, sprite, x, y, short)


Painter = Callable[[Sheet, int], None]


@dataclass(frozen=True, slots=True)
class Block:
    """A band of the picture: how tall it is, and what draws it at a height."""

    height: int
    paint: Painter


def height_of(blocks: Sequence[Block], gap: int = 12) -> int:
    """The height of the picture ``blocks`` stack into."""
    return sum(b.height for b in blocks) + gap * max(0, len(blocks) - 1) + 2 * LEFT


def draw_frame(sheet: Sheet, height: int) -> None:
    """The wooden rim and the felt, on a sheet of the rim's colour."""
    ink = sheet.ink
    draw = sheet.draw
    draw.rounded_rectangle(
        (2, 2, WIDTH - 3, height - 3), 18, outline=ink(palette.WOOD_LIGHT), width=2
    )
    draw.rounded_rectangle(
        (RIM, RIM, WIDTH - RIM - 1, height - RIM - 1),
        12,
        fill=ink(palette.FELT),
        outline=ink(palette.FELT_DARK),
        width=3,
    )


def paint_blocks(sheet: Sheet, blocks: Sequence[Block], gap: int = 12) -> None:
    """Draw ``blocks`` on a framed ``sheet``, from the top down."""
    y = LEFT
    for block in blocks:
        block.paint(sheet, y)
        y += block.height + gap


def compose(blocks: Sequence[Block], gap: int = 12) -> Image.Image:
    """Stack ``blocks`` on a felt in a wooden rim, in full colour."""
    sheet = Sheet(Image.new("RGB", (WIDTH, height_of(blocks, gap)), palette.WOOD))
    draw_frame(sheet, sheet.image.height)
    paint_blocks(sheet, blocks, gap)
    return sheet.image
