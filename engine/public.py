"""What each game shows every seat beyond the line, the hands' sizes and the scores:
one frozen type per game, so whoever reads a part names it and a type checker sees it.

A seat's :class:`~engine.View` holds one of them as ``details``; the replay output
writes it as plain data (:meth:`data`). ``face_up`` lists the tiles out of every hand
and off the line that every seat sees, so a seat can tell which tiles it cannot see.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.state import Placed
from engine.tiles import Tile

Values = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TyagaPublic:
    """Tyaga shows nothing beyond the common table."""

    def data(self) -> dict[str, Any]:
        return {}

    def face_up(self) -> tuple[Tile, ...]:
        return ()


@dataclass(frozen=True, slots=True)
class KozelPublic:
    """Which score sheets are open (a sheet opens with a deal of 13 or more), the
    goats once someone reaches the target, and the partners sharing a sheet (none
    unless the table plays in teams)."""

    opened: tuple[bool, ...]
    goats: tuple[int, ...]
    teams: tuple[tuple[int, int], ...] = ()

    def data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"opened": list(self.opened), "goats": list(self.goats)}
        if self.teams:
            data["teams"] = [list(team) for team in self.teams]
        return data

    def face_up(self) -> tuple[Tile, ...]:
        return ()


@dataclass(frozen=True, slots=True)
class GunsPublic:
    """Three Guns: the tokens (in the pool and held by each seat), the cardinal who
    set ``aside`` apart, the open ends as the rule of sixes sees them (what each
    shows and the values it accepts, L then R) and how often the deal was dealt again."""

    pool: int
    tokens: tuple[int, ...]
    aside: Tile
    cardinal: int
    shows: tuple[Values, Values]
    accepts: tuple[Values, Values]
    reshuffles: int

    def data(self) -> dict[str, Any]:
        return {
            "pool": self.pool,
            "tokens": list(self.tokens),
            "aside": str(self.aside),
            "cardinal": self.cardinal,
            "shows": [list(self.shows[0]), list(self.shows[1])],
            "accepts": [list(self.accepts[0]), list(self.accepts[1])],
            "reshuffles": self.reshuffles,
        }

    def face_up(self) -> tuple[Tile, ...]:
        return (self.aside,)


class Phase(StrEnum):
    """Where in a Thief of Baghdad turn the seat to move stands."""

    MAIN = "main"  # the turn's main play: camel, draw or pass
    AFTER_DRAW = "after_draw"  # only the drawn tile may be played, or done
    EXTRA = "extra_possible"  # a camel is down: steal, recover or done


@dataclass(frozen=True, slots=True)
class Caravan:
    """A caravan: the active one is ``open``; a thief makes it ``stolen`` and
    handcuffs make it ``recovered``, both closed for good."""

    camels: tuple[Placed, ...]
    status: str
    owner: int | None = None  # whose camels they are; nobody's until stolen
    thief: Tile | None = None
    handcuffs: tuple[Tile, Tile] | None = None

    @property
    def closed(self) -> bool:
        return self.status != "open"

    def tiles(self) -> tuple[Tile, ...]:
        """Its camels, then the thief and the handcuffs that closed it."""
        camels = tuple(Tile(p.left, p.right) for p in self.camels)
        thief = () if self.thief is None else (self.thief,)
        return camels + thief + (self.handcuffs or ())

    def data(self) -> dict[str, Any]:
        """Plain data for the replay output."""
        return {
            "state": self.status,
            "owner": self.owner,
            "thief": None if self.thief is None else str(self.thief),
            "handcuffs": None if self.handcuffs is None else [str(t) for t in self.handcuffs],
            "camels": len(self.camels),
            "tiles": [str(p) for p in self.camels],
        }


@dataclass(frozen=True, slots=True)
class BaghdadPublic:
    """Thief of Baghdad: the caravans (closed ones in the order they closed, then the
    active one), the phase of the turn and the penalty points received this deal."""

    caravans: tuple[Caravan, ...]
    phase: Phase
    penalties: tuple[int, ...]

    def data(self) -> dict[str, Any]:
        return {
            "caravans": [c.data() for c in self.caravans],
            "phase": self.phase.value,
            "penalties": list(self.penalties),
        }

    def face_up(self) -> tuple[Tile, ...]:
        return tuple(t for c in self.caravans if c.closed for t in c.tiles())


Public = TyagaPublic | KozelPublic | GunsPublic | BaghdadPublic
"""The public part of any game's state."""
