"""Moves and their notation (``6-4@L``, ``1-5x@R``, ``5-5@L+3-3@R``, ``draw`` …).

``parse_move`` reads text without looking at a game, so a play written without
its end keeps ``end=None``; :func:`engine.api.resolve` fills the end in when
exactly one end fits. ``format_move`` writes a move back canonically, and
``parse_move(format_move(m)) == m`` for every move.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final, Literal

from engine.errors import BadMoveText, BadTile
from engine.tiles import DOUBLE_SIX, Tile, parse_halves

End = Literal["L", "R"]
ENDS: Final[tuple[End, End]] = ("L", "R")


class Kind(str, Enum):
    PLAY = "play"
    DOUBLE = "double"  # Kozel: two doubles at once, ``tile`` on L, ``second`` on R
    DRAW = "draw"
    PASS = "pass"
    DONE = "done"  # Thief of Baghdad: end the turn without a camel or an extra
    STEAL = "steal"
    RECOVER = "recover"  # ``tile`` and ``second`` are the handcuffs, higher first


@dataclass(frozen=True, slots=True)
class Move:
    """One move. ``end`` is ``None`` for the line's first tile (and before
    :func:`engine.api.resolve` for a play whose end was left out).

    ``flip`` lays a leading tile with its lower half on L, as written in
    ``4-6``; ``legal_moves`` lists leads unflipped.
    """

    kind: Kind
    tile: Tile | None = None
    end: End | None = None
    across: bool = False
    second: Tile | None = None
    flip: bool = False

    @classmethod
    def play(cls, tile: Tile, end: End | None = None, *, across: bool = False) -> Move:
        if not across:
            if end == "L":
                return PLAYS_L[tile.index]
            if end == "R":
                return PLAYS_R[tile.index]
            if end is None:
                return LEADS[tile.index]
        return cls(Kind.PLAY, tile, end, across)

    @classmethod
    def lead(cls, tile: Tile, *, flip: bool = False) -> Move:
        if flip and not tile.is_double:
            return cls(Kind.PLAY, tile, None, False, None, True)
        return LEADS[tile.index]

    @classmethod
    def double(cls, left: Tile, right: Tile) -> Move:
        return cls(Kind.DOUBLE, left, "L", False, right)

    @classmethod
    def steal(cls, thief: Tile) -> Move:
        return cls(Kind.STEAL, thief)

    @classmethod
    def recover(cls, a: Tile, b: Tile) -> Move:
        hi, lo = (a, b) if a.index >= b.index else (b, a)
        return cls(Kind.RECOVER, hi, None, False, lo)

    def unflipped(self) -> Move:
        return Move(self.kind, self.tile, self.end, self.across, self.second) if self.flip else self

    def __str__(self) -> str:
        return format_move(self)


# Moves are immutable, so the common ones exist once, made up front: listing the
# legal moves after every move then builds no objects. By tile index:
#: ``Move.play(tile, "L")``
PLAYS_L: Final = tuple(Move(Kind.PLAY, t, "L") for t in DOUBLE_SIX)
#: ``Move.play(tile, "R")``
PLAYS_R: Final = tuple(Move(Kind.PLAY, t, "R") for t in DOUBLE_SIX)
#: ``Move.lead(tile)``, the line's first tile laid unflipped
LEADS: Final = tuple(Move(Kind.PLAY, t) for t in DOUBLE_SIX)

DRAW: Final = Move(Kind.DRAW)
PASS: Final = Move(Kind.PASS)
DONE: Final = Move(Kind.DONE)
_WORDS: Final = {"draw": DRAW, "pass": PASS, "done": DONE}


def format_move(move: Move) -> str:
    kind = move.kind
    if kind in (Kind.DRAW, Kind.PASS, Kind.DONE):
        return str(kind.value)
    tile = move.tile
    assert tile is not None
    if kind is Kind.STEAL:
        return f"steal {tile}"
    if kind is Kind.RECOVER:
        return f"recover {tile} {move.second}"
    if kind is Kind.DOUBLE:
        return f"{tile}@L+{move.second}@R"
    if move.end is None:
        return f"{tile.lo}-{tile.hi}" if move.flip else str(tile)
    return f"{tile}{'x' if move.across else ''}@{move.end}"


def parse_move(text: str) -> Move:
    """Read one move in the notation; raises :class:`BadMoveText`."""
    raw = " ".join(text.strip().split())
    word = raw.lower()
    if not raw:
        raise BadMoveText(text, "empty move")
    if word in _WORDS:
        return _WORDS[word]
    head, _, rest = word.partition(" ")
    try:
        if head == "steal":
            return Move.steal(_tile(rest, text))
        if head == "recover":
            parts = rest.split(" ")
            if len(parts) != 2:
                raise BadMoveText(text, "recover names two doubles, like 'recover 5-5 1-1'")
            return Move.recover(_tile(parts[0], text), _tile(parts[1], text))
        if " " in word:
            raise BadMoveText(text, "unexpected space")
        if "+" in word:
            return _parse_double(word, text)
        return _parse_play(word, text)
    except BadTile as exc:
        raise BadMoveText(text, str(exc.params["why"])) from None


def _tile(text: str, whole: str) -> Tile:
    if not text:
        raise BadMoveText(whole, "a tile is missing")
    return Tile.parse(text)


def _split_end(word: str, whole: str) -> tuple[str, End | None]:
    if "@" not in word:
        return word, None
    body, _, end = word.partition("@")
    end = end.upper()
    if end not in ENDS:
        raise BadMoveText(whole, "the end must be L or R")
    return body, "L" if end == "L" else "R"


def _parse_play(word: str, whole: str) -> Move:
    body, end = _split_end(word, whole)
    across = body.endswith("x")
    if across:
        body = body[:-1]
        if end is None:
            raise BadMoveText(whole, "a play across needs an end, like 1-5x@R")
    a, b = parse_halves(body)
    tile = Tile(a, b)
    if end is None:
        return Move.lead(tile, flip=a < b)
    return Move.play(tile, end, across=across)


def _parse_double(word: str, whole: str) -> Move:
    parts = word.split("+")
    if len(parts) != 2:
        raise BadMoveText(whole, "a double move is two doubles, like 5-5@L+3-3@R")
    (b1, e1), (b2, e2) = (_split_end(p, whole) for p in parts)
    t1, t2 = _tile(b1, whole), _tile(b2, whole)
    if not (t1.is_double and t2.is_double) or t1 is t2:
        raise BadMoveText(whole, "a double move is two different doubles")
    if (e1, e2) == ("R", "L") or (e1 == "R" and e2 is None) or (e1 is None and e2 == "L"):
        t1, t2 = t2, t1
    elif e1 == e2 and e1 is not None:
        raise BadMoveText(whole, "the two doubles go on different ends")
    return Move.double(t1, t2)
