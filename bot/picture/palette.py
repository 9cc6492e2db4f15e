"""The colours of a table picture: a green felt in a wooden rim, ivory tiles."""

from __future__ import annotations

from typing import Final

Colour = tuple[int, int, int] | tuple[int, int, int, int]

WOOD: Final = (74, 45, 27)
WOOD_LIGHT: Final = (105, 66, 38)
FELT: Final = (24, 96, 62)
FELT_DARK: Final = (18, 78, 50)
PANEL: Final = (16, 66, 43)

IVORY: Final = (250, 246, 232)
EDGE: Final = (60, 52, 40)
DIVIDER: Final = (120, 110, 95)
PIP: Final = (25, 25, 25)
SHADOW: Final = (0, 0, 0, 110)
BACK: Final = (128, 29, 38)
BACK_LINE: Final = (196, 120, 92)

TEXT: Final = (245, 238, 215)
TEXT_DIM: Final = (190, 205, 190)
GOLD: Final = (242, 193, 78)
RED: Final = (214, 69, 65)
BLUE: Final = (86, 156, 230)

#: Outlines that mark a tile: laid across, a thief, handcuffs, playable.
RINGS: Final[dict[str, Colour]] = {
    "across": (214, 150, 20),
    "thief": (200, 40, 40),
    "cuffs": (40, 100, 200),
    "playable": (214, 150, 20),
}
