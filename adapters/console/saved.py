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

from bot.model.contract import ChatRef
from bot.model.gamedoc import BadDocument, GameDoc, from_json
from bot.storage.store import Store
from bot.table.current_screens import Snapshot, open_game
from bot.views.catalog import variant as variant_info
from bot.views.i18n import Translator, translator
from engine import DominoError

PLATFORM: Final = "con"
CHAT: Final = ChatRef(PLATFORM, "local")
TABLES: Final = 9  # at most this many matches wait at once


def table_chat(number: int) -> ChatRef:
    """The terminal's table ``number`` (1 is ``con:local``, the one a first match takes)."""
    return CHAT if number == 1 else ChatRef(PLATFORM, CHAT.chat_id, str(number))


ALL_TABLES: Final = tuple(table_chat(number) for number in range(1, TABLES + 1))
"""Every table of the terminal, whose boards its lookups read as one."""


@dataclass(frozen=True, slots=True)
class Role:
    """Who sits in a seat, named only when shown, in the language of the screen that
    shows it: a person at the keyboard by his number (``You`` when alone), or a
    computer by its number among the computers."""

    person: int | None = None  # 1, 2 … for the people at the keyboard
    computer: int | None = None  # 1, 2 … for the computers
    away: bool = False  # a person whose seat a computer plays

    def name(self, _: Translator, humans: int) -> str:
        if self.person is None:
            return _("Computer %(n)d", n=self.computer or 0)
        named = _("You") if humans == 1 else _("Player %(n)d", n=self.person)
        return _("%(name)s (computer)", name=named) if self.away else named


@dataclass(frozen=True, slots=True)
class Saved:
    """A match waiting in one of the terminal's tables."""

    chat: ChatRef
    snapshot: Snapshot
    variant: str
    roles: tuple[Role, ...]  # the seats, in seat order
    humans: int
    created: float
    lang: str = "en"  # the language of its screens, which the table goes on speaking

    @property
    def players(self) -> int:
        return len(self.roles)

    def title(self, lang: str = "en") -> str:
        """``Kozel, 4 players (You, Computer 1, …), 1 Dec 21:40``, in ``lang``, the
        seats' names included, whatever language the match began in."""
        _ = translator(lang)
        try:
            game = variant_info(self.variant, _.lang).title
        except DominoError:
            game = self.variant
        names = ", ".join(role.name(_, self.humans) for role in self.roles)
        when = format_datetime(datetime.fromtimestamp(self.created), "d MMM HH:mm", locale=_.lang)
        return _.ngettext(
            "%(game)s, %(n)d player (%(names)s), %(when)s",
            "%(game)s, %(n)d players (%(names)s), %(when)s",
            self.players,
            game=game,
            names=names,
            when=when,
        )


def seat_roles(doc: GameDoc) -> tuple[Role, ...]:
    """The roles of a terminal match's seats: its people are the keyboard's users,
    whose ids are their numbers (see :func:`~adapters.console.seating.keyboard_users`)."""
    roles = []
    computers = 0
    for seat in doc.seats:
        if seat.user is None:
            computers += 1
            roles.append(Role(computer=computers))
        else:
            number = int(seat.user.user_id) if seat.user.user_id.isdigit() else 1
            roles.append(Role(person=number, away=seat.away is not None))
    return tuple(roles)


async def saved_matches(store: Store) -> list[Saved]:
    """The matches waiting in the terminal's tables, newest first (open lobbies,
    which a table that failed to start may leave, are not matches)."""
    found: list[Saved] = []
    for number in range(1, TABLES + 1):
        chat = table_chat(number)
        snapshot = await open_game(store, chat, drawn=True)
        stored = await store.load(chat) if snapshot is not None else None
        if snapshot is None or snapshot.status != "running" or stored is None:
            continue
        try:
            doc = from_json(stored.doc)
        except BadDocument:
            continue
        humans = sum(1 for seat in doc.seats if seat.user is not None)
        roles = seat_roles(doc)
        lang = doc.settings.lang
        found.append(Saved(chat, snapshot, doc.variant, roles, humans, doc.created, lang))
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
