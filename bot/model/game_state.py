"""The engine state of a stored game, by replaying its document through the engine:
at once (:func:`build_state`, from an earlier state of the same game where one is at
hand) or step by step (:func:`replayed`, for what happened at each version)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

import engine
from engine import Event, State

if TYPE_CHECKING:
    # Annotations only: the game document imports the contract, which holds these models.
    from bot.model.gamedoc import GameDoc


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


class Played(NamedTuple):
    """One step of a replayed game: a deal dealt (``move`` None, no events) or a move
    applied (its index in the document's moves, and the events it caused). ``version``
    is the document's :attr:`~bot.model.gamedoc.GameDoc.step` once the step is made."""

    version: int
    move: int | None
    events: tuple[Event, ...]
    state: State[Any]


def replayed(doc: GameDoc) -> Iterator[Played]:
    """Every step of ``doc`` from its first deal, as :func:`build_state` replays it."""
    if not doc.deals:
        raise ValueError(f"game {doc.id} has not been dealt")
    state = engine.new_match(doc.variant, len(doc.seats), doc.options, doc.seed, doc.deals[0])
    yield Played(1, None, (), state)
    for index, (seat, text) in enumerate(doc.moves):
        for dealt in _dealt(state, doc, index):
            state = dealt.state
            yield dealt
        state, events = engine.apply(state, engine.parse_move(text), seat)
        yield Played(index + 1 + state.deal_number, index, events, state)
    yield from _dealt(state, doc, len(doc.moves))


def _dealt(state: State[Any], doc: GameDoc, moves: int) -> Iterator[Played]:
    """The deals dealt after ``state`` once ``moves`` moves were made, before the next."""
    while state.deal_over and not state.match_over and state.deal_number < len(doc.deals):
        state = engine.next_deal(state, doc.deals[state.deal_number])
        yield Played(moves + state.deal_number, None, (), state)


def _deal_pending(state: State[Any], doc: GameDoc) -> State[Any]:
    while state.deal_over and not state.match_over and state.deal_number < len(doc.deals):
        state = engine.next_deal(state, doc.deals[state.deal_number])
    return state


def fits(state: State[Any], doc: GameDoc) -> bool:
    """``state`` is at or before the point ``doc`` has reached."""
    return state.deal_number <= len(doc.deals) and state.counter <= len(doc.moves)


def deal_start_state(doc: GameDoc, start: State[Any] | None = None) -> State[Any]:
    """The state just after the document's last deal was dealt (from ``start``, an
    earlier state of the game, where it is not past that point)."""
    first = doc.deal_starts[-1] if doc.deal_starts else 0
    cut = doc.but(moves=doc.moves[:first])
    if start is not None and not fits(start, cut):
        start = None
    return build_state(cut, start)
