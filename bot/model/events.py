"""What happened at a table, as typed events: a tile played at an end, n tiles drawn,
a pass, a caravan stolen, a token taken, a player going out, a block, a deal's points,
the match's end.

They are read from the moves the game document stores, replayed through the engine
(:func:`bot.model.game_state.replayed`), so they say only what the engine told every seat: a
draw says how many tiles, never which. Each carries the ``version`` (the document's
step) it happened at; :func:`events_since` gives those after a version the caller has.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import ConfigDict, Field, RootModel

import engine
from bot.model.game_state import replayed
from bot.model.parts import Frozen, Side, TileRef
from engine import Event, Kind, State

if TYPE_CHECKING:
    # Annotations only: the game document imports the contract, which holds these models.
    from bot.model.gamedoc import GameDoc


class Happened(Frozen):
    """What every event says: when (the version it happened at)."""

    version: int = Field(ge=1)


class DealStarted(Happened):
    kind: Literal["deal_started"] = "deal_started"
    deal: int = Field(ge=1)


class Moved(Happened):
    """A move of a seat; ``timed_out`` when the timer made it for him."""

    seat: int = Field(ge=0)
    timed_out: bool = False


class Played(Moved):
    """A tile played at an end (``end`` None for the line's first tile)."""

    kind: Literal["played"] = "played"
    tile: TileRef
    end: Side | None
    across: bool = False


class Drew(Moved):
    """Tiles drawn from the boneyard, a run of draws told as one: how many, not which."""

    kind: Literal["drew"] = "drew"
    count: int = Field(ge=1)


class Passed(Moved):
    kind: Literal["passed"] = "passed"


class EndedTurn(Moved):
    """Thief of Baghdad: the turn ended by saying done."""

    kind: Literal["ended_turn"] = "ended_turn"


class StoleCaravan(Moved):
    kind: Literal["stole_caravan"] = "stole_caravan"
    thief: TileRef
    camels: int


class RecoveredCaravan(Moved):
    kind: Literal["recovered_caravan"] = "recovered_caravan"
    handcuffs: tuple[TileRef, TileRef]
    camels: int


class TookToken(Happened):
    """Three Guns: the deal's winner took a token from the pool (``source`` None) or
    from a seat; ``pool`` is what the pool holds after."""

    kind: Literal["took_token"] = "took_token"
    seat: int = Field(ge=0)
    source: int | None
    pool: int


class Penalty(Happened):
    """Thief of Baghdad: ``seat`` scored ``points`` because ``source`` laid no camel."""

    kind: Literal["penalty"] = "penalty"
    seat: int = Field(ge=0)
    points: int
    source: int


class WentOut(Happened):
    kind: Literal["went_out"] = "went_out"
    seat: int = Field(ge=0)


class Blocked(Happened):
    kind: Literal["blocked"] = "blocked"


class DealScored(Happened):
    """A deal's points: who takes it (None for nobody) and what it wrote for each seat."""

    kind: Literal["deal_scored"] = "deal_scored"
    deal: int = Field(ge=1)
    winner: int | None
    points: tuple[int, ...]


class MatchEnded(Happened):
    kind: Literal["match_ended"] = "match_ended"
    winners: tuple[int, ...]
    goats: tuple[int, ...]


TableEvent = Annotated[
    DealStarted
    | Played
    | Drew
    | Passed
    | EndedTurn
    | StoleCaravan
    | RecoveredCaravan
    | TookToken
    | Penalty
    | WentOut
    | Blocked
    | DealScored
    | MatchEnded,
    Field(discriminator="kind"),
]
"""Any event at a table."""


class Events(RootModel[tuple[TableEvent, ...]]):
    """A list of events, as JSON reads and writes it (``Events(found).model_dump_json()``,
    ``Events.model_validate_json(text).root``)."""

    model_config = ConfigDict(frozen=True)


def events_since(doc: GameDoc, since: int = 0) -> tuple[TableEvent, ...]:
    """The events of ``doc`` after version ``since``, oldest first."""
    told: list[TableEvent] = []
    for step in replayed(doc):
        if step.version <= since:
            continue
        if step.move is None:
            told.append(DealStarted(version=step.version, deal=step.state.deal_number))
            continue
        timed_out = step.move in doc.timed_out
        for event in _typed(step.version, step.events, step.state, timed_out):
            _tell(told, event)
    return tuple(told)


def _tell(told: list[TableEvent], event: TableEvent) -> None:
    """Add ``event``, a draw following the same seat's draw joined to it."""
    last = told[-1] if told else None
    if (
        isinstance(event, Drew)
        and isinstance(last, Drew)
        and last.seat == event.seat
        and not (last.timed_out or event.timed_out)
    ):
        told[-1] = Drew(version=event.version, seat=event.seat, count=last.count + event.count)
        return
    told.append(event)


def _typed(
    version: int, events: tuple[Event, ...], state: State[Any], timed_out: bool
) -> Iterator[TableEvent]:
    """The typed events of one applied move; ``state`` is the state after it."""
    for event in events:
        info = dict(event.info)
        seat = event.seat
        if event.kind == "move" and event.move is not None and seat is not None:
            yield from _moved(version, seat, event.move, timed_out)
        elif event.kind == "steal" and seat is not None and event.tile is not None:
            yield StoleCaravan(
                version=version,
                seat=seat,
                timed_out=timed_out,
                thief=TileRef.of(event.tile),
                camels=_int(info["camels"]),
            )
        elif event.kind == "recover" and seat is not None and event.move is not None:
            first, second = event.move.tile, event.move.second
            assert first is not None and second is not None
            yield RecoveredCaravan(
                version=version,
                seat=seat,
                timed_out=timed_out,
                handcuffs=(TileRef.of(first), TileRef.of(second)),
                camels=_int(info["camels"]),
            )
        elif event.kind == "token" and seat is not None:
            source = info["from"]
            yield TookToken(
                version=version,
                seat=seat,
                source=None if source is None else _int(source),
                pool=_int(info["pool"]),
            )
        elif event.kind == "penalty" and seat is not None:
            yield Penalty(
                version=version,
                seat=seat,
                points=_int(info["points"]),
                source=_int(info["from"]),
            )
        elif event.kind == "deal_over":
            yield from _deal_over(version, state)
        elif event.kind == "match_over":
            view = engine.public_view(state)
            goats = engine.get_variant(state.variant).goats(view)
            yield MatchEnded(version=version, winners=state.winners, goats=goats)


def _moved(version: int, seat: int, move: engine.Move, timed_out: bool) -> Iterator[TableEvent]:
    """A move as the table saw it; Kozel's two doubles at once are two tiles played.
    A steal or a recovery is told by its own event, which says what it took."""
    kind = move.kind
    if kind is Kind.DRAW:
        yield Drew(version=version, seat=seat, timed_out=timed_out, count=1)
    elif kind is Kind.PASS:
        yield Passed(version=version, seat=seat, timed_out=timed_out)
    elif kind is Kind.DONE:
        yield EndedTurn(version=version, seat=seat, timed_out=timed_out)
    elif kind is Kind.DOUBLE and move.tile is not None and move.second is not None:
        for tile, end in ((move.tile, "L"), (move.second, "R")):
            yield Played(
                version=version, seat=seat, timed_out=timed_out, tile=TileRef.of(tile), end=end
            )
    elif kind is Kind.PLAY and move.tile is not None:
        yield Played(
            version=version,
            seat=seat,
            timed_out=timed_out,
            tile=TileRef.of(move.tile),
            end=move.end,
            across=move.across,
        )


def _deal_over(version: int, state: State[Any]) -> Iterator[TableEvent]:
    """How the deal ended, then the points it wrote."""
    result = state.result
    assert result is not None
    out = engine.went_out(state)
    if out is None:
        yield Blocked(version=version)
    else:
        yield WentOut(version=version, seat=out)
    yield DealScored(
        version=version, deal=state.deal_number, winner=result.winner, points=result.scores
    )


def _int(value: object) -> int:
    if not isinstance(value, int):
        raise TypeError(f"an event's figure is not a number: {value!r}")
    return value
