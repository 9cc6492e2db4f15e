"""Thief of Baghdad's caravans, side by side: each on a card of its own that
names its state and owner, with the thief that stole it at its end and the
handcuffs that won it back on its two ends, each ringed in its colour."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.model.parts import CaravanPart, Laid
from bot.picture import palette
from bot.picture.frame import INNER, LEFT, Block, Sheet
from bot.picture.ink import text_width
from bot.picture.snake import Layout, snake
from bot.picture.sprites import tile
from bot.views.i18n import Translator
from engine import Placed

#: A camel's short side, by how many cards share a row.
SHORT: Final = {1: 20, 2: 16, 3: 14}
GAP: Final = 10  # between cards
TITLE: Final = 22
MOST_COLUMNS: Final = 3


def caravan_block(
    translator: Translator, caravans: Sequence[CaravanPart], names: Sequence[str]
) -> Block:
    """Every caravan of the deal, closed ones first, in rows of up to three cards."""
    if not caravans:
        return _empty(translator)
    columns = min(MOST_COLUMNS, len(caravans))
    card = (INNER - GAP * (columns - 1)) // columns
    cards = [_card(translator, c, names, card, SHORT[columns]) for c in caravans]
    rows = [cards[i : i + columns] for i in range(0, len(cards), columns)]
    heights = [max(c.height for c in row) for row in rows]

    def paint(sheet: Sheet, y: int) -> None:
        top = y
        for row, height in zip(rows, heights, strict=True):
            for column, made in enumerate(row):
                x = LEFT + column * (card + GAP)
                sheet.panel((x, top, x + card - 1, top + height - 1), 8, palette.PANEL)
                made.paint(sheet, x, top)
            top += height + GAP

    return Block(sum(heights) + GAP * (len(rows) - 1), paint)


class _Card:
    """One caravan's card, measured before it is drawn."""

    def __init__(
        self,
        title: str,
        colour: palette.Colour,
        count: str,
        layout: Layout,
        rings: list[str | None],
        short: int,
    ) -> None:
        self.title, self.colour, self.count = title, colour, count
        self.layout, self.rings, self.short = layout, rings, short
        self.height = 8 + TITLE + layout.height + 14

    def paint(self, sheet: Sheet, x: int, y: int) -> None:
        width = self.layout.width
        count_width = text_width(self.count, 13)
        title_width = width - count_width - 8
        panel = palette.PANEL
        title, count = (x + 8, y + 8), (x + 8 + width, y + 9)
        sheet.write(title, self.title, 14, self.colour, bold=True, width=title_width, ground=panel)
        sheet.write(count, self.count, 13, palette.TEXT_DIM, anchor="ra", ground=panel)
        tiles = []
        for spot, ring in zip(self.layout.spots, self.rings, strict=True):
            sprite = tile(spot.first, spot.second, self.short, spot.horizontal, ring)
            tiles.append((sprite, x + 8 + spot.x, y + 8 + TITLE + 4 + spot.y, self.short))
        sheet.lay(tiles, panel)


def _card(
    _: Translator, caravan: CaravanPart, names: Sequence[str], width: int, short: int
) -> _Card:
    state = caravan.status
    owner = caravan.owner
    who = names[owner] if owner is not None and 0 <= owner < len(names) else "?"
    if state == "stolen":
        title, colour = _("Stolen by %(name)s", name=who), palette.RED
    elif state == "recovered":
        title, colour = _("Recovered by %(name)s", name=who), palette.BLUE
    else:
        title, colour = _("The active caravan"), palette.GOLD
    camels = caravan.camels
    count = _.ngettext("%(n)d camel", "%(n)d camels", len(camels))
    line: list[Laid] = list(camels)
    rings: list[str | None] = [None] * len(camels)
    thief = caravan.thief
    if thief is not None:
        line.append(Placed(thief.hi, thief.lo, across=True))
        rings.append("thief")
    if caravan.handcuffs is not None:
        first, last = caravan.handcuffs
        line = [Placed(first.hi, first.lo, True), *line, Placed(last.hi, last.lo, True)]
        rings = ["cuffs", *rings, "cuffs"]
    # A thief or a pair of handcuffs stands across the caravan's end, as a double does.
    layout = snake(line, short, width - 16, lambda p: p.across or p.left == p.right, gap=1)
    return _Card(title, colour, count, layout, rings, short)


def _empty(_: Translator) -> Block:
    def paint(sheet: Sheet, y: int) -> None:
        sheet.write(
            (LEFT + INNER // 2, y + 30),
            _("The line is empty"),
            18,
            palette.TEXT_DIM,
            anchor="mm",
        )

    return Block(60, paint)
