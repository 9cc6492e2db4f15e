"""The fonts the pictures are drawn with, shipped inside the package.

DejaVu Sans covers Latin with every Polish and Catalan letter, Cyrillic with
the Ukrainian ones, and the arrows and marks the tables use. It is read from
this package only, never from the host, so a picture looks the same wherever
the bot runs. Its licence is ``fonts/LICENSE``.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Final

from PIL import ImageFont

FONT_DIR: Final = Path(__file__).parent / "fonts"
REGULAR: Final = FONT_DIR / "DejaVuSans.ttf"
BOLD: Final = FONT_DIR / "DejaVuSans-Bold.ttf"


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled font at ``size`` pixels, loaded once per size."""
    return ImageFont.truetype(str(BOLD if bold else REGULAR), size)
