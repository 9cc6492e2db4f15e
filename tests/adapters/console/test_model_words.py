"""The terminal words its log and its deal's end from the table's model and events:
told to nobody in particular, they read as the core's own screen, in every game, at
every position of a match (timed-out moves, players away and computers included)."""

from __future__ import annotations

import itertools
import random

import engine
from adapters.console.draw import screen_lines
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
                model = table_view(doc, engine.public_view(state))
                screen = table_screen(_, doc, model)
                reading = reader.read(
                    screen_lines(screen, NOW, 10_000),
                    state.deal_over,
                    screen.card,
                    model=model,
                    events=table_events(doc, since),
                    now=NOW,
                )
                since = doc.step
                assert reading.lines == screen_lines(screen, NOW, 10_000), (lang, number, step)
                ends += state.deal_over
        assert ends > 10


def test_the_table_told_to_its_one_player_says_what_is_his_to_him() -> None:
    """Seat 0 is a person's, whom the table names ``Player 0``: told to him, the lines
    about him change and no other does."""
    _ = translator("en")
    him = "\u2068Player 0\u2069"
    kinds = (
        "Stolen by you with",
        "You take the deal.",
        "You are the goat.",
        "The match is over. You won",
    )
    said: set[str] = set()
    for number, seed in itertools.product(range(len(TABLES)), range(2)):
        reader = TableReader(_)
        since = 0
        for doc, state in positions(random.Random(seed * 100 + number), number):
            model = table_view(doc, engine.public_view(state))
            screen = table_screen(_, doc, model)
            core = screen_lines(screen, NOW, 10_000)
            events = table_events(doc, since)
            lines = reader.read(
                core, state.deal_over, screen.card, 0, None, model, events, NOW
            ).lines
            since = doc.step
            assert not [line for line in lines if f"by {him}" in line or f"to {him}." in line]
            changed = [line for line in lines if line not in core]
            assert all(line.startswith(kinds) for line in changed), changed
            said.update(kind for kind in kinds for line in changed if line.startswith(kind))
            if state.match_over and 0 in state.winners:
                assert any(line.startswith("The match is over. You won") for line in lines)
    assert said == set(kinds)
