"""Pictures as the core sends them: a game's table drawn for its chat, as a
:class:`~bot.model.contract.Screen` whose text is the picture's caption.

The table is drawn from the engine's view for no seat, which holds no hand
while a deal is played, and names the seats as the table's text does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import engine
from bot.model.contract import Screen, TextLine
from bot.model.gamedoc import GameDoc
from bot.model.hand import HandView
from bot.picture import hand_png, table_png
from bot.picture.status import status_lines
from bot.views.i18n import Translator, text_line, translator
from bot.views.table_screen import game_heading, private_heading, seat_name
from engine import State, View


@dataclass(frozen=True, slots=True)
class TableOrder:
    """Everything a table picture is drawn from, worded already, as plain data that
    can be sent to another process (see :mod:`bot.table.painter`)."""

    lang: str
    view: View  # the public view: no hand while a deal is played
    names: tuple[str, ...]
    status: tuple[str, ...]


def table_order(translator: Translator, doc: GameDoc, state: State[Any]) -> TableOrder:
    """What the table of ``doc`` as it stands in ``state`` is drawn from."""
    names = tuple(seat_name(translator, doc, seat) for seat in range(len(doc.seats)))
    status = tuple(status_lines(translator, state, names.__getitem__))
    return TableOrder(translator.lang, engine.public_view(state), names, status)


def draw_table(order: TableOrder) -> bytes:
    """The picture ``order`` describes, as PNG bytes."""
    return table_png(translator(order.lang), order.view, order.names, order.status)


def picture_caption(_: Translator, doc: GameDoc, state: State[Any]) -> tuple[TextLine, ...]:
    """What a table picture says under it: the game and the deal."""
    deal = _("Deal %(n)d", n=state.deal_number)
    return (text_line(f"{game_heading(_, doc)} · {deal}"),)


def picture_screen(translator: Translator, doc: GameDoc, state: State[Any]) -> Screen:
    """The table's picture, captioned with the game and the deal."""
    drawn = draw_table(table_order(translator, doc, state))
    return Screen(picture_caption(translator, doc, state), picture=drawn)


def hand_picture_png(doc: GameDoc, hand: HandView, steady: bool = False) -> bytes:
    """The tiles ``hand`` models, in its seat's language: for his private chat only.
    A steady hand's rings no tile as playable: it stays the same while the turn
    passes."""
    _ = translator(doc.seats[hand.seat].lang)
    return hand_png(_, hand, private_heading(_, doc), "", ringed=not steady)
