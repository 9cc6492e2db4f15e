"""Tiles as small images: face up with their pips, face down, and marked.

Pillow draws circles without smoothing, so each tile is drawn four times as
large and scaled down once; the result is kept per kind and size, and a
picture is then made by pasting these ready tiles, which is fast.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from PIL import Image, ImageDraw, ImageFilter

from bot.picture import palette

SCALE: Final = 4  # how much larger a tile is drawn before it is scaled down

# Where the pips of each value sit on one half of a tile standing upright, in
# thirds of the half's width (columns) and height (rows).
PIPS: Final[dict[int, tuple[tuple[int, int], ...]]] = {
    0: (),
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)),
}


def shadow_pad(short: int) -> int:
    """How far a tile's shadow reaches beyond its edge, for a tile ``short`` wide."""
    return max(2, short // 8)


@cache
def tile(
    top: int, bottom: int, short: int, horizontal: bool = False, ring: str | None = None
) -> Image.Image:
    """A face-up tile ``short`` pixels across and twice as long, with a shadow.

    Upright, ``top`` is the upper half; lying down (``horizontal``), ``top`` is
    the left half. ``ring`` names a colour in :data:`palette.RINGS` to outline
    the tile with (a tile across, a thief, handcuffs, a playable tile). The
    image is larger than the tile by :func:`shadow_pad` on every side.
    """
    big = short * SCALE
    face = _face(top, bottom, big, ring)
    if horizontal:
        face = face.transpose(Image.Transpose.ROTATE_90)
    return _with_shadow(face, short)


@cache
def back(short: int, horizontal: bool = False) -> Image.Image:
    """A face-down tile, as in a hand or the boneyard."""
    big = short * SCALE
    image = Image.new("RGBA", (big, 2 * big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    radius = big // 5
    draw.rounded_rectangle(
        (0, 0, big - 1, 2 * big - 1),
        radius,
        fill=palette.BACK,
        outline=palette.EDGE,
        width=max(2, big // 16),
    )
    inset = big // 5
    draw.rounded_rectangle(
        (inset, inset, big - 1 - inset, 2 * big - 1 - inset),
        radius // 2,
        outline=palette.BACK_LINE,
        width=max(2, big // 20),
    )
    if horizontal:
        image = image.transpose(Image.Transpose.ROTATE_90)
    return _with_shadow(image, short)


def _face(top: int, bottom: int, big: int, ring: str | None) -> Image.Image:
    """An upright tile drawn ``big`` pixels across, not yet scaled down."""
    image = Image.new("RGBA", (big, 2 * big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    radius = big // 5
    edge = palette.RINGS[ring] if ring else palette.EDGE
    edge_width = max(2, big // 9) if ring else max(2, big // 16)
    draw.rounded_rectangle(
        (0, 0, big - 1, 2 * big - 1), radius, fill=palette.IVORY, outline=edge, width=edge_width
    )
    margin = big // 5
    draw.line((margin, big, big - 1 - margin, big), fill=palette.DIVIDER, width=max(2, big // 24))
    for value, offset in ((top, 0), (bottom, big)):
        for column, row in PIPS[value]:
            _pip(draw, big, offset, column, row)
    return image


def _pip(draw: ImageDraw.ImageDraw, big: int, offset: int, column: int, row: int) -> None:
    step = big * 0.28
    centre_x = big / 2 + (column - 1) * step
    centre_y = offset + big / 2 + (row - 1) * step
    r = big * 0.095
    draw.ellipse((centre_x - r, centre_y - r, centre_x + r, centre_y + r), fill=palette.PIP)


def _with_shadow(big_image: Image.Image, short: int) -> Image.Image:
    """Scale a tile down and lay it on its soft shadow, offset down and right."""
    size = (big_image.width // SCALE, big_image.height // SCALE)
    small = big_image.resize(size, Image.Resampling.LANCZOS)
    pad = shadow_pad(short)
    canvas = Image.new("RGBA", (size[0] + 2 * pad, size[1] + 2 * pad), (0, 0, 0, 0))
    shade = Image.new("RGBA", size, palette.SHADOW)
    offset = max(1, pad // 2)
    canvas.paste(shade, (pad + offset, pad + offset), small)
    canvas = canvas.filter(ImageFilter.GaussianBlur(max(1, pad // 2)))
    canvas.alpha_composite(small, (pad, pad))
    return canvas
