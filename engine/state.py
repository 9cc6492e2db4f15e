"""The immutable game state, events, deal results, fixtures and views.

One :class:`State` shape serves every variant; what a variant needs beyond the
common fields lives in ``detail``, a frozen dataclass of that variant's own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, TypeVar

from engine.moves import Move
from engine.tiles import Tile

if TYPE_CHECKING:
    from engine.public import Public

D = TypeVar("D")
Hands = tuple[tuple[Tile, ...], ...]
OptionValue = str | int


class Placed(NamedTuple):
    """A tile on the table as seen from L to R: ``left`` half, ``right`` half."""

    left: int
    right: int
    across: bool = False

    def __str__(self) -> str:
        return f"{self.left}-{self.right}{'x' if self.across else ''}"


class DealEnd(str, Enum):
    DOMINO = "domino"
    BLOCK = "block"


class DealResult(NamedTuple):
    """How a finished deal ended and what it wrote down for each seat.

    A named tuple like :class:`State` (cheaper to build); read it by field name.
    """

    end: DealEnd
    winner: int | None  # the deal's winner; None for a tied block
    scores: tuple[int, ...]  # written for each seat, after every scoring rule


@dataclass(frozen=True, slots=True)
class Fixture:
    """A scripted deal: hands in seat order, boneyard in draw order."""

    hands: Hands
    boneyard: tuple[Tile, ...]
    leader: int | None = None


class Event(NamedTuple):
    """Something a move caused. ``tile`` of a ``draw`` is private to ``seat``.

    A named tuple, like :class:`State`, because every move makes one; read it
    by field name.
    """

    kind: str  # move, draw, penalty, reshuffle, deal_over, match_over, token, …
    seat: int | None = None
    move: Move | None = None
    tile: Tile | None = None
    info: tuple[tuple[str, object], ...] = ()


_new_event: Callable[[type[Event], tuple[Any, ...]], Event] = tuple.__new__


def moved(seat: int, move: Move) -> Event:
    """``Event("move", seat, move)``, which every applied move makes, built
    without the keyword handling of the named tuple's own constructor."""
    return _new_event(Event, ("move", seat, move, None, ()))


class State(NamedTuple, Generic[D]):
    """Everything about a match at one moment. Immutable: a move makes a new
    state and leaves this one as it was.

    A named tuple rather than a dataclass because a new one is made after
    every move: building a tuple in one call is several times cheaper than
    setting twenty attributes on a frozen object. Read it by field name only;
    its order as a tuple is not part of the API.
    """

    variant: str
    players: int
    options: Mapping[str, OptionValue]
    seed: int
    deal_number: int  # 1 for the first deal
    hands: Hands
    boneyard: tuple[Tile, ...]
    line: tuple[Placed, ...]
    ends: tuple[int, int] | None  # values shown at L and R; None on an empty line
    turn: int | None  # seat to move; None when the deal or match is over
    leader: int  # who led this deal
    counter: int  # moves applied so far in the match
    last_player: int | None  # who placed the last tile of this deal
    match_scores: tuple[int, ...]
    result: DealResult | None  # the last finished deal (this one, once over)
    deal_over: bool
    match_over: bool
    winners: tuple[int, ...]
    dealt: Fixture  # this deal as dealt (before any swap), leader only if drawn at random
    detail: D

    @property
    def deal_scores(self) -> tuple[int, ...] | None:
        return self.result.scores if self.result is not None else None

    def but(self, **changes: Any) -> State[D]:
        """A copy with some fields changed (faster than ``_replace``)."""
        values = list(self)
        try:
            for name, value in changes.items():
                values[_FIELD_INDEX[name]] = value
        except KeyError as missing:
            raise TypeError(f"State has no field {missing}") from None
        return _new_state(State, values)

    def after_play(
        self,
        hands: Hands,
        line: tuple[Placed, ...],
        ends: tuple[int, int],
        turn: int,
        counter: int,
        last_player: int,
    ) -> State[D]:
        """``but`` with the six fields that laying a tile changes, by position
        rather than by keyword: it runs for nearly every move."""
        values = list(self)
        values[_HANDS] = hands
        values[_LINE] = line
        values[_ENDS] = ends
        values[_TURN] = turn
        values[_COUNTER] = counter
        values[_LAST_PLAYER] = last_player
        return _new_state(State, values)

    def after_pass(self, turn: int, counter: int) -> State[D]:
        """``but`` with the two fields a pass changes, by position."""
        values = list(self)
        values[_TURN] = turn
        values[_COUNTER] = counter
        return _new_state(State, values)


_FIELD_INDEX = {name: i for i, name in enumerate(State._fields)}
_HANDS, _LINE, _ENDS, _TURN, _COUNTER, _LAST_PLAYER = (
    _FIELD_INDEX[name] for name in ("hands", "line", "ends", "turn", "counter", "last_player")
)
# The tuple's own constructor, skipping the generated __new__ and its keywords.
_new_state: Callable[[type[State[Any]], Iterable[Any]], State[Any]] = tuple.__new__


@dataclass(frozen=True, slots=True)
class View:
    """What one seat may see. ``revealed`` holds every hand only once the deal
    is over (the summary shows them); until then other hands are counts only.
    A spectator's view (``seat`` None) holds no hand and no move: only what the
    whole table sees."""

    variant: str
    seat: int | None
    players: int
    options: Mapping[str, OptionValue]  # the table's rules, known to every seat
    deal_number: int
    hand: tuple[Tile, ...]
    hand_counts: tuple[int, ...]
    line: tuple[Placed, ...]
    ends: tuple[int, int] | None
    boneyard: int
    turn: int | None
    counter: int
    legal: tuple[Move, ...]  # empty unless it is this seat's turn
    match_scores: tuple[int, ...]
    result: DealResult | None
    deal_over: bool
    match_over: bool
    winners: tuple[int, ...]
    revealed: Hands | None
    details: Public  # the game's own parts every seat sees

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.turn == self.seat
