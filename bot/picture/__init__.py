"""Pictures of a game drawn with Pillow: the table, and a player's own hand.

Platform-neutral: a picture is PNG bytes, which every adapter can send. The
table is drawn from its model (:class:`~bot.model.table.TableView`), a hand
from that seat's own model (:class:`~bot.model.hand.HandView`); see :mod:`bot.picture.table` and
:mod:`bot.picture.hand`; :mod:`bot.picture.screens` draws them for the screens
the core sends. It may import :mod:`bot.model` and :mod:`bot.views`.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.model.hand import HandView
from bot.model.table import TableView
from bot.picture.hand import hand_blocks
from bot.picture.indexed import indexed
from bot.picture.stored import indexed_png, learnt_palette, png
from bot.picture.table import table_blocks
from bot.views.i18n import Translator
from engine.state import Hands

__all__ = ["hand_png", "learnt_palette", "png", "table_png"]


def table_png(
    translator: Translator,
    table: TableView,
    names: Sequence[str],
    status: Sequence[str] = (),
    revealed: Hands | None = None,
) -> bytes:
    return indexed_png(indexed(table_blocks(translator, table, names, status, revealed)))


def hand_png(
    translator: Translator, hand: HandView, heading: str, status: str, *, ringed: bool = True
) -> bytes:
    blocks = hand_blocks(translator, hand, heading, status, ringed=ringed)
    return indexed_png(indexed(blocks))
