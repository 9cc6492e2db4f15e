"""A hand's model for a position no game document holds (an engine state played in
a test, or a view made up for one): the model :func:`bot.model.hand.hand_view` builds,
at version 0 of a table named ``abcdefgh``."""

from __future__ import annotations

from bot.model.hand import HandView, LegalMove
from bot.model.parts import TileRef
from engine import View


def hand_model(view: View, table: str = "abcdefgh") -> HandView:
    """The model of the hand ``view`` (one seat's) holds."""
    assert view.seat is not None, "a hand is one seat's view"
    return HandView(
        version=0,
        table=table,
        seat=view.seat,
        deal=view.deal_number,
        counter=view.counter,
        tiles=tuple(TileRef.of(t) for t in view.hand),
        moves=tuple(LegalMove.of(m) for m in view.legal),
    )
