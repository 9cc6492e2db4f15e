"""What the full-screen table's log takes from each table screen the core draws."""

from __future__ import annotations

from adapters.console.draw import line_text, screen_lines
from adapters.console.reading import TableReader
from bot.contract import Screen
from bot.render import table_screen
from engine import public_view
from tests.bot.test_render import _, doc_for, played, short_deal


def read(reader: TableReader, screen: Screen, ended: bool) -> list[str]:
    moves = [line_text(line, 0.0) for line in screen.card.moves] if screen.card else []
    return reader.read(screen_lines(screen, 0.0, 10_000), ended, moves).notes


def test_the_log_tells_a_deals_last_move_before_how_it_ended_and_each_move_once() -> None:
    reader = TableReader(_)
    state, moves = played(short_deal(), "6-6", "6-4@L", "6-5@R", "4-4@L")
    during = read(reader, table_screen(_, doc_for(state, moves), public_view(state), 0.0), False)
    assert during == [
        "Anna led with [6|6]",
        "Boris played [6|4] on the left",
        "Anna played [6|5] on the right",
        "Boris played [4|4] on the left",
    ]
    state, moves = played(state, "5-5@R")
    [last, result] = read(
        reader, table_screen(_, doc_for(state, moves), public_view(state), 0.0), True
    )
    assert last == "Anna played [5|5] on the right"
    assert result.index("Anna went out.") < result.index("Deal 1 is over.")
    assert "played" not in result
