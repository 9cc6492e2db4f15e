"""Typed errors. Each carries a code and parameters besides its English text,
so a front end can say the same thing in the player's language."""

from __future__ import annotations

from collections.abc import Mapping


class DominoError(ValueError):
    """Base of every error the engine raises for bad input."""

    code = "error"

    def __init__(self, message: str, **params: object) -> None:
        super().__init__(message)
        self.message = message
        self.params: Mapping[str, object] = params


class BadTile(DominoError):
    code = "bad_tile"

    def __init__(self, text: str, why: str) -> None:
        super().__init__(f"bad tile {text!r}: {why}", text=text, why=why)


class BadMoveText(DominoError):
    code = "bad_move_text"

    def __init__(self, text: str, why: str) -> None:
        super().__init__(f"bad move {text!r}: {why}", text=text, why=why)


class BadOption(DominoError):
    code = "bad_option"


class UnknownVariant(DominoError):
    code = "unknown_variant"

    def __init__(self, name: str, known: list[str]) -> None:
        super().__init__(
            f"unknown game {name!r}; known games: {', '.join(known)}",
            name=name,
            known=", ".join(known),
        )


class BadFixture(DominoError):
    """A scripted deal that the rules cannot produce."""

    code = "bad_fixture"


class IllegalMove(DominoError):
    """A move the rules do not allow now. ``reason`` is a short code."""

    code = "illegal_move"

    def __init__(self, message: str, reason: str = "illegal", **params: object) -> None:
        super().__init__(message, **params)
        self.reason = reason


class NotYourTurn(IllegalMove):
    code = "not_your_turn"

    def __init__(self, seat: int, turn: int | None) -> None:
        if turn is None:
            message = f"seat {seat} cannot move: nobody is to move"
        else:
            message = f"seat {seat} cannot move: it is seat {turn}'s turn"
        super().__init__(message, "not_your_turn", seat=seat, turn=turn)


class GameOver(IllegalMove):
    code = "game_over"

    def __init__(self, what: str) -> None:
        super().__init__(f"the {what} is over", "game_over", what=what)
