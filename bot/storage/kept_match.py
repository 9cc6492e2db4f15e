"""A finished match as a chat keeps it for ``history`` (see :mod:`bot.table.history`), and the
same match with one person taken out of it, as ``forget`` leaves it: a computer in his
seat, under no name, and his user key nowhere."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from bot.model.contract import UserRef
from bot.model.gamedoc import BadDocument, GameDoc, Seat, from_json, to_json
from bot.storage.documents import load_doc, pack
from bot.views.i18n import translator
from bot.views.table_screen import seat_name


class KeptPlayer(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    user: str | None = None  # the person's user key; None for a computer


class KeptMatch(BaseModel):
    """A finished match as a chat keeps it."""

    model_config = ConfigDict(frozen=True)

    id: str
    ended: float
    variant: str
    options: list[str]  # the options' values as the engine resolved them
    players: list[KeptPlayer]
    scores: list[int]
    winners: list[int]
    game: str  # the whole game document, packed

    def doc(self) -> GameDoc:
        """The whole game; :class:`BadDocument` if this version cannot read it."""
        try:
            return from_json(load_doc(self.game))
        except (ValueError, KeyError, TypeError) as exc:
            raise BadDocument(str(exc)) from exc


def unseated(doc: GameDoc, user: UserRef, computer: str) -> GameDoc | None:
    """``doc`` with a ``computer`` of that level in the seat of ``user``, who no longer
    hosts it (the next person does); ``None`` if he holds no seat in it."""
    seat = doc.seat_of(user)
    if seat is None:
        return None
    doc = doc.with_seat(seat, Seat(computer=computer, lang=doc.seats[seat].lang))
    if doc.host == user.key:
        heir = next((s.user for s in doc.seats if s.user is not None), None)
        doc = doc.but(host=heir.key if heir is not None else None)
    return doc


def without(match: KeptMatch, user: UserRef, computer: str) -> KeptMatch | None:
    """``match`` with a computer where ``user`` sat, in the game and in the list of its
    players, the computers named as the table names them then (in the chat's language);
    its scores and winners stay, and so does its replay. ``None`` if he did not play it;
    :class:`BadDocument` if this version cannot read its game."""
    if not any(p.user == user.key for p in match.players):
        return None
    doc = unseated(match.doc(), user, computer)
    if doc is None:
        raise BadDocument(f"the players of match {match.id} do not match its game")
    _ = translator(doc.settings.lang)
    players = [
        KeptPlayer(name=seat_name(_, doc, n), user=None) if seat.user is None else match.players[n]
        for n, seat in enumerate(doc.seats)
    ]
    return match.model_copy(update={"players": players, "game": pack(to_json(doc))})
