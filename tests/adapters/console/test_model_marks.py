"""The terminal marks what just happened from the table's model and its events: the
tiles the last move laid on the line, and the tiles a hand just drew, in every game."""

from __future__ import annotations

import random

from rich.text import Text

import engine
from adapters.console.draw import screen_lines
from adapters.console.marks import NEW, hand_text
from adapters.console.reading import TableReader
from bot.model.hand import hand_view
from bot.model.table import table_view
from bot.table.models import table_events
from bot.views.hand import hand_screen
from bot.views.i18n import translator
from bot.views.table_screen import table_screen
from engine import Tile
from tests.bot.model.games import GAMES, TABLES, positions

_ = translator("en")
STEPS = 120  # positions of each table's match that are read


def marked(text: Text) -> list[str]:
    """The pieces of a rich text that are marked as new."""
    return [text.plain[s.start : s.end] for s in text.spans if str(s.style) == NEW]


def test_the_fixtures_hold_all_four_games() -> None:
    assert {TABLES[number][0] for number in range(len(TABLES))} == set(GAMES)


def test_the_tiles_the_last_move_laid_are_marked_on_the_line_in_every_game() -> None:
    laid_somewhere = 0
    for number in range(len(TABLES)):
        reader = TableReader(_)
        expected: set[Tile] = set()
        before: tuple[Tile, ...] = ()
        deal, since = 0, 0
        for step, (doc, state) in enumerate(positions(random.Random(number), number)):
            if step == STEPS:
                break
            view = engine.public_view(state)
            line = tuple(Tile(p.left, p.right) for p in view.line)
            if state.deal_number != deal:
                expected, before, deal = set(), (), state.deal_number
            added = set(line) - set(before)
            if added:
                expected = added
            before = line
            model = table_view(doc, view)
            screen = table_screen(_, doc, model)
            reading = reader.read(
                screen_lines(screen, 0.0, 10_000),
                state.deal_over,
                model=model,
                events=table_events(doc, since),
            )
            since = doc.step
            on_line = {
                f"[{p.left}|{p.right}]" for p in view.line if Tile(p.left, p.right) in expected
            }
            assert sorted(marked(reading.board)) == sorted(on_line), (number, step)
            laid_somewhere += bool(on_line)
    assert laid_somewhere > 100


def test_the_tiles_a_hand_just_drew_are_marked_in_every_game() -> None:
    drew = 0
    for number in range(len(TABLES)):
        earlier = None
        for step, (doc, state) in enumerate(positions(random.Random(100 + number), number)):
            if step == STEPS:
                break
            seat = 0
            model = hand_view(doc, state, seat)
            table = table_view(doc, engine.public_view(state))
            lines = screen_lines(hand_screen(_, doc, model, table, None), 0.0)
            shown = marked(hand_text(lines, model, earlier))
            new = set(state.hands[seat]) - (
                {Tile(t.hi, t.lo) for t in earlier.tiles}
                if earlier is not None and earlier.deal == model.deal
                else set(state.hands[seat])
            )
            assert sorted(shown) == sorted(f"[{t.hi}|{t.lo}]" for t in new), (number, step)
            drew += len(new)
            earlier = model
    assert drew > 10
