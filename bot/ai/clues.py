"""What the table has shown about hidden hands: tiles a seat cannot be holding.

Every seat sees the same moves. A seat that draws in Tyaga or Kozel has nothing
for either open end; a seat that passes has nothing for either end (in Three
Guns: nothing the ends accept and no musketeer or d'Artagnan, which always go).
A Thief of Baghdad draw is a choice and says nothing. These facts are read
from the moves' text alone, tracking the open ends as the moves lay tiles, so
they come from nothing a seat could not see.

A clue is a bitmask over tile indices (the simulators' masks). A draw brings
in tiles nobody has seen, so in a game with drawing a seat's clue after a draw
is only what that draw showed; a pass can only come once the boneyard is empty,
so passes add up.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine import Kind, Move, get_variant, parse_move
from engine.playout.codes import FIT
from engine.playout.guns import ACROSS_MASK, fit_mask
from engine.variants.three_guns_ends import across_end, normal_end

Values = tuple[int, ...]


def clues(variant: str, players: int, moves: Iterable[tuple[int, str]]) -> tuple[int, ...]:
    """The tiles each seat cannot hold, from the moves of the deal so far."""
    game = get_variant(variant)
    if game.plays_across:  # an end accepts what adds up to six with what it shows
        return _guns_clues(players, moves)
    lacks = [0] * players
    ends: tuple[int, int] | None = None
    for seat, text in moves:
        move = parse_move(text)
        if move.kind is Kind.DRAW and not game.draws_at_will:
            assert ends is not None
            lacks[seat] = FIT[ends[0]] | FIT[ends[1]]
        elif move.kind is Kind.PASS and ends is not None:
            lacks[seat] |= FIT[ends[0]] | FIT[ends[1]]
        elif move.kind is Kind.STEAL:
            ends = None  # the caravan closes; the next camel starts another
        elif move.kind is Kind.PLAY:
            ends = ends_after(ends, move)
    return tuple(lacks)


def ends_after(ends: tuple[int, int] | None, move: Move) -> tuple[int, int]:
    """The line's open ends once ``move``, a tile laid, is played on ``ends`` (none
    before the first tile)."""
    tile = move.tile
    assert tile is not None
    if ends is None:
        return (tile.lo, tile.hi) if move.flip else (tile.hi, tile.lo)
    left, right = ends
    if move.end == "L":
        return tile.other(left), right
    return left, tile.other(right)


def _guns_clues(players: int, moves: Iterable[tuple[int, str]]) -> tuple[int, ...]:
    lacks = [0] * players
    shows: list[Values] = [(), ()]
    accepts: list[Values] = [(), ()]
    for seat, text in moves:
        move = parse_move(text)
        if move.kind is Kind.PASS:
            lacks[seat] |= ACROSS_MASK | fit_mask(accepts[0]) | fit_mask(accepts[1])
            continue
        tile = move.tile
        if move.kind is not Kind.PLAY or tile is None:
            continue
        if not shows[0]:
            left, right = (tile.lo, tile.hi) if move.flip else (tile.hi, tile.lo)
            (shows[0], accepts[0]), (shows[1], accepts[1]) = normal_end(left), normal_end(right)
            continue
        side = 0 if move.end == "L" else 1
        if move.across:
            shows[side], accepts[side] = across_end(tile, shows[side])
        else:
            touching = tile.hi if tile.hi in accepts[side] else tile.lo
            shows[side], accepts[side] = normal_end(tile.other(touching))
    return tuple(lacks)
