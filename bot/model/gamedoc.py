"""The game document: what the store keeps for a chat's game, as JSON.

A document holds the table (seats, host, options, table settings) and the
match as the replay format has it: variant, options, seed, every deal as it
was dealt, and every move in notation. The engine state is never stored; it is
rebuilt by replaying (see :mod:`bot.model.game_state`). That makes an export a copy of
the document's match part, and keeps stored games readable by later versions.

In the store a document lives in two parts (see :mod:`bot.storage.game`): its
*head* (everything but the deals and the moves, rewritten by every write) and
its deals and moves, which only grow and are appended one entry at a time.
:func:`head_json`, :func:`move_entry` and :func:`deal_entry` write the parts;
:func:`from_parts` reads them back. :func:`to_json` and :func:`from_json` are
the whole document in one JSON object: the chat's last game, kept for export.

``schema`` is written into every document; :func:`from_json` and
:func:`from_parts` refuse a document of any other with :class:`BadDocument`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Final

from bot.model.contract import ChatRef, UserRef
from engine import Fixture, Tile
from engine.replay import fixture_json
from engine.replay import replay_json as replay_document
from engine.state import OptionValue

SCHEMA: Final = 2
"""The version of the document's layout, written into every document: one of any other
version is not read."""

LOBBY: Final = "lobby"
RUNNING: Final = "running"
FINISHED: Final = "finished"
STOPPED: Final = "stopped"

RESIGNED: Final = "resigned"
TIMED_OUT: Final = "timeout"


class BadDocument(ValueError):
    """A stored document this version cannot read."""


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat: a person (``user``) or a computer (``computer`` = its level)."""

    user: UserRef | None = None
    computer: str | None = None
    lang: str = "en"  # the language of this player's private screens
    timeouts: int = 0  # turns in a row the timer ran out on
    away: str | None = None  # RESIGNED or TIMED_OUT: a computer plays for him
    unreachable: bool = False  # his private chat could not be reached
    pictures: bool = False  # his hand comes with a picture of his tiles

    @property
    def is_human(self) -> bool:
        return self.user is not None

    @property
    def present(self) -> bool:
        """A person who plays his seat himself."""
        return self.user is not None and self.away is None

    def holds(self, user: UserRef) -> bool:
        return self.user is not None and self.user.key == user.key


@dataclass(frozen=True, slots=True)
class TableSettings:
    timer: int  # seconds for a turn; 0 is off
    auto_start: bool  # start as soon as the table is full
    pings: bool  # nudge the player to move in his private chat
    lang: str  # the language of the chat's screens
    pictures: bool = False  # the table's picture follows every move
    pin: bool = False  # pin the table each time it is posted anew, where the bot may


@dataclass(frozen=True, slots=True)
class Due:
    """The game's next deadline: a paced computer move, a turn timeout, or the
    next deal. ``step`` is :attr:`GameDoc.step` when it was set."""

    kind: str  # "computer", "turn" or "deal"
    at: float
    step: int


@dataclass(frozen=True, slots=True)
class GameDoc:
    id: str
    chat: ChatRef
    status: str
    variant: str
    options: Mapping[str, OptionValue]  # as given; the engine fills in defaults
    seed: int
    seats: tuple[Seat, ...]
    host: str | None  # the user key of the lobby's host
    settings: TableSettings
    created: float
    deals: tuple[Fixture, ...] = ()  # every deal so far, as dealt
    deal_starts: tuple[int, ...] = ()  # the index in ``moves`` where each deal began
    moves: tuple[tuple[int, str], ...] = ()  # (seat, notation)
    timed_out: tuple[int, ...] = ()  # indices of moves made because a timer ran out
    due: Due | None = None
    pinged: int | None = None  # the seat whose turn ping is showing
    panel: str = "main"  # the lobby shows its main buttons or its settings
    ended_by: str | None = None  # who stopped or cancelled the game
    chat_title: str | None = None  # the chat's name when the table opened, if known
    extra: Mapping[str, Any] = field(default_factory=dict)  # kept as read, for newer fields

    @property
    def step(self) -> int:
        """Rises with every move and every deal: names one decision point."""
        return len(self.moves) + len(self.deals)

    @property
    def active(self) -> bool:
        return self.status in (LOBBY, RUNNING)

    def but(self, **changes: Any) -> GameDoc:
        """This document with ``changes``: each field copied as it is, the changed ones
        set anew. A move copies the document two or three times, and
        :func:`dataclasses.replace`, which checks every field and calls ``__init__`` with
        all twenty by name, took twice as long."""
        unknown = changes.keys() - _DOC_FIELDS
        if unknown:
            raise TypeError(f"GameDoc has no field {sorted(unknown)[0]!r}")
        copy = object.__new__(GameDoc)
        for name in _DOC_FIELDS:
            value = changes[name] if name in changes else getattr(self, name)
            object.__setattr__(copy, name, value)
        return copy

    def seat_of(self, user: UserRef) -> int | None:
        for number, seat in enumerate(self.seats):
            if seat.holds(user):
                return number
        return None

    def with_seat(self, number: int, seat: Seat) -> GameDoc:
        seats = self.seats[:number] + (seat,) + self.seats[number + 1 :]
        return self.but(seats=seats)

    def host_seat(self) -> Seat | None:
        return next((s for s in self.seats if s.user is not None and s.user.key == self.host), None)


