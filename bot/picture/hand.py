"""A player's own hand as a picture, for his private chat: his tiles face up,
the ones he can play now ringed in gold. It is drawn from his hand's model,
:class:`~bot.model.hand.HandView`."""

from __future__ import annotations

from typing import Final

from PIL import Image

from bot.model.hand import HandView
from bot.picture import palette
from bot.picture.frame import INNER, LEFT, Block, Sheet, compose
from bot.picture.sprites import tile
from bot.views.hand import held_tiles
from bot.views.i18n import Translator

SHORT: Final = 34  # a tile's short side
STEP: Final = SHORT + 10  # from one tile to the next
PER_ROW: Final = INNER // STEP


def hand_picture(
    translator: Translator, model: HandView, heading: str, status: str, *, ringed: bool = True
) -> Image.Image:
    """The hand ``model`` holds under ``heading``, with ``status`` (whose turn, what
    fits) below it; with ``ringed``, the tiles it can play now ringed."""
    return compose(hand_blocks(translator, model, heading, status, ringed=ringed))


def hand_blocks(
    _: Translator, model: HandView, heading: str, status: str, *, ringed: bool = True
) -> list[Block]:
    """The bands :func:`hand_picture` stacks, from the top down."""
    hand = held_tiles(model)
    moves = model.moves if ringed else ()
    playable = {m.tile.tile() for m in moves if m.tile is not None}
    playable |= {m.second.tile() for m in moves if m.second is not None}
    rows = max(1, -(-len(hand) // PER_ROW))

    def head(sheet: Sheet, y: int) -> None:
        sheet.write((LEFT, y), heading, 18, bold=True, width=INNER)
        sheet.write(
            (LEFT, y + 28),
            _("Your tiles, deal %(n)d:", n=model.deal),
            16,
            palette.TEXT_DIM,
            width=INNER,
        )

    def tiles(sheet: Sheet, y: int) -> None:
        if not hand:
            sheet.write((LEFT, y + SHORT), _("No tiles left"), 18, palette.TEXT_DIM, anchor="lm")
        laid = []
        for i, held in enumerate(hand):
            row, column = divmod(i, PER_ROW)
            in_row = min(PER_ROW, len(hand) - row * PER_ROW)
            start = LEFT + (INNER - (in_row * STEP - 10)) // 2  # each row centred
            ring = "playable" if held in playable else None
            sprite = tile(held.hi, held.lo, SHORT, ring=ring)
            laid.append((sprite, start + column * STEP, y + row * (2 * SHORT + 12), SHORT))
        sheet.lay(laid)

    def foot(sheet: Sheet, y: int) -> None:
        colour = palette.GOLD if moves else palette.TEXT
        sheet.write((LEFT, y), status, 16, colour, bold=bool(moves), width=INNER)

    blocks = [Block(48, head), Block(rows * (2 * SHORT + 12) - 12, tiles)]
    if status:
        blocks.append(Block(20, foot))
    return blocks
