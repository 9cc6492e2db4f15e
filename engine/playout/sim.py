"""One deal in progress as a mutable record of small ints, moved one step at a time."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from engine.errors import DominoError, GameOver
from engine.moves import DRAW as DRAW_MOVE
from engine.moves import PASS as PASS_MOVE
from engine.moves import Kind, Move
from engine.playout.codes import (
    BIT,
    BLANK_DOUBLE_BIT,
    DOUBLE,
    DOUBLE_BIT,
    DRAW,
    FIT,
    PASS,
    PIPS,
    lay,
    mask_of,
    pips_in,
    tile_code,
    tile_move,
    tiles_of,
)
from engine.state import DealEnd, State
from engine.tiles import Tile
from engine.variants.kozel_scoring import BLANK_DOUBLE_POINTS, OPENING_POINTS

SUPPORTED: Final = ("tyaga", "kozel")


class UnsupportedVariant(DominoError):
    code = "unsupported_variant"

    def __init__(self, variant: str) -> None:
        super().__init__(
            f"the playout simulator plays {' and '.join(SUPPORTED)}, not {variant}",
            variant=variant,
        )


@dataclass(frozen=True, slots=True)
class Rules:
    """What stays fixed while a deal is played."""

    variant: str
    players: int
    double_move: bool  # Kozel with double_move=on
    blank_rule: str  # Kozel's blank_double ("always" / "alone"); "" for Tyaga
    teams: bool  # Kozel with teams=on
    opened: tuple[bool, ...]  # Kozel: score sheets already open when the deal began

    @classmethod
    def of(
        cls, variant: str, players: int, options: Mapping[str, object], opened: tuple[bool, ...]
    ) -> Rules:
        """The rules of a table of ``variant`` with these (resolved) options."""
        kozel = variant == "kozel"
        return cls(
            variant,
            players,
            kozel and options["double_move"] == "on",
            str(options["blank_double"]) if kozel else "",
            kozel and options["teams"] == "on",
            opened,
        )


class Outcome(NamedTuple):
    """How a simulated deal ended, as the engine's ``DealResult`` says it."""

    end: DealEnd
    winner: int | None
    scores: tuple[int, ...]  # written for each seat by this deal (``DealResult.scores``)
    points: tuple[int, ...]  # left in each hand, as the deal counts them
    moves: int  # moves applied by the simulator (the engine's counter advances as much)


