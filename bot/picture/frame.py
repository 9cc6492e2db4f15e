"""The frame every picture shares: a green felt in a wooden rim, and the
bands (blocks) stacked on it from the top down."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from bot.picture import palette

WIDTH: Final = 800  # pixels; the height follows what the table holds
RIM: Final = 12  # the wooden edge round the felt
PAD: Final = 18  # from the felt's edge to what is drawn on it
LEFT: Final = RIM + PAD  # where drawing starts
INNER: Final = WIDTH - 2 * LEFT  # the width drawing may use

Painter = Callable[[Image.Image, ImageDraw.ImageDraw, int], None]


@dataclass(frozen=True, slots=True)
class Block:
    """A band of the picture: how tall it is, and what draws it at a height."""

    height: int
    paint: Painter


def compose(blocks: Sequence[Block], gap: int = 12) -> Image.Image:
    """Stack ``blocks`` on a felt in a wooden rim."""
    height = sum(b.height for b in blocks) + gap * max(0, len(blocks) - 1) + 2 * LEFT
    canvas = Image.new("RGB", (WIDTH, height), palette.WOOD)
    draw = ImageDraw.Draw(canvas)
    draw.rounded_rectangle((2, 2, WIDTH - 3, height - 3), 18, outline=palette.WOOD_LIGHT, width=2)
    draw.rounded_rectangle(
        (RIM, RIM, WIDTH - RIM - 1, height - RIM - 1),
        12,
        fill=palette.FELT,
        outline=palette.FELT_DARK,
        width=3,
    )
    y = LEFT
    for block in blocks:
        block.paint(canvas, draw, y)
        y += block.height + gap
    return canvas
