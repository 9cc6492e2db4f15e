"""What everybody at a table may see, as one typed model: :class:`TableView`.

It is built from the engine's view for no seat (:func:`engine.public_view`), which
holds no hand while a deal is played, and it has no field that could hold a hand's
tile or the boneyard's: the tiles it names are those on the line, in closed caravans
and the one Three Guns sets aside, which every seat sees. ``version`` is the game's
:attr:`~bot.model.gamedoc.GameDoc.step`, which rises with every move and every deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Final, Literal, NamedTuple

from pydantic import Field

import engine
from bot.model.parts import Frozen, GameParts, LineTile, OpenEnd, Side, game_parts
from engine import View

if TYPE_CHECKING:
    # Annotations only: the game document imports the contract, which holds these models.
    from bot.model.gamedoc import GameDoc

MODEL_VERSION: Final = 1
"""The version of the model's layout, written into every :class:`TableView`."""


class SeatView(Frozen):
    """One seat as everybody sees it: who holds it, how many tiles he holds, his
    points this deal (once it is over) and in all, and his marks."""

    seat: int = Field(ge=0)
    name: str | None  # the person's name; None for a computer
    computer: int | None  # a computer's number among the table's computers, from 1
    away: bool  # a computer plays for the person holding the seat
    tiles: int = Field(ge=0)
    deal_points: int | None
    total: int
    goat: bool
    tokens: int | None  # Three Guns' tokens held; None elsewhere


class Turn(Frozen):
    """Whose turn it is, and when it runs out if the timer is on."""

    seat: int = Field(ge=0)
    deadline: float | None


class DealOutcome(Frozen):
    """How a finished deal ended and what it wrote for each seat."""

    deal: int
    end: Literal["domino", "block"]
    went_out: int | None
    winner: int | None
    points: tuple[int, ...]
    unwritten: tuple[int, ...]  # points a Kozel sheet not yet open did not take


class MatchOutcome(Frozen):
    """Who won the match, and who lost it as the goat."""

    winners: tuple[int, ...]
    goats: tuple[int, ...]


class TableView(Frozen):
    """The table of a game as every seat and any spectator may see it."""

    model: Literal[1] = 1  # MODEL_VERSION
    version: int = Field(ge=0)
    table: str
    game: Literal["tyaga", "kozel", "three_guns", "baghdad"]
    status: Literal["lobby", "running", "finished", "stopped"]
    lower_wins: bool
    unit: Literal["points", "tokens"]
    deal: int = Field(ge=1)
    line: tuple[LineTile, ...]
    ends: tuple[OpenEnd, OpenEnd] | None
    boneyard: int = Field(ge=0)
    seats: tuple[SeatView, ...]
    teams: tuple[tuple[int, int], ...]
    turn: Turn | None
    next_deal_at: float | None
    parts: GameParts
    deal_result: DealOutcome | None
    match_result: MatchOutcome | None


def table_view(doc: GameDoc, view: View) -> TableView:
    """The model of ``doc``'s table, from ``view``, the engine's view for no seat."""
    due = doc.due
    deadline = due.at if due is not None and due.kind == "turn" else None
    next_deal_at = due.at if due is not None and due.kind == "deal" else None
    held = []
    computers = 0
    for seat in doc.seats:
        if seat.user is None:
            computers += 1
            held.append(_Holder(None, computers, False))
        else:
            held.append(_Holder(seat.user.name, None, seat.away is not None))
    return _table(view, doc.step, doc.id, _status(doc.status), held, deadline, next_deal_at)


def position_table(view: View, names: Sequence[str]) -> TableView:
    """The model of a position that is no stored game (a replay file's, a sample
    picture's), from the engine's view for no seat: every seat a person named by
    ``names``, the engine's move counter as the version, no timer."""
    status: Literal["running", "finished"] = "finished" if view.match_over else "running"
    held = [_Holder(name, None, False) for name in names]
    return _table(view, view.counter, "", status, held, None, None)


class _Holder(NamedTuple):
    """Who holds a seat, as :class:`SeatView` names him."""

    name: str | None
    computer: int | None
    away: bool


