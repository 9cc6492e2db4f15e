"""Thief of Baghdad as a mutable record of small ints, for playouts.

Two hands as bitmasks, the boneyard as a list (the next draw last), the active
caravan as its two ends and its number of camels, and the closed caravans as
``[thief index, owner, camels, recovered]`` lists. ``phase`` follows the
engine's turn: a main play, the drawn tile alone, or the extra after a camel.
Codes: a camel ``tile * 2 + end`` (a new caravan's first: ``end`` 1 is flipped),
``DRAW``, ``PASS``, ``DONE``, ``STEAL`` (the thief the ends show) and
``RECOVER + thief index``.
"""

from __future__ import annotations

import random
from typing import Any, Final

from engine.errors import GameOver
from engine.moves import DONE as DONE_MOVE
from engine.moves import DRAW as DRAW_MOVE
from engine.moves import PASS as PASS_MOVE
from engine.moves import Kind, Move
from engine.playout.codes import (
    BIT,
    DONE,
    DRAW,
    FIT,
    PASS,
    RECOVER,
    STEAL,
    lay,
    mask_of,
    tile_code,
    tile_move,
    tiles_of,
)
from engine.playout.sim import Outcome
from engine.state import DealEnd, State
from engine.tiles import BY_INDEX, Tile
from engine.variants.baghdad_caravans import HANDCUFFS, THIEVES, Phase
from engine.variants.baghdad_scoring import HAND_VALUE

MAIN, AFTER_DRAW, EXTRA = 0, 1, 2
_PHASES: Final = {Phase.MAIN: MAIN, Phase.AFTER_DRAW: AFTER_DRAW, Phase.EXTRA: EXTRA}
THIEF_MASK: Final = mask_of(tuple(THIEVES))
#: ``THIEF_AT[left][right]``: the thief whose pattern the ends show, or -1.
THIEF_AT: Final = tuple(
    tuple(Tile(a, b).index if Tile(a, b) in THIEVES else -1 for b in range(7)) for a in range(7)
)
#: ``CUFFS[thief index]``: the mask of its two handcuff doubles.
CUFFS: Final = {thief.index: mask_of(pair) for thief, pair in HANDCUFFS.items()}
_THIEF_OF_CUFF_MOVE: Final = {pair: thief for thief, pair in HANDCUFFS.items()}