_DOC_FIELDS: Final = tuple(f.name for f in fields(GameDoc))
"""The document's fields in their order, as :meth:`GameDoc.but` copies them."""


# -- JSON ------------------------------------------------------------------------


def user_json(user: UserRef) -> dict[str, Any]:
    return {
        "platform": user.platform,
        "user_id": user.user_id,
        "name": user.name,
        "lang": user.lang,
    }


def user_from(data: Mapping[str, Any]) -> UserRef:
    return UserRef(str(data["platform"]), str(data["user_id"]), str(data["name"]), data.get("lang"))


def fixture_from(data: Mapping[str, Any]) -> Fixture:
    hands = tuple(tuple(Tile.parse(t) for t in hand) for hand in data["hands"])
    boneyard = tuple(Tile.parse(t) for t in data["boneyard"])
    leader = data.get("leader")
    return Fixture(hands, boneyard, None if leader is None else int(leader))


def _seat_json(seat: Seat) -> dict[str, Any]:
    return {
        "user": user_json(seat.user) if seat.user is not None else None,
        "computer": seat.computer,
        "lang": seat.lang,
        "timeouts": seat.timeouts,
        "away": seat.away,
        "unreachable": seat.unreachable,
        "pictures": seat.pictures,
    }


def _seat_from(data: Mapping[str, Any]) -> Seat:
    user = data.get("user")
    return Seat(
        user=user_from(user) if user else None,
        computer=data.get("computer"),
        lang=str(data.get("lang") or "en"),
        timeouts=int(data.get("timeouts", 0)),
        away=data.get("away"),
        unreachable=bool(data.get("unreachable", False)),
        pictures=bool(data.get("pictures", False)),
    )


_KNOWN: Final = frozenset(
    [
        "schema",
        "id",
        "chat",
        "status",
        "variant",
        "options",
        "seed",
        "players",
        "creator",
        "settings",
        "created",
        "deals",
        "deal_starts",
        "moves",
        "timed_out",
        "due",
        "pinged",
        "panel",
        "ended_by",
        "turn_counter",
        "chat_title",
    ]
)


def head_json(doc: GameDoc, counter: int | None = None) -> dict[str, Any]:
    """The document without its deals and moves. ``counter`` (the engine's turn
    counter) is written for people reading the store; nothing reads it back."""
    data: dict[str, Any] = dict(doc.extra)
    data.update(
        schema=SCHEMA,
        id=doc.id,
        chat=doc.chat.key,
        status=doc.status,
        variant=doc.variant,
        options=dict(doc.options),
        seed=doc.seed,
        players=[_seat_json(s) for s in doc.seats],
        creator=doc.host,
        settings={
            "timer": doc.settings.timer,
            "auto_start": doc.settings.auto_start,
            "pings": doc.settings.pings,
            "lang": doc.settings.lang,
            "pictures": doc.settings.pictures,
            "pin": doc.settings.pin,
        },
        created=doc.created,
        deal_starts=list(doc.deal_starts),
        timed_out=list(doc.timed_out),
        due=None
        if doc.due is None
        else {"kind": doc.due.kind, "at": doc.due.at, "step": doc.due.step},
        pinged=doc.pinged,
        panel=doc.panel,
        ended_by=doc.ended_by,
        chat_title=doc.chat_title,
        turn_counter=counter,
    )
    return data


def to_json(doc: GameDoc, counter: int | None = None) -> dict[str, Any]:
    """The whole document in one JSON object."""
    data = head_json(doc, counter)
    data["deals"] = [fixture_json(f) for f in doc.deals]
    data["moves"] = [[seat, text] for seat, text in doc.moves]
    return data


