"""One seat's own view, as a typed model: :class:`HandView`, its tiles, each of its
legal moves, and for each other tile why it cannot be played now.

The tiles and moves come from that seat's engine view; why a tile does not fit is the
engine's own refusal of it, asked by trying it on the seat's turn (:func:`refusal`).
Asking costs an engine move or two a tile, and the chats' screens, drawn from this
model on every move, show no reason (a press on a tile asks the engine then), so the
reasons are asked only for a platform that draws the hand itself.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, Final, Literal

from pydantic import Field

import engine
from bot.model.parts import Frozen, Side, TileRef
from engine import DONE, DRAW, PASS, IllegalMove, Kind, Move, State, Tile

if TYPE_CHECKING:
    # Annotations only: the game document imports the contract, which holds these models.
    from bot.model.gamedoc import GameDoc

MoveKind = Literal["play", "double", "draw", "pass", "done", "steal", "recover"]
_KINDS: Final = {kind.value: kind for kind in Kind}
"""The engine's kind of each :data:`MoveKind` (looked up: an enum called by value is slow)."""
_WORDS: Final = {"draw": DRAW, "pass": PASS, "done": DONE}
"""The engine's moves that name no tile, by their kind."""


class LegalMove(Frozen):
    """A move the seat may make now: its kind, the tiles it names, the end it goes to,
    whether it is laid across, and its notation (what a button or a file sends)."""

    kind: MoveKind
    tile: TileRef | None = None
    second: TileRef | None = None
    end: Side | None = None
    across: bool = False
    notation: str

    @classmethod
    @cache
    def of(cls, move: Move) -> LegalMove:
        """The model of ``move``: made once for each, as a hand is modelled again
        after every move (there are a few hundred moves in all)."""
        return cls(
            kind=move.kind.value,
            tile=None if move.tile is None else TileRef.of(move.tile),
            second=None if move.second is None else TileRef.of(move.second),
            end=move.end,
            across=move.across,
            notation=engine.format_move(move),
        )

    def move(self) -> Move:
        """The engine's move this names, as a button sends it: the engine's own one where
        it keeps one (a word, a play not laid across), as every hand drawn asks it of
        each of its moves, and a frozen move made anew is dear."""
        if self.kind in _WORDS:
            return _WORDS[self.kind]
        tile = None if self.tile is None else self.tile.tile()
        if self.kind == "play" and tile is not None and self.second is None:
            return Move.play(tile, self.end, across=self.across)
        return Move(
            _KINDS[self.kind],
            tile,
            self.end,
            self.across,
            None if self.second is None else self.second.tile(),
        )


class Refusal(Frozen):
    """Why a tile of the hand cannot be played now: the engine's reason (such as
    ``does_not_fit`` or ``not_your_turn``) and the facts it names."""

    tile: TileRef
    reason: str
    params: dict[str, str | int | None] = Field(default_factory=dict)


class HandView(Frozen):
    """What one seat sees of its own: its tiles, its legal moves and why each other
    tile does not fit. ``version`` is the game's step, as in the table's model;
    ``counter`` is the engine's count of moves made in the match, which a move's
    button names, so that a press from an older hand is refused. ``tiles`` are in the
    order the seat holds them: as dealt, then as drawn. ``refusals`` is ``None`` where
    they were not asked for (see :func:`hand_view`)."""

    version: int = Field(ge=0)
    table: str
    seat: int = Field(ge=0)
    deal: int = Field(ge=1)
    counter: int = Field(ge=0)
    tiles: tuple[TileRef, ...]
    moves: tuple[LegalMove, ...]
    refusals: tuple[Refusal, ...] | None = None


def hand_view(doc: GameDoc, state: State[Any], seat: int, *, refusals: bool = False) -> HandView:
    """The model of ``seat``'s hand: his tiles, and his legal moves on his turn, as his
    engine view holds them (:func:`engine.own_hand`: the rest of the view, with the
    table's public parts, is not built for it); with ``refusals``, the engine is asked
    why each tile without a legal move cannot be played."""
    hand, legal = engine.own_hand(state, seat)
    return HandView(
        version=doc.step,
        table=doc.id,
        seat=seat,
        deal=state.deal_number,
        counter=state.counter,
        tiles=tuple(TileRef.of(t) for t in hand),
        moves=tuple(LegalMove.of(m) for m in legal),
        refusals=_refusals(state, seat, hand, legal) if refusals else None,
    )


def _refusals(
    state: State[Any], seat: int, hand: tuple[Tile, ...], legal: tuple[Move, ...]
) -> tuple[Refusal, ...]:
    """Why each tile of ``hand`` that no move of ``legal`` names cannot be played,
    highest tile first."""
    playable = {m.tile for m in legal if m.tile is not None}
    playable |= {m.second for m in legal if m.second is not None}
    found = []
    for tile in sorted(hand, reverse=True):
        if tile in playable:
            continue
        refused = refusal(state, seat, tile)
        if refused is not None:
            found.append(
                Refusal(tile=TileRef.of(tile), reason=refused.reason, params=_params(refused))
            )
    return tuple(found)


def refusal(state: State[Any], seat: int, tile: Tile) -> IllegalMove | None:
    """Why ``seat`` cannot play ``tile`` now, as the engine refuses it (at the left end
    first); ``None`` if he can."""
    reasons: list[IllegalMove] = []
    for end in ("L", "R") if state.line else (None,):
        move = Move.play(tile, end) if end is not None else Move.lead(tile)
        try:
            engine.apply(state, move, seat)
        except IllegalMove as exc:
            reasons.append(exc)
        else:
            return None
    return reasons[0]


def _params(error: IllegalMove) -> dict[str, str | int | None]:
    return {
        key: value if value is None or isinstance(value, str | int) else str(value)
        for key, value in error.params.items()
    }
