"""What a table picture says under the line: whose turn it is, or how the deal
and the match ended, in the same words as the table's text (:mod:`bot.views.outcome`),
from the table's model."""

from __future__ import annotations

from bot.model.table import TableView
from bot.views import outcome
from bot.views.i18n import Translator
from bot.views.outcome import SeatName


def status_lines(_: Translator, table: TableView, name: SeatName) -> list[str]:
    """``Anna to move``; at a deal's end who went out and who takes the deal;
    at the match's end who won it."""
    if table.deal_result is not None:
        said = [_("Deal %(n)d is over.", n=table.deal)]
        said += outcome.deal_end_lines(_, table.deal_result, name)
        if table.match_result is not None:
            said += outcome.match_end_lines(_, table.match_result, name)
        return said
    if table.turn is None:
        return []
    return [_("%(name)s to move", name=name(table.turn.seat))]
