"""What the full-screen table's log takes from each table show the core sends: the
entries are told from the show's events and the table's model, never read back from
the screen's text."""

from __future__ import annotations

from typing import Any

from adapters.console.draw import screen_lines
from adapters.console.reading import Reading, TableReader
from bot.model.gamedoc import GameDoc
from bot.model.hand import HandView, hand_view
from bot.model.parts import TileRef
from bot.model.table import table_view
from bot.table.models import table_events
from bot.views.table_screen import table_screen
from engine import State, public_view
from tests.bot.test_render import _, drawing_deal, played, short_deal
from tests.bot.test_render import doc_for as bare_doc

BORIS = 1


def read(
    reader: TableReader,
    state: State[Any],
    moves: tuple[tuple[int, str], ...],
    since: int,
    you: int | None = None,
) -> Reading:
    """The table of ``state`` after ``moves``, read as its show carries it: the events
    after version ``since``; ``you``: the seat of the one player at the keyboard."""
    doc = doc_for(state, moves)
    model = table_view(doc, public_view(state))
    screen = table_screen(_, doc, model)
    return reader.read(
        screen_lines(screen, 0.0, 10_000),
        state.deal_over,
        screen.card,
        you,
        hand(doc, state) if you is not None else None,
        model,
        table_events(doc, since),
    )


def doc_for(state: State[Any], moves: tuple[tuple[int, str], ...]) -> GameDoc:
    """The game's document, with the deals' hand size its moves are replayed with."""
    return bare_doc(state, moves).but(options={"hand_size": 3})


def hand(doc: GameDoc, state: State[Any]) -> HandView:
    return hand_view(doc, state, BORIS)


def test_the_log_tells_a_deals_last_move_before_how_it_ended_and_each_move_once() -> None:
    reader = TableReader(_)
    state, moves = played(short_deal(), "6-6", "6-4@L", "6-5@R", "4-4@L")
    during = read(reader, state, moves, 0).notes
    assert during == [
        "\u2068Anna\u2069 led with [6|6]",
        "\u2068Boris\u2069 played [6|4] on the left",
        "\u2068Anna\u2069 played [6|5] on the right",
        "\u2068Boris\u2069 played [4|4] on the left",
    ]
    assert read(reader, state, moves, 0).notes == []  # the same show again tells nothing new
    state, more = played(state, "5-5@R")
    [last, result] = read(reader, state, moves + more, 4).notes
    assert last == "\u2068Anna\u2069 played [5|5] on the right"
    assert result.startswith("Line: [4|4][4|6][6|6][6|5][5|5]\n")
    assert result.index("\u2068Anna\u2069 went out.") < result.index("Deal 1 is over.")
    assert "• \u2068Anna\u2069: 0 tiles · 7 points this deal, 7 points in all" in result
    assert "played" not in result


def test_the_board_of_a_finished_deal_says_it_as_the_core_does_to_another_seat() -> None:
    """Told to nobody in particular, the closing lines worded from the model are the
    core's own; told to the winner, his are said to him."""
    state, moves = played(short_deal(), "6-6", "6-4@L", "6-5@R", "4-4@L", "5-5@R")
    core = screen_lines(
        table_screen(
            _, doc_for(state, moves), table_view(doc_for(state, moves), public_view(state))
        ),
        0.0,
    )
    assert read(TableReader(_), state, moves, 0).lines == core
    anna = read(TableReader(_), state, moves, 0, you=0).lines
    assert "You went out." not in anna  # going out has no second person: the name says it
    assert anna == core


def test_the_players_draws_in_a_row_are_one_log_entry_naming_every_tile_drawn() -> None:
    reader = TableReader(_)
    state, moves = played(drawing_deal(), "6-6")
    read(reader, state, moves, 0, you=BORIS)
    held = list(hand(doc_for(state, moves), state).tiles)
    drawn: list[TileRef] = []  # in the order drawn
    for count in range(1, 4):
        since = len(moves)
        state, more = played(state, "draw")
        moves += more
        reading = read(reader, state, moves, since, you=BORIS)
        now = hand(doc_for(state, moves), state).tiles
        drawn += [tile for tile in now if tile not in held]
        held = list(now)
        assert len(drawn) == count
        assert reading.regrown == (count > 1)
        told = "You drew " + " ".join(f"[{t.hi}|{t.lo}]" for t in drawn)
        assert reading.notes == [told]
    # The table's recent moves are told to him too.
    assert reading.lines[-3:] == [
        "\u2068Anna\u2069 led with [6|6]",
        told,
        "\u2068Boris\u2069 to move",
    ]


def test_anothers_draws_in_a_row_are_one_entry_that_never_names_the_tiles() -> None:
    reader = TableReader(_)
    state, moves = played(drawing_deal(), "6-6")
    read(reader, state, moves, 0, you=0)
    said = []
    for _count in range(3):
        since = len(moves)
        state, more = played(state, "draw")
        moves += more
        reading = read(reader, state, moves, since, you=0)
        said.append((reading.regrown, reading.notes))
    assert said == [
        (False, ["\u2068Boris\u2069 drew a tile"]),
        (True, ["\u2068Boris\u2069 drew 2 tiles"]),
        (True, ["\u2068Boris\u2069 drew 3 tiles"]),
    ]