class Sim:
    """One deal in progress. ``turn`` is -1 once the deal is over; ``outcome``
    is set then. ``left`` and ``right`` are -1 before the lead."""

    __slots__ = (
        "rules",
        "hands",
        "bone",
        "left",
        "right",
        "lead",
        "turn",
        "last",
        "table",
        "moves",
        "outcome",
    )

    def __init__(
        self,
        rules: Rules,
        hands: list[int],
        bone: list[int],
        ends: tuple[int, int] | None,
        lead: int,
        turn: int,
        last: int,
        table: int,
    ) -> None:
        self.rules = rules
        self.hands = hands  # a mask per seat
        self.bone = bone  # tile indices, the next draw last
        self.left, self.right = ends if ends is not None else (-1, -1)
        self.lead = lead  # the tile index the lead must be, or -1 for any tile
        self.turn = turn
        self.last = last  # who placed the last tile, -1 for nobody yet
        self.table = table  # mask of the tiles on the line
        self.moves = 0
        self.outcome: Outcome | None = None

    @classmethod
    def from_state(cls, state: State[Any]) -> Sim:
        """The deal being played in ``state``; raises :class:`GameOver` once it has ended."""
        if state.variant not in SUPPORTED:
            raise UnsupportedVariant(state.variant)
        if state.deal_over or state.turn is None:
            raise GameOver("deal")
        kozel = state.variant == "kozel"
        opened = tuple(state.detail.opened) if kozel else (False,) * state.players
        rules = Rules.of(state.variant, state.players, state.options, opened)
        forced: Tile | None = state.detail.forced_lead
        return cls(
            rules,
            [mask_of(hand) for hand in state.hands],
            [t.index for t in reversed(state.boneyard)],
            state.ends,
            forced.index if forced is not None and not state.line else -1,
            state.turn,
            -1 if state.last_player is None else state.last_player,
            mask_of(tuple(Tile(p.left, p.right) for p in state.line)),
        )

    def copy(self) -> Sim:
        twin = Sim.__new__(Sim)
        twin.rules = self.rules
        twin.hands = self.hands[:]
        twin.bone = self.bone[:]
        twin.left, twin.right, twin.lead = self.left, self.right, self.lead
        twin.turn, twin.last, twin.table = self.turn, self.last, self.table
        twin.moves, twin.outcome = self.moves, self.outcome
        return twin

    @property
    def ends(self) -> tuple[int, int] | None:
        return None if self.left < 0 else (self.left, self.right)

    # -- one move at a time -----------------------------------------------------

    def legal(self) -> list[int]:
        """The legal moves of the seat to move, as many as the engine lists."""
        if self.turn < 0:
            return []
        hand = self.hands[self.turn]
        left, right = self.left, self.right
        if left < 0:
            return [self.lead * 2] if self.lead >= 0 else [t * 2 for t in tiles_of(hand)]
        moves = [t * 2 for t in tiles_of(hand & FIT[left])]
        moves += [t * 2 + 1 for t in tiles_of(hand & FIT[right])]
        if not moves:
            return [DRAW] if self.bone else [PASS]
        both = DOUBLE_BIT[left] | DOUBLE_BIT[right]
        if self.rules.double_move and left != right and hand & both == both:
            moves.append(DOUBLE)
        return moves

    def apply(self, code: int) -> None:
        """Apply one of :meth:`legal`'s moves in place (nothing else is checked)."""
        seat = self.turn
        self.moves += 1
        if code == DRAW:
            self.hands[seat] |= BIT[self.bone.pop()]
            self._block_if_stuck()
            return
        if code == PASS:
            self.turn = seat + 1 if seat + 1 < self.rules.players else 0
            return
        if code == DOUBLE:
            placed = DOUBLE_BIT[self.left] | DOUBLE_BIT[self.right]
        else:
            tile, end = code >> 1, code & 1
            placed = BIT[tile]
            self.left, self.right = lay(self.left, self.right, tile, end)
        self.hands[seat] ^= placed
        self.table |= placed
        self.last = seat
        if not self.hands[seat]:
            self.finish(DealEnd.DOMINO, seat)
            return
        self.turn = seat + 1 if seat + 1 < self.rules.players else 0
        self._block_if_stuck()

    def _block_if_stuck(self) -> None:
        """A block at once when nothing can be drawn and no tile in any hand fits.
        (A pass changes nothing that could cause one.)"""
        if self.bone or self.left < 0:
            return
        fits = FIT[self.left] | FIT[self.right]
        if not any(hand & fits for hand in self.hands):
            self.finish(DealEnd.BLOCK, None)

    def finish(self, end: DealEnd, winner: int | None) -> None:
        self.turn = -1
        self.outcome = score(self.rules, self.hands, end, winner, self.moves)

    # -- translation --------------------------------------------------------------

    def move_of(self, code: int) -> Move:
        """The engine move for ``code`` in this position."""
        if code == DRAW:
            return DRAW_MOVE
        if code == PASS:
            return PASS_MOVE
        if code == DOUBLE:
            return Move.double(Tile(self.left, self.left), Tile(self.right, self.right))
        return tile_move(code, self.left >= 0)

    def code_of(self, move: Move) -> int:
        """The code of an engine move (a play names its end, except the lead)."""
        if move.kind is Kind.DRAW:
            return DRAW
        if move.kind is Kind.PASS:
            return PASS
        if move.kind is Kind.DOUBLE:
            return DOUBLE
        if move.kind is not Kind.PLAY or move.tile is None or move.across:
            raise ValueError(f"{move} is not a move of {self.rules.variant}")
        return tile_code(move, self.left >= 0)

    # -- possible worlds ----------------------------------------------------------

    def redeal(self, rng: random.Random, keep: int | None = None) -> None:
        """Shuffle the tiles of every hand but seat ``keep``'s, and of the boneyard,
        back into the same places with the same sizes: one world seat ``keep``
        could be in (ignoring what passes and draws told him)."""
        hands = self.hands
        pool = tiles_of(sum(hand for seat, hand in enumerate(hands) if seat != keep))
        pool += self.bone
        draw = rng.random
        # A random order: sorted by a random float each, a quarter cheaper than a
        # Fisher-Yates loop in Python (a tie, odds about 1 in 10**13, would only
        # keep two tiles in their old order).
        pool.sort(key={tile: draw() for tile in pool}.__getitem__)
        start = 0
        bit = BIT.__getitem__
        for seat, hand in enumerate(hands):
            if seat != keep:
                size = hand.bit_count()
                hands[seat] = sum(map(bit, pool[start : start + size]))
                start += size
        self.bone = pool[start:]


