"""The one Protocol every variant implements, and the registry that finds them."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any, Protocol

from engine.errors import UnknownVariant
from engine.moves import Move
from engine.options import OptionSpec
from engine.public import Public
from engine.state import Event, Fixture, OptionValue, State, View
from engine.tiles import Tile


class Unit(StrEnum):
    """What a game's scores count."""

    POINTS = "points"
    TOKENS = "tokens"


class Variant(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def aliases(self) -> tuple[str, ...]: ...
    @property
    def min_players(self) -> int: ...
    @property
    def max_players(self) -> int: ...
    @property
    def option_specs(self) -> tuple[OptionSpec, ...]: ...
    @property
    def draws_at_will(self) -> bool:
        """Whether a player may draw though a tile of his fits (elsewhere a draw is
        made only when nothing fits)."""

    @property
    def ends_at_will(self) -> bool:
        """Whether a player may end his turn by saying ``done`` instead of playing on
        (after a draw, or after a camel that an extra could follow)."""

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The set the game is played with."""

    @property
    def draws(self) -> bool:
        """Whether a player ever draws from the boneyard. Where nobody does (Three
        Guns), the boneyard is the tile set aside, which every seat sees."""

    @property
    def plays_across(self) -> bool:
        """Whether some tiles may be laid across an end (Three Guns' musketeers and
        d'Artagnan), so that an end accepts values other than the one it shows, and a
        tile stands across the line only when it was laid so, a double included."""

    @property
    def lower_wins(self) -> bool:
        """Whether the lowest total wins the match: whoever reaches the target is
        the goat and loses (Kozel). Elsewhere the highest total wins."""

    @property
    def unit(self) -> Unit:
        """What the scores count: points, or tokens held (Three Guns)."""

    def tile_points(self, tile: Tile) -> int:
        """What ``tile`` counts at most, left in a hand at a deal's end: its pips, but
        25 for Kozel's ``[0|0]`` and 6, 3 or 1 in Thief of Baghdad (a thief, handcuffs,
        any other tile)."""

    def match_target(self, options: Mapping[str, OptionValue]) -> int | None:
        """The total whose reaching ends the match at a table of these options (Kozel's
        goat, Three Guns' fourth token); ``None`` for a match of so many deals."""

    def match_deals(self, options: Mapping[str, OptionValue]) -> int | None:
        """How many deals the match lasts at a table of these options; ``None`` for a
        match played to a target."""

    def teams(self, options: Mapping[str, OptionValue]) -> tuple[tuple[int, int], ...]:
        """The partners who share a score sheet at a table of these options; none
        where each seat plays for itself."""

    def goats(self, view: View) -> tuple[int, ...]:
        """The seats that reached the target and lose the match (Kozel's goats), from
        what every seat sees; none in a game the highest total wins."""

    def unwritten(self, view: View) -> tuple[int, ...]:
        """For a finished deal, the points each seat's sheet did not take because the
        sheet is not open yet (Kozel's sheets open with a deal of 13 or more); zeros
        elsewhere, and while the deal is being played."""

    def check_options(self, players: int, options: Mapping[str, OptionValue]) -> None:
        """Raise :class:`BadOption` for a combination the rules refuse."""

    def new_match(
        self,
        players: int,
        options: Mapping[str, OptionValue],
        seed: int,
        fixture: Fixture | None = None,
    ) -> State[Any]:
        """Start a match and deal its first deal (options already resolved)."""

    def next_deal(self, state: State[Any], fixture: Fixture | None = None) -> State[Any]:
        """Deal the next deal of a match whose current deal is over."""

    def legal_moves(self, state: State[Any]) -> tuple[Move, ...]:
        """Every legal move of the seat to move; empty when the deal is over."""

    def apply(self, state: State[Any], move: Move) -> tuple[State[Any], tuple[Event, ...]]:
        """Apply a move of the seat to move; raise :class:`IllegalMove` if it is not legal."""

    def view(self, state: State[Any], seat: int) -> View:
        """What ``seat`` may see."""

    def public(self, state: State[Any]) -> Public:
        """The game's own parts every seat may see (caravans, tokens, …)."""


_REGISTRY: dict[str, Variant] = {}
_NAMES: dict[str, Variant] = {}


def register(variant: Variant) -> Variant:
    _REGISTRY[variant.name] = variant
    for key in (variant.name, *variant.aliases):
        _NAMES[key.casefold()] = variant
    return variant


def get_variant(name: str) -> Variant:
    """Find a variant by its name or an alias (``draw``, ``goat``, ``козёл`` …)."""
    # Every state names its variant exactly, and the public calls look it up on each move.
    found = _REGISTRY.get(name)
    if found is not None:
        return found
    _load()
    found = _NAMES.get(name.strip().casefold())
    if found is None:
        raise UnknownVariant(name, sorted(_REGISTRY))
    return found


def all_variants() -> tuple[Variant, ...]:
    _load()
    return tuple(_REGISTRY.values())


def _load() -> None:
    if not _REGISTRY:
        import engine.variants  # noqa: F401  (registers the four games)