class BaghdadSim:
    """One Thief of Baghdad deal in progress; ``turn`` is -1 once it is over."""

    __slots__ = (
        "hands",
        "bone",
        "left",
        "right",
        "camels",
        "caravans",
        "phase",
        "drawn",
        "penalties",
        "turn",
        "moves",
        "outcome",
    )

    def __init__(
        self,
        hands: list[int],
        bone: list[int],
        ends: tuple[int, int] | None,
        camels: int,
        caravans: list[list[int]],
        phase: int,
        drawn: int,
        penalties: list[int],
        turn: int,
    ) -> None:
        self.hands = hands
        self.bone = bone
        self.left, self.right = ends if ends is not None else (-1, -1)
        self.camels = camels  # in the active caravan
        self.caravans = caravans  # closed: [thief index, owner, camels, recovered (0/1)]
        self.phase = phase
        self.drawn = drawn  # the tile index drawn this turn, in the AFTER_DRAW phase
        self.penalties = penalties
        self.turn = turn
        self.moves = 0
        self.outcome: Outcome | None = None

    @classmethod
    def from_state(cls, state: State[Any]) -> BaghdadSim:
        if state.deal_over or state.turn is None:
            raise GameOver("deal")
        detail = state.detail
        caravans = [
            [c.thief.index, c.owner, len(c.camels), int(c.status == "recovered")]
            for c in detail.caravans
            if c.thief is not None
        ]
        return cls(
            [mask_of(hand) for hand in state.hands],
            [t.index for t in reversed(state.boneyard)],
            state.ends,
            len(state.line),
            caravans,
            _PHASES[detail.phase],
            -1 if detail.drawn is None else detail.drawn.index,
            list(detail.penalties),
            state.turn,
        )

    def copy(self) -> BaghdadSim:
        twin = BaghdadSim.__new__(BaghdadSim)
        twin.hands, twin.bone = self.hands[:], self.bone[:]
        twin.left, twin.right, twin.camels = self.left, self.right, self.camels
        twin.caravans = [c[:] for c in self.caravans]
        twin.phase, twin.drawn, twin.penalties = self.phase, self.drawn, self.penalties[:]
        twin.turn, twin.moves, twin.outcome = self.turn, self.moves, self.outcome
        return twin

    @property
    def ends(self) -> tuple[int, int] | None:
        return None if self.left < 0 else (self.left, self.right)

    # -- one move at a time -----------------------------------------------------

    def legal(self) -> list[int]:
        seat = self.turn
        if seat < 0:
            return []
        if self.phase == EXTRA:
            return [*self._extras(seat), DONE]
        if self.phase == AFTER_DRAW:
            return [*self._camels(BIT[self.drawn]), DONE]
        moves = self._camels(self.hands[seat])
        if self.bone:
            moves.append(DRAW)
        return moves or [PASS]

    def _camels(self, tiles: int) -> list[int]:
        if self.left < 0:
            return [t * 2 for t in tiles_of(tiles)]
        moves = [t * 2 for t in tiles_of(tiles & FIT[self.left])]
        moves += [t * 2 + 1 for t in tiles_of(tiles & FIT[self.right])]
        return moves

    def _extras(self, seat: int) -> list[int]:
        hand = self.hands[seat]
        moves = []
        if self.left >= 0:
            thief = THIEF_AT[self.left][self.right]
            if thief >= 0 and hand & BIT[thief]:
                moves.append(STEAL)
        for thief, owner, _camels, recovered in self.caravans:
            cuffs = CUFFS.get(thief)
            if not recovered and owner != seat and cuffs is not None and hand & cuffs == cuffs:
                moves.append(RECOVER + thief)
        return moves

    def apply(self, code: int) -> None:
        """Apply one of :meth:`legal`'s moves in place."""
        seat = self.turn
        self.moves += 1
        if code == DRAW:
            tile = self.bone.pop()
            self.hands[seat] |= BIT[tile]
            if self.left < 0 or BIT[tile] & (FIT[self.left] | FIT[self.right]):
                self.phase, self.drawn = AFTER_DRAW, tile
            else:
                self._penalize(seat)
                self._end_turn(seat)
        elif code == PASS:
            self._end_turn(seat)
        elif code == DONE:
            if self.phase == AFTER_DRAW:
                self._penalize(seat)
            self._end_turn(seat)
        elif code == STEAL:
            thief = THIEF_AT[self.left][self.right]
            self.hands[seat] ^= BIT[thief]
            self.caravans.append([thief, seat, self.camels, 0])
            self.left = self.right = -1
            self.camels = 0
            self._end_turn(seat)
        elif code >= RECOVER:
            thief = code - RECOVER
            for caravan in self.caravans:
                if caravan[0] == thief and not caravan[3] and caravan[1] != seat:
                    caravan[1], caravan[3] = seat, 1
                    break
            self.hands[seat] ^= CUFFS[thief]
            self._end_turn(seat)
        else:
            self._camel(seat, code >> 1, code & 1)

    def _camel(self, seat: int, tile: int, end: int) -> None:
        self.left, self.right = lay(self.left, self.right, tile, end)
        self.camels += 1
        hand = self.hands[seat] ^ BIT[tile]
        self.hands[seat] = hand
        self.phase, self.drawn = MAIN, -1
        if hand and self._extras(seat):
            self.phase = EXTRA
        else:
            self._end_turn(seat)

    def _penalize(self, seat: int) -> None:
        self.penalties[1 - seat] += 1

    def _end_turn(self, seat: int) -> None:
        self.phase, self.drawn = MAIN, -1
        if not self.hands[seat]:
            self.finish(DealEnd.DOMINO)
            return
        if self.left >= 0 and not self.bone:
            fits = FIT[self.left] | FIT[self.right]
            if not (self.hands[0] | self.hands[1]) & fits:
                self.finish(DealEnd.BLOCK)
                return
        self.turn = 1 - seat

    def finish(self, end: DealEnd) -> None:
        self.turn = -1
        points = self.penalties[:]
        for _thief, owner, camels, _recovered in self.caravans:
            points[owner] += camels
        left = [sum(HAND_VALUE[t] for t in tiles_of(hand)) for hand in self.hands]
        points[0] += left[1]
        points[1] += left[0]
        winner = None if points[0] == points[1] else int(points[1] > points[0])
        self.outcome = Outcome(end, winner, tuple(points), tuple(left), self.moves)

    def play_out(self, rng: random.Random) -> Outcome:
        """Play to the deal's end with a light policy: an extra whenever there is
        one, the drawn tile whenever it fits, a camel from the hand rather than
        a draw; otherwise uniformly among the legal moves."""
        draw = rng.random
        while self.turn >= 0:
            legal = self.legal()
            if len(legal) > 1:
                if self.phase == EXTRA or self.phase == AFTER_DRAW:
                    legal.pop()  # DONE is listed last
                elif legal[-1] == DRAW:
                    legal.pop()
            self.apply(legal[int(draw() * len(legal))])
        assert self.outcome is not None
        return self.outcome

    # -- translation --------------------------------------------------------------

    def move_of(self, code: int) -> Move:
        if code == DRAW:
            return DRAW_MOVE
        if code == PASS:
            return PASS_MOVE
        if code == DONE:
            return DONE_MOVE
        if code == STEAL:
            return Move.steal(BY_INDEX[THIEF_AT[self.left][self.right]])
        if code >= RECOVER:
            return Move.recover(*HANDCUFFS[BY_INDEX[code - RECOVER]])
        return tile_move(code, self.left >= 0)

    def code_of(self, move: Move) -> int:
        kind = move.kind
        if kind is Kind.DRAW:
            return DRAW
        if kind is Kind.PASS:
            return PASS
        if kind is Kind.DONE:
            return DONE
        if kind is Kind.STEAL:
            return STEAL
        if kind is Kind.RECOVER and move.tile is not None and move.second is not None:
            return RECOVER + _THIEF_OF_CUFF_MOVE[(move.tile, move.second)].index
        if kind is not Kind.PLAY or move.tile is None or move.across:
            raise ValueError(f"{move} is not a move of baghdad")
        return tile_code(move, self.left >= 0)
