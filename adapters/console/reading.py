"""What the full-screen table makes of each table screen the core sends: its
title, the board to show, and the entries to add to the log of moves.

The log is the list of moves, so the board leaves the table's recent moves out
while a deal is played; a finished deal's result goes into the log once, without
the moves the log already holds. With one person at the keyboard, what the table
says about him is said to him (see :mod:`adapters.console.yours`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial

from rich.text import Text

from adapters.console.marks import Mark, board_text, laid, line_mark, new_moves, without_moves
from adapters.console.yours import TILE, drawn_in_a_row, own_draws, said_to_you
from bot.model.contract import isolated
from bot.model.events import TableEvent
from bot.model.parts import TileRef
from bot.model.table import TableView
from bot.views.i18n import Translator


@dataclass(frozen=True, slots=True)
class Reading:
    title: str
    board: Text
    notes: list[str]  # new entries for the log, oldest first
    regrown: bool = False  # the first note is the log's last entry told anew
    told: list[str] = field(default_factory=list)  # the recent moves, as told to the player


@dataclass(slots=True)
class TableReader:
    """Reads each new table screen against the one before it."""

    _: Translator
    _lines: list[str] = field(default_factory=list)  # the table's, but the recent moves
    _moves: list[str] = field(default_factory=list)
    _told: list[str] = field(default_factory=list)  # the recent moves as told to the player
    _drawn: list[str] = field(default_factory=list)  # tiles the last entry named as drawn
    _ended: bool = False  # the table shows a finished deal
    _laid: tuple[TileRef, ...] = ()  # the tiles the last move laid on the line
    _seen: int | None = None  # the version of the newest event read

    def read(
        self,
        lines: Sequence[str],
        ended: bool,
        moves: Sequence[str] = (),
        you: str | None = None,
        hand: tuple[Sequence[str], Sequence[str]] = ((), ()),
        model: TableView | None = None,
        events: Sequence[TableEvent] = (),
    ) -> Reading:
        """``lines``: the table's, heading first; ``ended``: it shows a finished deal
        or match; ``moves``: the recent moves it lists among its lines; ``you``: the
        one player's name, if one alone is at the keyboard; ``hand``: his hand's lines
        now and as last shown, to name what he drew; ``model`` and ``events``: the
        table's model and what happened, as the table's show carried them."""
        _ = self._
        if you is not None:
            you = isolated(you)  # as the core's sentences write a name
            lines = [said_to_you(_, you, line) for line in lines]
        title, body = (lines[0], list(lines[1:])) if lines else ("", [])
        rest = without_moves(body, moves)
        notes, regrown = new_moves(moves, self._moves, partial(_grew, _))
        if you is not None:
            earlier = self._drawn if regrown else []
            named = own_draws(_, you, notes, *hand, earlier=earlier)
            last = drawn_in_a_row(_, notes[-1]) if notes else None
            drew = last is not None and last[0] == you and named[-1] != notes[-1]
            self._drawn = TILE.findall(named[-1]) if drew else []
            notes = named
        kept = self._told[:-1] if regrown else self._told
        self._told = [*kept, *notes][-len(moves) :] if moves else []
        if ended and not self._ended:  # the deal's result, as the table shows it
            notes.append("\n".join(rest))
        self._ended = ended
        self._lines, self._moves = rest, list(moves)
        # A finished deal's table shows it all: the last moves, the result, who won.
        board = body if ended else rest
        return Reading(
            title, board_text(board, self._mark(model, events)), notes, regrown, list(self._told)
        )

    def _mark(self, model: TableView | None, events: Sequence[TableEvent]) -> Mark | None:
        """Where the tiles the last move laid are in the model's line: those the events
        newer than the last read say were played, else the last ones marked."""
        if model is None:
            return None
        now = laid(events, self._seen)
        if now is not None:
            self._laid = now
        if events:
            self._seen = max(event.version for event in events)
        return line_mark(model.line, self._laid)


def _grew(_: Translator, old: str, new: str) -> bool:
    """Whether ``new`` tells more draws in a row by the player ``old`` tells of."""
    before, after = drawn_in_a_row(_, old), drawn_in_a_row(_, new)
    return before is not None and after is not None and before[0] == after[0]
