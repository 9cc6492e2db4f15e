"""The refusals every game words alike, so a player reads the same text (and a
front end finds the same reason code) whichever game is on the table."""

from __future__ import annotations

from engine.dealing import fit_error_text
from engine.errors import IllegalMove
from engine.moves import Move
from engine.tiles import Tile


def not_in_hand(tile: Tile) -> IllegalMove:
    return IllegalMove(f"{tile} is not in your hand", "not_in_hand", tile=str(tile))


def does_not_fit(tile: Tile, ends: tuple[int, int]) -> IllegalMove:
    """A tile that may not go where it was played; the text shows both open ends."""
    left, right = ends
    return IllegalMove(
        fit_error_text(tile, ends), "does_not_fit", tile=str(tile), left=left, right=right
    )


def not_a_move_in(game: str, move: Move) -> IllegalMove:
    """A kind of move ``game`` does not have at all."""
    return IllegalMove(f"{move} is not a move in {game}", "wrong_kind", move=str(move))