def score(
    rules: Rules, hands: Sequence[int], end: DealEnd, winner: int | None, moves: int
) -> Outcome:
    """The deal's result from the hands left, by the variant's scoring."""
    points = points_left(rules, hands)
    if winner is None:
        winner = lowest(points)
    return Outcome(end, winner, written(rules, points, winner), tuple(points), moves)


def points_left(rules: Rules, hands: Sequence[int]) -> list[int]:
    """The points in each hand as the deal counts them (Kozel's ``[0|0]`` at 25)."""
    if rules.blank_rule == "always":
        return pips_in(hands, BLANK_DOUBLE_POINTS)
    points = pips_in(hands)
    if rules.blank_rule == "alone":
        for seat, hand in enumerate(hands):
            if hand == BLANK_DOUBLE_BIT:
                points[seat] = BLANK_DOUBLE_POINTS
    return points


def lowest(points: Sequence[int]) -> int | None:
    """The winner of a block: the fewest points, a tie has none."""
    low = min(points)
    return points.index(low) if points.count(low) == 1 else None


def written(rules: Rules, points: Sequence[int], winner: int | None) -> tuple[int, ...]:
    """What the deal writes on each seat's sheet (``DealResult.scores``)."""
    if rules.variant == "kozel":
        return kozel_scores(points, rules.opened, rules.teams)
    scores = [0] * rules.players
    if winner is not None:
        scores[winner] = sum(points) - points[winner]
    return tuple(scores)


#: ``WRITTEN[opened][p]``: what a Kozel deal that leaves ``p`` points in a hand
#: writes on that seat's own sheet, opened before the deal or not.
WRITTEN: Final = (
    tuple(p if p >= OPENING_POINTS else 0 for p in range(sum(PIPS) + BLANK_DOUBLE_POINTS + 1)),
    tuple(range(sum(PIPS) + BLANK_DOUBLE_POINTS + 1)),
)


def kozel_scores(points: Sequence[int], opened: Sequence[bool], teams: bool) -> tuple[int, ...]:
    """Each seat's sheet gets its points (partners share one sheet and its sum),
    written only once the sheet has opened with a deal worth at least 13."""
    if not teams:
        return tuple([WRITTEN[o][p] for p, o in zip(points, opened, strict=True)])
    players = len(points)
    sheet = [seat % 2 for seat in range(players)]
    sums = [0] * players
    for seat, p in enumerate(points):
        sums[sheet[seat]] += p
    return tuple(
        sums[sheet[seat]] if opened[seat] or sums[sheet[seat]] >= OPENING_POINTS else 0
        for seat in range(players)
    )
