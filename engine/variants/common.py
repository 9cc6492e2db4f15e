"""What most of the four games say alike about themselves, stated once: each game's
class inherits these facts and states only where its rules differ."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, NamedTuple

from engine.moves import Move
from engine.options import OptionSpec
from engine.public import Public
from engine.rounds import deal_after, first_deal
from engine.seatview import seat_view
from engine.state import Fixture, OptionValue, State, View
from engine.tiles import DOUBLE_SIX, Tile
from engine.variant import Unit


class Dealt(NamedTuple):
    """A deal as a game's rules deal it: the tiles, the seat that leads, and the game's
    own detail at the deal's start."""

    tiles: Fixture
    leader: int
    detail: Any


class CommonRules(ABC):
    """A game of the double-six set for points, each seat for itself, the highest total
    winning; a player draws only when nothing fits, lays every tile along the line and
    ends his turn by playing. The match runs to a target, and a tile left in hand
    counts its pips."""

    name: str
    draws_at_will = False
    ends_at_will = False
    tiles: tuple[Tile, ...] = DOUBLE_SIX
    draws = True
    plays_across = False
    lower_wins = False
    unit = Unit.POINTS
    option_specs: tuple[OptionSpec, ...] = ()

    # -- dealing ---------------------------------------------------------------
    # Every game starts a match, and each next deal, from the deal as dealt; a game
    # says only how it deals and who leads.

    def new_match(
        self,
        players: int,
        options: Mapping[str, OptionValue],
        seed: int,
        fixture: Fixture | None = None,
    ) -> State[Any]:
        """Start a match and deal its first deal (options already resolved)."""
        dealt = self.first_dealt(players, options, seed, fixture)
        fresh = first_deal(
            self.name, players, options, seed, dealt.tiles, dealt.leader, dealt.detail
        )
        return self.ready(fresh)

    def next_deal(self, state: State[Any], fixture: Fixture | None = None) -> State[Any]:
        """Deal the next deal of a match whose current deal is over."""
        dealt = self.next_dealt(state, fixture)
        return self.ready(deal_after(state, dealt.tiles, dealt.leader, dealt.detail))

    @abstractmethod
    def first_dealt(
        self, players: int, options: Mapping[str, OptionValue], seed: int, fixture: Fixture | None
    ) -> Dealt:
        """A match's first deal, as the rules deal it."""

    @abstractmethod
    def next_dealt(self, state: State[Any], fixture: Fixture | None) -> Dealt:
        """The deal after ``state``'s (which is over), as the rules deal it."""

    def ready(self, state: State[Any]) -> State[Any]:
        """A deal as its play begins: as dealt, but where the rules have a tile set
        aside first (Three Guns)."""
        return state

    # -- moves and seeing --------------------------------------------------------

    @abstractmethod
    def legal_moves(self, state: State[Any]) -> tuple[Move, ...]: ...

    @abstractmethod
    def public(self, state: State[Any]) -> Public: ...

    def check_options(  # noqa: B027  (a game overrides it only where it refuses some)
        self, players: int, options: Mapping[str, OptionValue]
    ) -> None:
        """Every value each option's parser accepts is playable: nothing to check."""

    def view(self, state: State[Any], seat: int) -> View:
        legal = self.legal_moves(state) if state.turn == seat else ()
        return seat_view(state, seat, legal, self.public(state))

    def tile_points(self, tile: Tile) -> int:
        return tile.pips

    def match_deals(self, options: Mapping[str, OptionValue]) -> int | None:
        return None

    def teams(self, options: Mapping[str, OptionValue]) -> tuple[tuple[int, int], ...]:
        return ()

    def goats(self, view: View) -> tuple[int, ...]:
        return ()

    def unwritten(self, view: View) -> tuple[int, ...]:
        return (0,) * view.players
