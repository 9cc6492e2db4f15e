"""The engine state at the start of a deal, kept beside a stored game so that a process
that has not seen the game replays at most the deal being played.

A snapshot is only a shortcut: the game's deals and moves alone rebuild the state. It
is plain data, never code: ``<engine digest>:<JSON>``. Writing it runs at every deal's
start, on the path of a press, so it stays cheap: the state's fields go into a dict of
lists, numbers and tile texts (``"6-4"``) by hand, and orjson writes it. Reading it is
one :meth:`pydantic.BaseModel.model_validate_json` of :class:`Snapshot`, strict typed
models (whole numbers, tile texts, the four games' own details, nothing else), then a
pass that builds the engine's types back. The digest names the engine that wrote it (a
digest of the engine's source files): a snapshot of another engine, whose states may
have another shape, is ignored (:func:`load` returns ``None``); one of this engine that
does not validate raises :class:`BadSnapshot`, and the caller logs it and moves it
aside.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any, Final, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, PlainValidator, ValidationError

import engine
from bot.model.gamedoc import GameDoc
from engine import State, Tile
from engine.state import DealEnd, DealResult, Fixture, Placed
from engine.tiles import BY_INDEX
from engine.variants.baghdad_caravans import BaghdadDetail, Caravan, Phase
from engine.variants.kozel import KozelDetail
from engine.variants.three_guns import GunsDetail
from engine.variants.tyaga import TyagaDetail

_SEPARATOR: Final = ":"


class BadSnapshot(ValueError):
    """A snapshot of this engine that is not a valid state; its message is one line."""


#: Every tile's text (``6-4``, higher half first), by index, and every tile by its text.
_TEXT: Final = tuple(str(t) for t in BY_INDEX)
_TILE: Final = {str(t): t for t in BY_INDEX}


def _tile(value: object) -> Tile:
    tile = _TILE.get(value) if isinstance(value, str) else None
    if tile is None:
        raise ValueError("a tile is written as text like 6-4, higher half first")
    return tile


TileText = Annotated[Tile, PlainValidator(_tile)]
Pip = Annotated[int, Field(ge=0, le=6)]
Seat = Annotated[int, Field(ge=0, le=9)]
Count = Annotated[int, Field(ge=0)]
Values = tuple[Pip, ...]


class _Data(BaseModel):
    model_config = ConfigDict(strict=True, frozen=True, extra="forbid")


class _Fixture(_Data):
    hands: tuple[tuple[TileText, ...], ...]
    boneyard: tuple[TileText, ...]
    leader: Seat | None


class _Result(_Data):
    end: Literal["domino", "block"]
    winner: Seat | None
    scores: tuple[int, ...]


class _Kozel(_Data):
    game: Literal["kozel"]
    opened: tuple[bool, ...]
    goats: tuple[Seat, ...]
    forced_lead: TileText | None


class _Tyaga(_Data):
    game: Literal["tyaga"]
    forced_lead: TileText | None


class _Guns(_Data):
    game: Literal["three_guns"]
    cardinal: Seat
    shows: tuple[Values, Values]
    accepts: tuple[Values, Values]
    reshuffles: Count


class _Caravan(_Data):
    camels: tuple[tuple[Pip, Pip, bool], ...]
    status: Literal["open", "stolen", "recovered"]
    owner: Seat | None
    thief: TileText | None
    handcuffs: tuple[TileText, TileText] | None


class _Baghdad(_Data):
    game: Literal["baghdad"]
    caravans: tuple[_Caravan, ...]
    phase: Literal["main", "after_draw", "extra_possible"]
    drawn: TileText | None
    penalties: tuple[int, ...]


class Snapshot(_Data):
    """A state as stored: the fields of :class:`engine.State`, tiles as text."""

    variant: Literal["kozel", "tyaga", "three_guns", "baghdad"]
    players: Annotated[int, Field(ge=1, le=10)]
    options: dict[str, str | int]
    seed: int
    deal_number: Annotated[int, Field(ge=1)]
    hands: tuple[tuple[TileText, ...], ...]
    boneyard: tuple[TileText, ...]
    line: tuple[tuple[Pip, Pip, bool], ...]
    ends: tuple[Pip, Pip] | None
    turn: Seat | None
    leader: Seat
    counter: Count
    last_player: Seat | None
    match_scores: tuple[int, ...]
    result: _Result | None
    deal_over: bool
    match_over: bool
    winners: tuple[Seat, ...]
    dealt: _Fixture
    detail: Annotated[_Kozel | _Tyaga | _Guns | _Baghdad, Field(discriminator="game")]


@functools.cache
def engine_digest() -> str:
    """A short digest of the engine's source: snapshots are read only by the engine that
    wrote them."""
    root = Path(engine.__file__).parent
    digest = hashlib.blake2b(digest_size=6)
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


# -- writing ------------------------------------------------------------------------


def dump(state: State[Any]) -> str:
    """The state as text: the engine's digest, then the state as JSON."""
    result = state.result
    data = {
        "variant": state.variant,
        "players": state.players,
        "options": dict(state.options),
        "seed": state.seed,
        "deal_number": state.deal_number,
        "hands": [_texts(hand) for hand in state.hands],
        "boneyard": _texts(state.boneyard),
        "line": _placed(state.line),
        "ends": state.ends,
        "turn": state.turn,
        "leader": state.leader,
        "counter": state.counter,
        "last_player": state.last_player,
        "match_scores": state.match_scores,
        "result": None
        if result is None
        else {"end": result.end.value, "winner": result.winner, "scores": result.scores},
        "deal_over": state.deal_over,
        "match_over": state.match_over,
        "winners": state.winners,
        "dealt": _fixture_data(state.dealt),
        "detail": _detail_data(state.variant, state.detail),
    }
    return engine_digest() + _SEPARATOR + orjson.dumps(data).decode()


