"""Pictures as the core sends them: a game's table drawn for its chat, as a
:class:`~bot.model.contract.Screen` whose text is the picture's caption.

The table is drawn from its model (:class:`~bot.model.table.TableView`), which holds
no hand's tile, with the hands a finished deal shows given beside it, and names the
seats as the table's text does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.model.contract import Screen, TextLine
from bot.model.gamedoc import GameDoc
from bot.model.hand import HandView
from bot.model.table import TableView
from bot.picture import hand_png, table_png
from bot.picture.status import status_lines
from bot.views.i18n import Translator, text_line, translator
from bot.views.table_screen import game_heading, private_heading, seat_name
from engine import State
from engine.state import Hands


@dataclass(frozen=True, slots=True)
class TableOrder:
    """Everything a table picture is drawn from, worded already, as plain data that
    can be sent to another process (see :mod:`bot.table.painter`)."""

    lang: str
    table: TableView  # no hand's tile while a deal is played
    names: tuple[str, ...]
    status: tuple[str, ...]
    revealed: Hands | None = None  # the hands a finished deal shows


def revealed_hands(state: State[Any]) -> Hands | None:
    """The hands a finished deal shows every seat; none while it is played."""
    return state.hands if state.deal_over else None


def table_order(
    translator: Translator, doc: GameDoc, table: TableView, revealed: Hands | None
) -> TableOrder:
    """What the table of ``doc``, as its model ``table`` shows it, is drawn from."""
    names = tuple(seat_name(translator, doc, seat) for seat in range(len(doc.seats)))
    status = tuple(status_lines(translator, table, names.__getitem__))
    return TableOrder(translator.lang, table, names, status, revealed)


def draw_table(order: TableOrder) -> bytes:
    """The picture ``order`` describes, as PNG bytes."""
    return table_png(translator(order.lang), order.table, order.names, order.status, order.revealed)


def picture_caption(_: Translator, doc: GameDoc, table: TableView) -> tuple[TextLine, ...]:
    """What a table picture says under it: the game and the deal."""
    deal = _("Deal %(n)d", n=table.deal)
    return (text_line(f"{game_heading(_, doc)} · {deal}"),)


def picture_screen(
    translator: Translator, doc: GameDoc, table: TableView, revealed: Hands | None
) -> Screen:
    """The table's picture, captioned with the game and the deal."""
    drawn = draw_table(table_order(translator, doc, table, revealed))
    return Screen(picture_caption(translator, doc, table), picture=drawn)


def hand_picture_png(doc: GameDoc, hand: HandView, steady: bool = False) -> bytes:
    """The tiles ``hand`` models, in its seat's language: for his private chat only.
    A steady hand's rings no tile as playable: it stays the same while the turn
    passes."""
    _ = translator(doc.seats[hand.seat].lang)
    return hand_png(_, hand, private_heading(_, doc), "", ringed=not steady)