def move_entry(move: tuple[int, str]) -> str:
    """One stored move: ``seat:notation``."""
    return f"{move[0]}:{move[1]}"


def deal_entry(fixture: Fixture) -> str:
    """One stored deal: its fixture as compact JSON."""
    return json.dumps(fixture_json(fixture), separators=(",", ":"))


def moves_from(entries: Sequence[str]) -> tuple[tuple[int, str], ...]:
    """Stored moves read back; :class:`BadDocument` for one this version did not write."""
    try:
        return tuple((int(seat), text) for seat, _, text in (e.partition(":") for e in entries))
    except ValueError as exc:
        raise BadDocument(f"unreadable stored move: {exc}") from exc


def deals_from(entries: Sequence[str]) -> tuple[Fixture, ...]:
    """Stored deals read back; :class:`BadDocument` for one this version cannot read."""
    try:
        return tuple(fixture_from(json.loads(e)) for e in entries)
    except (KeyError, TypeError, ValueError) as exc:
        raise BadDocument(f"unreadable stored deal: {exc}") from exc


def _checked(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """``data``, if it is of :data:`SCHEMA`; else :class:`BadDocument`."""
    if data.get("schema") != SCHEMA:
        raise BadDocument(
            f"game document schema {data.get('schema')!r} is not one this version reads"
        )
    return data


def from_json(data: Mapping[str, Any]) -> GameDoc:
    """Read a whole stored document; :class:`BadDocument` if this version cannot."""
    current = _checked(data)
    try:
        deals = tuple(fixture_from(f) for f in current.get("deals") or ())
        moves = tuple((int(seat), str(text)) for seat, text in current.get("moves") or ())
    except (KeyError, TypeError, ValueError) as exc:
        raise BadDocument(f"unreadable game document: {exc}") from exc
    head = {k: v for k, v in current.items() if k not in ("deals", "moves")}
    return from_parts(head, deals, moves)


def from_parts(
    head: Mapping[str, Any],
    deals: tuple[Fixture, ...],
    moves: tuple[tuple[int, str], ...],
) -> GameDoc:
    """A document from its head and its deals and moves as read back."""
    data = _checked(head)
    try:
        settings = data["settings"]
        due = data.get("due")
        return GameDoc(
            id=str(data["id"]),
            chat=ChatRef.from_key(str(data["chat"])),
            status=str(data["status"]),
            variant=str(data["variant"]),
            options=dict(data.get("options") or {}),
            seed=int(data["seed"]),
            seats=tuple(_seat_from(s) for s in data["players"]),
            host=data.get("creator"),
            settings=TableSettings(
                timer=int(settings["timer"]),
                auto_start=bool(settings["auto_start"]),
                pings=bool(settings["pings"]),
                lang=str(settings.get("lang") or "en"),
                pictures=bool(settings.get("pictures", False)),
                pin=bool(settings.get("pin", False)),
            ),
            created=float(data["created"]),
            deals=deals,
            deal_starts=tuple(int(i) for i in data.get("deal_starts") or ()),
            moves=moves,
            timed_out=tuple(int(i) for i in data.get("timed_out") or ()),
            due=None if not due else Due(str(due["kind"]), float(due["at"]), int(due["step"])),
            pinged=data.get("pinged"),
            panel=str(data.get("panel") or "main"),
            ended_by=data.get("ended_by"),
            chat_title=_optional_text(data.get("chat_title")),
            extra={k: v for k, v in data.items() if k not in _KNOWN},
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise BadDocument(f"unreadable game document: {exc}") from exc


def _optional_text(value: object) -> str | None:
    return None if value is None else str(value)


# -- export ------------------------------------------------------------------------


def replay_json(doc: GameDoc, options: Mapping[str, OptionValue], deals: int) -> dict[str, Any]:
    """The match as a replay file, cut after its first ``deals`` deals.

    ``options`` are the engine's resolved options, so the file does not depend
    on later defaults; every deal is written as a fixture, so it does not
    depend on the shuffle of a later version either. The seed goes in only once
    the match has ended: every deal still to come is dealt from it.
    """
    end = doc.deal_starts[deals] if deals < len(doc.deal_starts) else len(doc.moves)
    seed = doc.seed if doc.status in (FINISHED, STOPPED) else None
    return replay_document(
        doc.variant, len(doc.seats), options, seed, doc.deals[:deals], doc.moves[:end]
    )
