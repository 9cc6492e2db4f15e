"""What the full-screen table's log takes from each table screen the core draws."""

from __future__ import annotations

from typing import Any

from adapters.console.draw import line_text, screen_lines
from adapters.console.reading import TableReader
from adapters.console.yours import gained_tiles
from bot.model.contract import Screen
from bot.model.hand import hand_view
from bot.model.table import table_view
from bot.views.hand import hand_screen
from bot.views.table_screen import table_screen
from engine import State, public_view
from tests.bot.test_render import _, doc_for, drawing_deal, played, short_deal


def recent(screen: Screen) -> list[str]:
    return [line_text(line, 0.0) for line in screen.card.moves] if screen.card else []


def read(reader: TableReader, screen: Screen, ended: bool) -> list[str]:
    return reader.read(screen_lines(screen, 0.0, 10_000), ended, recent(screen)).notes


def test_the_log_tells_a_deals_last_move_before_how_it_ended_and_each_move_once() -> None:
    reader = TableReader(_)
    state, moves = played(short_deal(), "6-6", "6-4@L", "6-5@R", "4-4@L")
    during = read(reader, table_screen(_, doc_for(state, moves), public_view(state), 0.0), False)
    assert during == [
        "\u2068Anna\u2069 led with [6|6]",
        "\u2068Boris\u2069 played [6|4] on the left",
        "\u2068Anna\u2069 played [6|5] on the right",
        "\u2068Boris\u2069 played [4|4] on the left",
    ]
    state, moves = played(state, "5-5@R")
    [last, result] = read(
        reader, table_screen(_, doc_for(state, moves), public_view(state), 0.0), True
    )
    assert last == "\u2068Anna\u2069 played [5|5] on the right"
    assert result.index("\u2068Anna\u2069 went out.") < result.index("Deal 1 is over.")
    assert "played" not in result


def test_the_players_draws_in_a_row_are_one_log_entry_naming_every_tile_drawn() -> None:
    reader = TableReader(_)
    state, moves = played(drawing_deal(), "6-6")
    read(reader, table_screen(_, doc_for(state, moves), public_view(state), 0.0), False)
    hand = hand_lines(state, moves)
    drawn: list[str] = []
    for count in range(1, 4):
        state, more = played(state, "draw")
        moves += more
        before, hand = hand, hand_lines(state, moves)
        drawn += gained_tiles(hand, before)
        table = table_screen(_, doc_for(state, moves), public_view(state), 0.0)
        reading = reader.read(
            screen_lines(table, 0.0, 10_000), False, recent(table), "Boris", (hand, before)
        )
        assert reading.regrown == (count > 1)
        assert reading.notes == ["You drew " + " ".join(drawn)]
    assert len(drawn) == 3
    assert reading.told == ["\u2068Anna\u2069 led with [6|6]", "You drew " + " ".join(drawn)]


def hand_lines(state: State[Any], moves: tuple[tuple[int, str], ...]) -> list[str]:
    """Boris's hand as the terminal shows it, but its heading."""
    doc = doc_for(state, moves)
    hand, table = hand_view(doc, state, 1), table_view(doc, public_view(state))
    return screen_lines(hand_screen(_, doc, hand, table, None), 0.0)[1:]
