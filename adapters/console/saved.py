"""Saved terminal matches: each in a table of its own, listed by game, players and date.

The core keeps one open game per chat, so the terminal has a few chats of its
own, ``con:local`` and ``con:local:2`` … ``con:local:9``: a new match takes the
first free one and never touches the others. A match left by ``quit``, Ctrl-C
or the end of input stays in its table until it is continued to its end or
discarded on purpose (the ``discard`` word at the prompt).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Final

from babel.dates import format_datetime

from bot.catalog import variant as variant_info
from bot.contract import ChatRef
from bot.gamedoc import BadDocument, from_json
from bot.i18n import translator
from bot.render import seat_label
from bot.snapshot import Snapshot, open_game
from bot.store import Store
from engine import DominoError

PLATFORM: Final = "con"
CHAT: Final = ChatRef(PLATFORM, "local")
TABLES: Final = 9  # at most this many matches wait at once


def table_chat(number: int) -> ChatRef:
    """The terminal's table ``number`` (1 is ``con:local``, the one a first match takes)."""
    return CHAT if number == 1 else ChatRef(PLATFORM, CHAT.chat_id, str(number))


@dataclass(frozen=True, slots=True)
class Saved:
    """A match waiting in one of the terminal's tables."""

    chat: ChatRef
    snapshot: Snapshot
    variant: str
    players: tuple[str, ...]  # the seats' names, in seat order
    humans: int
    created: float

    def title(self, lang: str = "en") -> str:
        """``Kozel, 4 players (You, Computer 1, …), 1 Dec 21:40``, in ``lang``."""
        _ = translator(lang)
        try:
            game = variant_info(self.variant, _.lang).title
        except DominoError:
            game = self.variant
        names = ", ".join(self.players)
        when = format_datetime(datetime.fromtimestamp(self.created), "d MMM HH:mm", locale=_.lang)
        return _.ngettext(
            "%(game)s, %(n)d player (%(names)s), %(when)s",
            "%(game)s, %(n)d players (%(names)s), %(when)s",
            len(self.players),
            game=game,
            names=names,
            when=when,
        )


async def saved_matches(store: Store, now: float) -> list[Saved]:
    """The matches waiting in the terminal's tables, newest first (open lobbies,
    which a table that failed to start may leave, are not matches)."""
    found: list[Saved] = []
    for number in range(1, TABLES + 1):
        chat = table_chat(number)
        snapshot = await open_game(store, chat, now)
        stored = await store.load(chat) if snapshot is not None else None
        if snapshot is None or snapshot.status != "running" or stored is None:
            continue
        try:
            doc = from_json(stored.doc)
        except BadDocument:
            continue
        _ = translator(doc.settings.lang)
        names = tuple(seat_label(_, doc, seat) for seat in range(len(doc.seats)))
        humans = sum(1 for seat in doc.seats if seat.user is not None)
        found.append(Saved(chat, snapshot, doc.variant, names, humans, doc.created))
    found.sort(key=lambda saved: saved.created, reverse=True)
    return found


async def free_table(store: Store) -> tuple[ChatRef, bool] | None:
    """The first table with no match in it, and whether an open lobby (left by a
    table that could not start) must be cancelled first; ``None`` when all are taken."""
    for number in range(1, TABLES + 1):
        chat = table_chat(number)
        stored = await store.load(chat)
        if stored is None:
            return chat, False
        try:
            doc = from_json(stored.doc)
        except BadDocument:
            continue
        if not doc.active:
            return chat, False
        if doc.status != "running":
            return chat, True
    return None
