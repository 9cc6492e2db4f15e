"""What a table picture says under the line: whose turn it is, or how the deal
and the match ended, in the same words as the table's text (:mod:`bot.views.outcome`)."""

from __future__ import annotations

from typing import Any

from bot.views import outcome
from bot.views.i18n import Translator
from bot.views.outcome import SeatName
from engine import State


def status_lines(_: Translator, state: State[Any], name: SeatName) -> list[str]:
    """``Anna to move``; at a deal's end who went out and who takes the deal;
    at the match's end who won it."""
    if state.deal_over and state.result is not None:
        said = [_("Deal %(n)d is over.", n=state.deal_number)]
        said += outcome.deal_end_lines(_, state, name)
        if state.match_over:
            said += outcome.match_end_lines(_, state, name)
        return said
    if state.turn is None:
        return []
    return [_("%(name)s to move", name=name(state.turn))]
