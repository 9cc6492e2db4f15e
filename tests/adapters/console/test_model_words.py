"""The terminal words its log and its deal's end from the table's model and events:
told to nobody in particular, they read as the core's own screen, in every game, at
every position of a match (timed-out moves, players away and computers included)."""

from __future__ import annotations

import random

import engine
from adapters.console.draw import line_text, screen_lines
from adapters.console.reading import TableReader
from bot.model.table import table_view
from bot.table.models import table_events
from bot.views.i18n import translator
from bot.views.table_screen import table_screen
from tests.bot.model.games import TABLES, positions

NOW = 1500.0  # between a turn's deadline and the next deal's, as the fixtures set them


def test_the_table_told_from_the_model_reads_as_the_cores_in_every_game() -> None:
    for lang in ("en", "ru"):
        _ = translator(lang)
        ends = 0
        for number in range(len(TABLES)):
            reader = TableReader(_)
            since = 0
            for step, (doc, state) in enumerate(positions(random.Random(7 + number), number)):
                view = engine.public_view(state)
                screen = table_screen(_, doc, view, NOW)
                card = screen.card
                assert card is not None
                reading = reader.read(
                    screen_lines(screen, NOW, 10_000),
                    state.deal_over,
                    [line_text(line, NOW) for line in card.moves],
                    [line_text(line, NOW) for line in card.closing],
                    model=table_view(doc, view),
                    events=table_events(doc, since),
                    now=NOW,
                )
                since = doc.step
                assert reading.lines == screen_lines(screen, NOW, 10_000), (lang, number, step)
                ends += state.deal_over
        assert ends > 10
