"""Pictures as the core sends them: a game's table drawn for its chat, as a
:class:`~bot.contract.Screen` whose text is the picture's caption.

The table is drawn from the engine's view for no seat, which holds no hand
while a deal is played, and names the seats as the table's text does.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import engine
from bot.contract import Screen
from bot.gamedoc import GameDoc
from bot.i18n import Translator, text_line, translator
from bot.picture import hand_png, table_png
from bot.picture.status import status_lines
from bot.render import game_heading, private_heading, seat_label
from engine import State


def table_picture_png(_: Translator, doc: GameDoc, state: State[Any]) -> bytes:
    """The table of ``doc`` as it stands in ``state``, as PNG bytes."""
    names = [seat_label(_, doc, seat) for seat in range(len(doc.seats))]
    status = status_lines(_, state, names.__getitem__)
    return table_png(_, engine.public_view(state), names, status)


def picture_screen(_: Translator, doc: GameDoc, state: State[Any]) -> Screen:
    """The table's picture, captioned with the game and the deal."""
    deal = _("Deal %(n)d", n=state.deal_number)
    caption = f"{game_heading(_, doc)} · {deal}"
    return Screen((text_line(caption),), picture=table_picture_png(_, doc, state))


def hand_picture_png(doc: GameDoc, state: State[Any], seat: int, steady: bool = False) -> bytes:
    """``seat``'s own tiles, from his own view, in his language: for his private
    chat only. A steady hand's rings no tile as playable: it stays the same while the
    turn passes."""
    _ = translator(doc.seats[seat].lang)
    view = engine.view(state, seat)
    if steady:
        view = replace(view, legal=())
    return hand_png(_, view, private_heading(_, doc), "")
