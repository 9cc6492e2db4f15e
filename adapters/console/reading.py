"""What the terminal makes of each table show the core sends: its title, the board to
show, and the entries to add to the log of moves.

The log is told from the show's events (see :class:`~bot.model.contract.Show`), those
newer than the last one read, worded from the table's model (:mod:`bot.views.event_words`);
the core's text is never read back. The board is the core's screen, but the recent moves,
which the log holds, while a deal is played; at a deal's end its closing lines (how it
ended, the points, who won) are worded from the model, which also goes into the log once.
With one person at the keyboard, what the table says about him is said to him.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rich.text import Text

from adapters.console.draw import line_text
from adapters.console.marks import Mark, board_text, laid, line_mark, placed_written, replaced
from adapters.console.seating import Table
from bot.model.contract import Card, TextLine
from bot.model.events import (
    Blocked,
    DealScored,
    Drew,
    MatchEnded,
    TableEvent,
    WentOut,
)
from bot.model.hand import HandView
from bot.model.parts import TileRef
from bot.model.table import TableView
from bot.views.event_words import EventWords, seat_names
from bot.views.i18n import Translator
from bot.views.table_words import deal_result, table_facts

_KEPT = 16  # the log's entries of moves kept, more than the table's recent moves
_DEAL_END = (WentOut, Blocked, DealScored, MatchEnded)  # what a finished deal's table says


@dataclass(frozen=True, slots=True)
class Reading:
    title: str
    board: Text
    notes: list[str]  # new entries for the log, oldest first
    regrown: bool = False  # the first note is the log's last entry told anew
    lines: list[str] = field(default_factory=list)  # the table's, as told to the player


@dataclass(slots=True)
class _Run:
    """The log's last entry, a player's draws in a row, and the tiles it named."""

    drew: Drew
    tiles: tuple[TileRef, ...]


@dataclass(slots=True)
class TableReader:
    """Reads each new table show against what it read before."""

    _: Translator
    _told: list[str] = field(default_factory=list)  # the log's last entries of moves
    _run: _Run | None = None  # the last entry, if it tells draws in a row
    _hand: HandView | None = None  # the one player's hand as last read
    _ended: bool = False  # the table shows a finished deal
    _laid: tuple[TileRef, ...] = ()  # the tiles the last move laid on the line
    _seen: int | None = None  # the version of the newest event read

    def read(
        self,
        lines: Sequence[str],
        ended: bool,
        card: Card | None = None,
        you: int | None = None,
        hand: HandView | None = None,
        model: TableView | None = None,
        events: Sequence[TableEvent] = (),
        now: float = 0.0,
    ) -> Reading:
        """``lines``: the table's, heading first, at ``now``; ``ended``: it shows a
        finished deal or match; ``card``: the same screen in parts, which say where its
        lines hold the facts under its line, its recent moves and its closing lines;
        ``you``: the seat of the one player, if one alone is at the keyboard, and
        ``hand`` his hand's model; ``model`` and ``events``: the table's model and what
        happened, as the table's show carried them."""
        words = EventWords(self._, seat_names(self._, model), you) if model is not None else None
        title, body = (lines[0], list(lines[1:])) if lines else ("", [])
        new = [e for e in events if self._seen is None or e.version > self._seen]

        def texts(parts: Sequence[TextLine]) -> list[str]:
            return [line_text(line, now) for line in parts]

        facts, moves, closing = (
            (texts(card.body[1:]), texts(card.moves), texts(card.closing))
            if card is not None
            else ([], [], [])
        )
        result: list[str] = []
        if words is not None and model is not None:
            body = replaced(body, facts, table_facts(words, model))
            result = texts(deal_result(words, model))
        if result:
            # What the core adds under the deal's end (how the ratings moved) stays.
            result += closing[len(result) :]
            body = replaced(body, closing, result)
        notes, regrown = self._notes(words, new, hand, model, ended and not self._ended)
        if ended and not self._ended and model is not None and result:
            line = "".join(placed_written(placed) for placed in model.line)
            said = [self._("Line: %(tiles)s", tiles=line)] if line else []
            notes.append("\n".join([*said, *result]))
            self._run = None
        self._ended = ended
        self._hand = hand
        told = self._told[-len(moves) :] if moves else []
        shown = replaced(body, moves, told) if len(told) == len(moves) else body
        # A finished deal's table shows it all: the last moves, the result, who won.
        board = shown if ended else replaced(body, moves, [])
        mark = self._mark(model, events)
        return Reading(title, board_text(board, mark), notes, regrown, [title, *shown])

    def _notes(
        self,
        words: EventWords | None,
        new: Sequence[TableEvent],
        hand: HandView | None,
        model: TableView | None,
        result_follows: bool,
    ) -> tuple[list[str], bool]:
        """The log entries for the ``new`` events, and whether the first tells the
        log's last entry anew (the same player's draws in a row, one more)."""
        if words is None:
            return [], False
        drawn = self._gained(hand)
        notes: list[str] = []
        regrown = False
        run = self._run
        if new and isinstance(new[0], Drew) and _grows(run, new[0]):
            assert run is not None
            drawn = (*run.tiles, *drawn)
            regrown = True
        for event, said in words.told(new, drawn, model):
            if result_follows and isinstance(event, _DEAL_END):
                continue  # the deal's result says it, worded from the model
            if isinstance(event, Drew):
                named = event.seat == words.you and len(drawn) == event.count
                self._run = _Run(event, tuple(drawn) if named else ())
            else:
                self._run = None
            notes.append(said)
        if regrown and self._told:
            self._told.pop()
        self._told = [*self._told, *notes][-_KEPT:]
        return notes, regrown

    def _gained(self, hand: HandView | None) -> tuple[TileRef, ...]:
        """The tiles the player's hand holds that it did not when last read (in the
        same deal): those he drew since."""
        before = self._hand
        if hand is None or before is None or (before.deal, before.seat) != (hand.deal, hand.seat):
            return ()
        return tuple(tile for tile in hand.tiles if tile not in before.tiles)

    def _mark(self, model: TableView | None, events: Sequence[TableEvent]) -> Mark | None:
        """Where the tiles the last move laid are in the model's line: those the events
        newer than the last read say were played, else the last ones marked."""
        if events:
            now = laid(events, self._seen)
            if now is not None:
                self._laid = now
            self._seen = max(event.version for event in events)
        if model is None:
            return None
        return line_mark(model.line, self._laid)


def _grows(run: _Run | None, drew: Drew) -> bool:
    """``drew`` is the draws in a row that the log's last entry, ``run``, told, and more."""
    if run is None or run.drew.timed_out or drew.timed_out:
        return False
    return run.drew.seat == drew.seat and drew.count > run.drew.count


def read_table(reader: TableReader, table: Table, now: float) -> Reading:
    """``table``'s latest show, as ``reader`` reads it, told to its one player if one
    alone is at the keyboard."""
    screens = table.screens
    screen = screens.table
    assert screen is not None

    hand = table.your_hand
    return reader.read(
        [line_text(line, now) for line in screen.lines],
        screens.next_deal() is not None or screens.over(),
        screen.card,
        hand.seat if hand is not None else None,
        hand,
        screens.model,
        screens.events,
        now,
    )
