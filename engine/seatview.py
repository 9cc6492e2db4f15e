"""Building a seat's view: the part every variant shares."""

from __future__ import annotations

from typing import Any

from engine.moves import Move
from engine.public import Public
from engine.state import State, View


def seat_view(
    state: State[Any], seat: int | None, legal: tuple[Move, ...], details: Public
) -> View:
    """Own hand, the others' counts, the table, and moves only on one's turn; for no
    seat (a spectator), the counts and the table alone."""
    return View(
        variant=state.variant,
        seat=seat,
        players=state.players,
        options=dict(state.options),  # a plain dict: a view travels to worker processes
        deal_number=state.deal_number,
        hand=state.hands[seat] if seat is not None else (),
        hand_counts=tuple(len(h) for h in state.hands),
        line=state.line,
        ends=state.ends,
        boneyard=len(state.boneyard),
        turn=state.turn,
        counter=state.counter,
        legal=legal if seat is not None and state.turn == seat else (),
        match_scores=state.match_scores,
        result=state.result,
        deal_over=state.deal_over,
        match_over=state.match_over,
        winners=state.winners,
        revealed=state.hands if state.deal_over else None,
        details=details,
    )