def _texts(tiles: tuple[Tile, ...]) -> list[str]:
    return [str(t) for t in tiles]


def _placed(line: tuple[Placed, ...]) -> list[tuple[int, int, bool]]:
    """Placed tiles as arrays (orjson writes no named tuple by itself)."""
    return [(p.left, p.right, p.across) for p in line]


def _tile_text(tile: Tile | None) -> str | None:
    return None if tile is None else str(tile)


def _fixture_data(fixture: Fixture) -> dict[str, Any]:
    return {
        "hands": [_texts(hand) for hand in fixture.hands],
        "boneyard": _texts(fixture.boneyard),
        "leader": fixture.leader,
    }


def _detail_data(variant: str, detail: Any) -> dict[str, Any]:
    if isinstance(detail, KozelDetail):
        return {
            "game": variant,
            "opened": detail.opened,
            "goats": detail.goats,
            "forced_lead": _tile_text(detail.forced_lead),
        }
    if isinstance(detail, TyagaDetail):
        return {"game": variant, "forced_lead": _tile_text(detail.forced_lead)}
    if isinstance(detail, GunsDetail):
        return {
            "game": variant,
            "cardinal": detail.cardinal,
            "shows": detail.shows,
            "accepts": detail.accepts,
            "reshuffles": detail.reshuffles,
        }
    if isinstance(detail, BaghdadDetail):
        return {
            "game": variant,
            "caravans": [
                {
                    "camels": _placed(c.camels),
                    "status": c.status,
                    "owner": c.owner,
                    "thief": _tile_text(c.thief),
                    "handcuffs": None if c.handcuffs is None else _texts(c.handcuffs),
                }
                for c in detail.caravans
            ],
            "phase": detail.phase.value,
            "drawn": _tile_text(detail.drawn),
            "penalties": detail.penalties,
        }
    raise TypeError(f"no snapshot form for {type(detail).__name__}")


# -- reading ------------------------------------------------------------------------


def load(text: str | None) -> State[Any] | None:
    """The state a snapshot holds; ``None`` if there is none or another engine wrote it.
    Raises :class:`BadSnapshot` for one of this engine that is not a valid state."""
    if not text:
        return None
    digest, _, data = text.partition(_SEPARATOR)
    if digest != engine_digest():
        return None
    try:
        snap = Snapshot.model_validate_json(data)
    except ValidationError as err:
        raise BadSnapshot(one_line(err)) from None
    if snap.detail.game != snap.variant:
        raise BadSnapshot(f"the detail of {snap.detail.game} in a {snap.variant} state")
    return _state(snap)


def belongs(state: State[Any], doc: GameDoc) -> bool:
    """``state`` is of ``doc``'s game: its table and seed, and a deal the game dealt, as
    it dealt it."""
    number = state.deal_number
    return (
        state.variant == doc.variant
        and state.players == len(doc.seats)
        and state.seed == doc.seed
        and number <= len(doc.deals)
        and state.dealt == doc.deals[number - 1]
    )


def one_line(error: ValidationError) -> str:
    """A validation error as one line: how many faults, and the first."""
    first = error.errors(include_url=False)[0]
    where = ".".join(str(part) for part in first["loc"]) or "the record"
    more = f" (and {error.error_count() - 1} more)" if error.error_count() > 1 else ""
    return f"{where}: {first['msg']}{more}"


def _state(snap: Snapshot) -> State[Any]:
    result = snap.result
    return State(
        variant=snap.variant,
        players=snap.players,
        options=MappingProxyType(dict(snap.options)),
        seed=snap.seed,
        deal_number=snap.deal_number,
        hands=snap.hands,
        boneyard=snap.boneyard,
        line=tuple(Placed(*p) for p in snap.line),
        ends=snap.ends,
        turn=snap.turn,
        leader=snap.leader,
        counter=snap.counter,
        last_player=snap.last_player,
        match_scores=snap.match_scores,
        result=None
        if result is None
        else DealResult(DealEnd(result.end), result.winner, result.scores),
        deal_over=snap.deal_over,
        match_over=snap.match_over,
        winners=snap.winners,
        dealt=Fixture(snap.dealt.hands, snap.dealt.boneyard, snap.dealt.leader),
        detail=_detail(snap.detail),
    )


def _detail(detail: _Kozel | _Tyaga | _Guns | _Baghdad) -> Any:
    if isinstance(detail, _Kozel):
        return KozelDetail(detail.opened, detail.goats, detail.forced_lead)
    if isinstance(detail, _Tyaga):
        return TyagaDetail(detail.forced_lead)
    if isinstance(detail, _Guns):
        return GunsDetail(detail.cardinal, detail.shows, detail.accepts, detail.reshuffles)
    caravans = tuple(
        Caravan(tuple(Placed(*p) for p in c.camels), c.status, c.owner, c.thief, c.handcuffs)
        for c in detail.caravans
    )
    return BaghdadDetail(caravans, Phase(detail.phase), detail.drawn, detail.penalties)
