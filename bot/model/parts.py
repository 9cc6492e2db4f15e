"""The pieces the table's model is built of: a tile, a tile on the line, an open end,
and each game's own public parts, one frozen pydantic type per game, told apart by
``game`` (built from :mod:`engine.public`'s dataclasses)."""

from __future__ import annotations

from functools import lru_cache
from typing import Annotated, Final, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

import engine
from engine import Placed, Tile
from engine.tiles import BY_INDEX

Side = Literal["L", "R"]


class Frozen(BaseModel):
    """A model that cannot change once made and refuses a field it does not know."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class TileRef(Frozen):
    """A tile by its halves, the higher first."""

    hi: int = Field(ge=0, le=6)
    lo: int = Field(ge=0, le=6)

    @classmethod
    def of(cls, tile: Tile) -> TileRef:
        """The model of ``tile``: one for each tile, made once, as the engine's tiles
        are (a model cannot change, so every hand and line shares it)."""
        return _TILE_REFS[tile.index]

    def tile(self) -> Tile:
        """The engine's tile: looked up, as every hand drawn asks it of each tile."""
        return _TILES[self.hi, self.lo]


_TILE_REFS: Final = tuple(TileRef(hi=tile.hi, lo=tile.lo) for tile in BY_INDEX)
_TILES: Final = {(a, b): Tile(a, b) for a in range(7) for b in range(7)}
"""The engine's tile of each pair of halves, in either order, as ``Tile`` takes them."""


class Laid(Protocol):
    """A tile as it lies in a line, its halves from L to R: the engine's ``Placed`` and
    the model's :class:`LineTile` alike, so that one drawing serves both."""

    @property
    def left(self) -> int: ...

    @property
    def right(self) -> int: ...

    @property
    def across(self) -> bool: ...


class LineTile(Frozen):
    """A tile on the line: its place from the left end (0 first), the halves as they
    lie from L to R (its orientation), and whether it was laid across."""

    position: int = Field(ge=0)
    tile: TileRef
    left: int = Field(ge=0, le=6)
    right: int = Field(ge=0, le=6)
    across: bool = False

    @staticmethod
    def of(position: int, placed: Placed) -> LineTile:
        return _line_tile(position, placed)


@lru_cache(maxsize=4096)
def _line_tile(position: int, placed: Placed) -> LineTile:
    """The model of ``placed`` at ``position``, made once: the table's model is built on
    every move, its line is most of it, and a tile at a place is the same model ever
    after (models are frozen). A line's places and its tiles' ways of lying are a few
    thousand at most."""
    return LineTile(
        position=position,
        tile=TileRef.of(Tile(placed.left, placed.right)),
        left=placed.left,
        right=placed.right,
        across=placed.across,
    )


class OpenEnd(Frozen):
    """One open end of the line: what it shows and the values a tile must have to be
    laid there (in Three Guns, those adding up to six with what it shows)."""

    side: Side
    shows: tuple[int, ...]
    accepts: tuple[int, ...]


class TyagaParts(Frozen):
    """Tyaga shows nothing beyond the common table."""

    game: Literal["tyaga"] = "tyaga"


class KozelParts(Frozen):
    """Which score sheets are open, the goats, and the partners sharing a sheet."""

    game: Literal["kozel"] = "kozel"
    opened: tuple[bool, ...]
    goats: tuple[int, ...]
    teams: tuple[tuple[int, int], ...] = ()


class GunsParts(Frozen):
    """Three Guns: the tokens in the pool and held, the cardinal and the tile he set
    aside, and how often the deal was dealt again."""

    game: Literal["three_guns"] = "three_guns"
    pool: int
    tokens: tuple[int, ...]
    cardinal: int
    aside: TileRef
    reshuffles: int


class CaravanPart(Frozen):
    """A caravan: the active one is ``open``; ``stolen`` or ``recovered`` ones are closed
    with the tiles that closed them."""

    status: Literal["open", "stolen", "recovered"]
    owner: int | None
    camels: tuple[LineTile, ...]
    thief: TileRef | None = None
    handcuffs: tuple[TileRef, TileRef] | None = None


class BaghdadParts(Frozen):
    """Thief of Baghdad: the caravans (closed ones in the order they closed, then the
    active one), the phase of the turn and the penalty points received this deal."""

    game: Literal["baghdad"] = "baghdad"
    caravans: tuple[CaravanPart, ...]
    phase: Literal["main", "after_draw", "extra_possible"]
    penalties: tuple[int, ...]


GameParts = Annotated[
    TyagaParts | KozelParts | GunsParts | BaghdadParts, Field(discriminator="game")
]
"""The public parts of any of the four games."""


@lru_cache(maxsize=1024)
def game_parts(details: engine.Public) -> TyagaParts | KozelParts | GunsParts | BaghdadParts:
    """The model of a game's public parts, from what the engine shows every seat; made
    once for each (they change a few times a deal, the table's model is built on every
    move, and building them took nine times the look-up)."""
    if isinstance(details, engine.KozelPublic):
        return KozelParts(opened=details.opened, goats=details.goats, teams=details.teams)
    if isinstance(details, engine.GunsPublic):
        return GunsParts(
            pool=details.pool,
            tokens=details.tokens,
            cardinal=details.cardinal,
            aside=TileRef.of(details.aside),
            reshuffles=details.reshuffles,
        )
    if isinstance(details, engine.BaghdadPublic):
        return BaghdadParts(
            caravans=tuple(_caravan(c) for c in details.caravans),
            phase=details.phase.value,
            penalties=details.penalties,
        )
    return TyagaParts()


def _caravan(caravan: engine.Caravan) -> CaravanPart:
    status: Literal["open", "stolen", "recovered"]
    if caravan.status == "stolen":
        status = "stolen"
    elif caravan.status == "recovered":
        status = "recovered"
    else:
        status = "open"
    handcuffs = caravan.handcuffs
    return CaravanPart(
        status=status,
        owner=caravan.owner,
        camels=tuple(LineTile.of(i, p) for i, p in enumerate(caravan.camels)),
        thief=None if caravan.thief is None else TileRef.of(caravan.thief),
        handcuffs=None
        if handcuffs is None
        else (TileRef.of(handcuffs[0]), TileRef.of(handcuffs[1])),
    )
