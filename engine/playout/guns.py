"""Three Guns as a mutable record of small ints, for playouts.

Hands are bitmasks over tile indices as in :mod:`engine.playout.sim`. Each open
end is kept the way the engine's ``GunsDetail`` keeps it: what it shows and
what it accepts, as small tuples of values. A tile laid normally has code
``tile * 2 + end`` (the lead: ``end`` 1 is flipped); a musketeer or d'Artagnan
across has ``ACROSS_BASE`` added. The deal ends as the engine ends it and its
outcome writes the token the winner takes.
"""

from __future__ import annotations

import random
from typing import Any, Final

from engine.errors import GameOver
from engine.moves import PASS as PASS_MOVE
from engine.moves import Kind, Move
from engine.playout.codes import (
    ACROSS_BASE,
    BIT,
    FIT,
    PASS,
    PIPS,
    mask_of,
    pips_in,
    tile_code,
    tile_move,
    tiles_of,
)
from engine.playout.sim import Outcome
from engine.state import DealEnd, State
from engine.tiles import BY_INDEX
from engine.variants.three_guns import token_source
from engine.variants.three_guns_ends import ACROSS, DARTAGNAN, SUM

Values = tuple[int, ...]

ACROSS_MASK: Final = mask_of(tuple(ACROSS))
_DARTAGNAN: Final = DARTAGNAN.index
_NOTHING: Final[Values] = ()


def fit_mask(values: Values) -> int:
    """The tiles that fit normally on an end that accepts ``values``."""
    mask = 0
    for v in values:
        mask |= FIT[v]
    return mask


def _normal(outer: int) -> tuple[Values, Values]:
    return (outer,), ((SUM - outer,) if outer else _NOTHING)


class GunsSim:
    """One Three Guns deal in progress; ``turn`` is -1 once it is over."""

    __slots__ = ("players", "tokens", "hands", "shows", "accepts", "turn", "moves", "outcome")

    def __init__(
        self,
        tokens: tuple[int, ...],
        hands: list[int],
        shows: list[Values],
        accepts: list[Values],
        turn: int,
    ) -> None:
        self.players = len(hands)
        self.tokens = tokens  # held when the deal began
        self.hands = hands
        self.shows = shows  # per end, L then R; empty before the lead
        self.accepts = accepts
        self.turn = turn
        self.moves = 0
        self.outcome: Outcome | None = None

    @classmethod
    def from_state(cls, state: State[Any]) -> GunsSim:
        if state.deal_over or state.turn is None:
            raise GameOver("deal")
        detail = state.detail
        return cls(
            tuple(state.match_scores),
            [mask_of(hand) for hand in state.hands],
            list(detail.shows),
            list(detail.accepts),
            state.turn,
        )

    def copy(self) -> GunsSim:
        twin = GunsSim.__new__(GunsSim)
        twin.players, twin.tokens = self.players, self.tokens
        twin.hands, twin.shows, twin.accepts = self.hands[:], self.shows[:], self.accepts[:]
        twin.turn, twin.moves, twin.outcome = self.turn, self.moves, self.outcome
        return twin

    @property
    def led(self) -> bool:
        return bool(self.shows[0])

    # -- one move at a time -----------------------------------------------------

    def legal(self) -> list[int]:
        if self.turn < 0:
            return []
        hand = self.hands[self.turn]
        if not self.led:
            return [t * 2 for t in tiles_of(hand)]
        moves = [t * 2 for t in tiles_of(hand & fit_mask(self.accepts[0]))]
        moves += [t * 2 + 1 for t in tiles_of(hand & fit_mask(self.accepts[1]))]
        for t in tiles_of(hand & ACROSS_MASK):
            moves += (ACROSS_BASE + t * 2, ACROSS_BASE + t * 2 + 1)
        return moves or [PASS]

    def apply(self, code: int) -> None:
        """Apply one of :meth:`legal`'s moves in place."""
        seat = self.turn
        self.moves += 1
        if code == PASS:
            self.turn = (seat + 1) % self.players
            return
        across = code >= ACROSS_BASE
        if across:
            code -= ACROSS_BASE
        tile, end = code >> 1, code & 1
        if not self.led:
            hi, lo = BY_INDEX[tile].hi, BY_INDEX[tile].lo
            left, right = (lo, hi) if end else (hi, lo)
            (show_l, acc_l), (show_r, acc_r) = _normal(left), _normal(right)
            self.shows, self.accepts = [show_l, show_r], [acc_l, acc_r]
        elif across:
            if tile == _DARTAGNAN:
                self.accepts[end] = self.shows[end]
            else:
                t = BY_INDEX[tile]
                halves = (t.lo,) if t.is_double else (t.lo, t.hi)
                self.shows[end] = self.accepts[end] = halves
        else:
            t = BY_INDEX[tile]
            touching = t.hi if t.hi in self.accepts[end] else t.lo
            self.shows[end], self.accepts[end] = _normal(PIPS[tile] - touching)
        hand = self.hands[seat] ^ BIT[tile]
        self.hands[seat] = hand
        if not hand:
            self.finish(DealEnd.DOMINO, seat)
            return
        self.turn = (seat + 1) % self.players
        playable = ACROSS_MASK | fit_mask(self.accepts[0]) | fit_mask(self.accepts[1])
        if not any(h & playable for h in self.hands):
            self.finish(DealEnd.BLOCK, None)

    def finish(self, end: DealEnd, winner: int | None) -> None:
        self.turn = -1
        points = pips_in(self.hands)
        if winner is None:
            low = min(points)
            winner = points.index(low) if points.count(low) == 1 else None
        scores = [0] * self.players
        if winner is not None:
            scores[winner] = 1
            source = token_source(self.tokens, winner)
            if source is not None:
                scores[source] = -1
        self.outcome = Outcome(end, winner, tuple(scores), tuple(points), self.moves)

    def play_out(self, rng: random.Random) -> Outcome:
        """Play to the deal's end, each move uniformly among the legal ones."""
        draw = rng.random
        while self.turn >= 0:
            legal = self.legal()
            self.apply(legal[int(draw() * len(legal))])
        assert self.outcome is not None
        return self.outcome

    # -- translation --------------------------------------------------------------

    def move_of(self, code: int) -> Move:
        if code == PASS:
            return PASS_MOVE
        if code >= ACROSS_BASE:
            return tile_move(code - ACROSS_BASE, self.led, across=True)
        return tile_move(code, self.led)

    def code_of(self, move: Move) -> int:
        if move.kind is Kind.PASS:
            return PASS
        if move.kind is not Kind.PLAY or move.tile is None:
            raise ValueError(f"{move} is not a move of three_guns")
        code = tile_code(move, self.led)
        return code + ACROSS_BASE if move.across else code
