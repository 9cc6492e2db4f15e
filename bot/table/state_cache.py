"""Engine state from a game document, by replaying it, with an in-process cache.

A document's moves and deals only ever grow (every write is a compare-and-set
on the previous version), so a state built for a document that was stored is
a prefix of every later version of that game: the cache continues from it and
a press usually replays nothing. Only games as stored go into the cache; a
game computed for a write that lost its compare-and-set never does.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from typing import Any, Final, NamedTuple

import engine
from bot.model.decision import Game
from bot.model.gamedoc import GameDoc
from engine import Event, State

CACHE_SIZE: Final = 2048
"""Games a process keeps at hand (each a document and an engine state, a few kilobytes):
more than the games it plays at once, so a busy process seldom reads a game whole."""


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


class GameCache:
    """The last stored game seen per chat (its document, state and version), so that a
    read fetches only what was added since and the state replays only that."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self._size = size
        self._games: OrderedDict[str, Game] = OrderedDict()

    def get(self, chat_key: str) -> Game | None:
        return self._games.get(chat_key)

    def remember(self, chat_key: str, game: Game) -> None:
        self._games[chat_key] = game
        self._games.move_to_end(chat_key)
        while len(self._games) > self._size:
            self._games.popitem(last=False)

    def forget(self, chat_key: str) -> None:
        self._games.pop(chat_key, None)


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
