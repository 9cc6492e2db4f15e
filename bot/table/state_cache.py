"""An in-process cache of the games a process plays, each with its engine state.

A document's moves and deals only ever grow (every write is a compare-and-set
on the previous version), so a state built for a document that was stored is
a prefix of every later version of that game: the cache continues from it and
a press usually replays nothing. Only games as stored go into the cache; a
game computed for a write that lost its compare-and-set never does.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Final

from bot.model.decision import Game

CACHE_SIZE: Final = 2048
"""Games a process keeps at hand (each a document and an engine state, a few kilobytes):
more than the games it plays at once, so a busy process seldom reads a game whole."""


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
