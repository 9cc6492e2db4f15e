"""The table's typed model: what the table's screen and picture are drawn from, and what
a platform whose adapter draws the table itself (the terminal) is sent beside them: the
:class:`~bot.model.table.TableView` and the events since the version the table showed
last with the table's screen, the :class:`~bot.model.hand.HandView` with a hand's, with
why each tile the hand cannot play does not fit. Only such platforms get the models in
their shows; the events and those reasons are built for them alone, so the chats, which
show the screens as they are, pay nothing for them."""

from __future__ import annotations

from dataclasses import replace

import engine
from bot.model.contract import Show
from bot.model.decision import Game
from bot.model.events import DealStarted, TableEvent, events_since
from bot.model.gamedoc import GameDoc
from bot.model.hand import hand_view
from bot.model.table import TableView, table_view


def table_model(game: Game) -> TableView | None:
    """The model of ``game``'s table, which its screen and its picture are drawn from;
    a lobby has none."""
    if game.state is None:
        return None
    return table_view(game.doc, engine.public_view(game.state))


def with_table_model(show: Show, game: Game, since: int, table: TableView | None) -> Show:
    """``show`` (the table's) with ``table``, its model (``game``'s, None for a lobby),
    and the events after version ``since``, or since the current deal began if that is
    earlier."""
    if table is None:
        return show
    return replace(show, table=table, events=table_events(game.doc, since))


def with_hand_model(show: Show, game: Game, seat: int) -> Show:
    """``show`` (``seat``'s hand) with the model of his hand, with why each tile he
    cannot play does not fit."""
    if game.state is None:
        return show
    return replace(show, hand=hand_view(game.doc, game.state, seat, refusals=True))


def table_events(doc: GameDoc, since: int) -> tuple[TableEvent, ...]:
    """The events after version ``since``, or from the current deal's start if that
    is earlier (a table redrawn from scratch tells its deal so far)."""
    told = events_since(doc)
    starts = [n for n, event in enumerate(told) if isinstance(event, DealStarted)]
    newer = next((n for n, event in enumerate(told) if event.version > since), len(told))
    return told[min(newer, starts[-1] if starts else 0) :]
