"""Writing on a picture: text that fits a width, and pasting a tile."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.picture.coverage import drawable
from bot.picture.fonts import BOLD, REGULAR, font
from bot.picture.sprites import shadow_pad

ELLIPSIS = "…"


def text_width(text: str, size: int, bold: bool = False) -> int:
    return int(font(size, bold).getlength(shown(text, bold)))


def shown(text: str, bold: bool = False) -> str:
    """``text`` as the font draws it (:func:`bot.picture.coverage.drawable`)."""
    return drawable(text, BOLD if bold else REGULAR)


def fit(text: str, size: int, width: int, bold: bool = False) -> str:
    """``text``, cut short with an ellipsis where it would be wider than ``width``."""
    if text_width(text, size, bold) <= width:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest start that fits with the ellipsis
        middle = (low + high + 1) // 2
        if text_width(text[:middle] + ELLIPSIS, size, bold) <= width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + ELLIPSIS


@lru_cache(maxsize=1024)
def lettering(
    text: str, size: int, bold: bool, width: int | None, anchor: str
) -> tuple[Image.Image, int, int]:
    """``text`` as a sheet writes it (:meth:`bot.picture.frame.Sheet.write`), as a mask
    of its letters' coverage, and where the mask's top left lies from the point it is
    written at. The same words come back
    in picture after picture (names, points, "Deal 3"), and laying out their letters
    took most of the time of drawing a picture's text; a mask is then laid in the
    text's colour with the very pixels drawing it afresh would give."""
    face = font(size, bold)
    drawn = shown(text, bold)
    drawn = fit(drawn, size, width, bold) if width is not None else drawn
    left, top, right, bottom = (int(edge) for edge in face.getbbox(drawn, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), drawn, fill=255, font=face, anchor=anchor)
    return mask, left, top


def paste(canvas: Image.Image, sprite: Image.Image, x: int, y: int, short: int) -> None:
    """Lay a tile sprite whose tile box starts at ``x, y`` (its shadow reaches beyond).
    The sprite's own transparency is the mask, so it blends into the felt."""
    pad = shadow_pad(short)
    canvas.paste(sprite, (x - pad, y - pad), sprite)
