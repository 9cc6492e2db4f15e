"""Engine state from a game document, by replaying it, with an in-process cache.

A document's moves and deals only ever grow (every write is a compare-and-set
on the previous version), so a state built for a document that was stored is
a prefix of every later version of that game: the cache continues from it and
a press usually replays nothing. Only states of stored documents go into the
cache; a state computed for a write that lost its compare-and-set never does.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Final

import engine
from bot.gamedoc import GameDoc
from engine import State

CACHE_SIZE: Final = 512


def build_state(doc: GameDoc, start: State[Any] | None = None) -> State[Any]:
    """Replay ``doc`` (from ``start``, a state of an earlier version, if given)."""
    if not doc.deals:
        raise ValueError(f"game {doc.id} has not been dealt")
    state = start
    if state is None:
        state = engine.new_match(doc.variant, len(doc.seats), doc.options, doc.seed, doc.deals[0])
    # The engine's counter is the number of moves applied in the match.
    for seat, text in doc.moves[state.counter :]:
        state = _deal_pending(state, doc)
        state, _ = engine.apply(state, engine.parse_move(text), seat)
    return _deal_pending(state, doc)


def _deal_pending(state: State[Any], doc: GameDoc) -> State[Any]:
    while state.deal_over and not state.match_over and state.deal_number < len(doc.deals):
        state = engine.next_deal(state, doc.deals[state.deal_number])
    return state


class StateCache:
    """The last state built per game, keyed by how far into the game it is."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self._size = size
        self._states: OrderedDict[str, State[Any]] = OrderedDict()

    def state(self, doc: GameDoc) -> State[Any]:
        cached = self._states.get(doc.id)
        if cached is not None and not _fits(cached, doc):
            cached = None
        return build_state(doc, cached)

    def remember(self, doc: GameDoc, state: State[Any]) -> None:
        """Keep ``state`` as the state of the stored ``doc``."""
        self._states[doc.id] = state
        self._states.move_to_end(doc.id)
        while len(self._states) > self._size:
            self._states.popitem(last=False)

    def forget(self, game_id: str) -> None:
        self._states.pop(game_id, None)


def _fits(state: State[Any], doc: GameDoc) -> bool:
    """``state`` is at or before the point ``doc`` has reached."""
    return state.deal_number <= len(doc.deals) and state.counter <= len(doc.moves)