def _table(
    view: View,
    version: int,
    table: str,
    status: Literal["lobby", "running", "finished", "stopped"],
    held: Sequence[_Holder],
    deadline: float | None,
    next_deal_at: float | None,
) -> TableView:
    if view.seat is not None:
        raise ValueError("the table is built from the view for no seat")
    game = engine.get_variant(view.variant)
    parts = game_parts(view.details)
    goats = game.goats(view)
    turn = None
    if view.turn is not None and not view.deal_over:
        turn = _turn(view.turn, deadline)
    return TableView(
        version=version,
        table=table,
        game=parts.game,
        status=status,
        lower_wins=game.lower_wins,
        unit="tokens" if game.unit is engine.Unit.TOKENS else "points",
        deal=view.deal_number,
        line=tuple(LineTile.of(i, p) for i, p in enumerate(view.line)),
        ends=_ends(view),
        boneyard=view.boneyard,
        seats=_seats(view, held, goats),
        teams=game.teams(view.options),
        turn=turn,
        next_deal_at=next_deal_at,
        parts=parts,
        deal_result=deal_outcome(view),
        match_result=match_outcome(view),
    )


def match_outcome(view: View) -> MatchOutcome | None:
    """Who won the match of ``view`` and who is its goat, once it is over."""
    if not view.match_over:
        return None
    return MatchOutcome(winners=view.winners, goats=engine.get_variant(view.variant).goats(view))


def _status(status: str) -> Literal["lobby", "running", "finished", "stopped"]:
    for known in ("lobby", "running", "finished", "stopped"):
        if status == known:
            return known
    raise ValueError(f"unknown game status {status!r}")


def _ends(view: View) -> tuple[OpenEnd, OpenEnd] | None:
    if view.ends is None:
        return None
    details = view.details
    if isinstance(details, engine.GunsPublic):
        shows, accepts = details.shows, details.accepts
    else:
        shows = ((view.ends[0],), (view.ends[1],))
        accepts = shows
    return (_open_end("L", shows[0], accepts[0]), _open_end("R", shows[1], accepts[1]))


@lru_cache(maxsize=1024)
def _turn(seat: int, deadline: float | None) -> Turn:
    """Whose turn it is, made once for each seat and deadline, as :func:`_seat` is."""
    return Turn(seat=seat, deadline=deadline)


@lru_cache(maxsize=1024)
def _open_end(side: Side, shows: tuple[int, ...], accepts: tuple[int, ...]) -> OpenEnd:
    """An open end's model, made once, as :func:`_seat` is: ends recur all match long."""
    return OpenEnd(side=side, shows=shows, accepts=accepts)


def _seats(view: View, held: Sequence[_Holder], goats: tuple[int, ...]) -> tuple[SeatView, ...]:
    details = view.details
    tokens = details.tokens if isinstance(details, engine.GunsPublic) else None
    result = view.result if view.deal_over else None
    return tuple(
        _seat(
            number,
            holder,
            view.hand_counts[number],
            None if result is None else result.scores[number],
            view.match_scores[number],
            number in goats,
            None if tokens is None else tokens[number],
        )
        for number, holder in enumerate(held)
    )


@lru_cache(maxsize=4096)
def _seat(
    number: int,
    holder: _Holder,
    tiles: int,
    deal_points: int | None,
    total: int,
    goat: bool,
    tokens: int | None,
) -> SeatView:
    """One seat's model, made once: the table's model is built on every move, and every
    seat but the one that moved is as it was (a model is frozen, so the tables share it).
    Validating a seat's nine fields anew cost five times the look-up."""
    return SeatView(
        seat=number,
        name=holder.name,
        computer=holder.computer,
        away=holder.away,
        tiles=tiles,
        deal_points=deal_points,
        total=total,
        goat=goat,
        tokens=tokens,
    )


def deal_outcome(view: View) -> DealOutcome | None:
    """How the deal of ``view`` ended, once it has (a replay's story says it too)."""
    result = view.result
    if not view.deal_over or result is None:
        return None
    return DealOutcome(
        deal=view.deal_number,
        end="domino" if result.end is engine.DealEnd.DOMINO else "block",
        went_out=engine.went_out(view),
        winner=result.winner,
        points=result.scores,
        unwritten=engine.get_variant(view.variant).unwritten(view),
    )
