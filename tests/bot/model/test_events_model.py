"""The events of a table, read from the moves the game document stores: what each move
did, typed, with the version it happened at, and as JSON that reads back the same."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from bot.model.events import (
    Blocked,
    DealScored,
    DealStarted,
    Drew,
    Events,
    MatchEnded,
    Penalty,
    Played,
    StoleCaravan,
    TookToken,
    WentOut,
    events_since,
)
from bot.model.gamedoc import GameDoc
from engine import State
from tests.bot.model.games import TABLES, positions, random_game


def whole_game(number: int, seed: int) -> tuple[GameDoc, State[Any]]:
    """A match of table ``number`` played to its end."""
    *_, last = positions(random.Random(seed), number)
    return last


def test_events_read_back_from_json_as_the_same_events() -> None:
    rng = random.Random(31)
    kinds: Counter[str] = Counter()
    for _ in range(150):
        doc, _state = random_game(rng)
        found = events_since(doc)
        assert Events.model_validate_json(Events(found).model_dump_json()).root == found
        kinds.update(type(e).__name__ for e in found)
    assert {"DealStarted", "Played", "Drew", "Passed", "DealScored"} <= set(kinds)


def test_a_whole_match_tells_each_tile_played_each_deal_and_the_match_s_end() -> None:
    for number, (variant, _players, _options) in enumerate(TABLES):
        doc, state = whole_game(number, 40 + number)
        found = events_since(doc)
        versions = [e.version for e in found]
        assert versions == sorted(versions) and versions[-1] == doc.step
        started = [e for e in found if isinstance(e, DealStarted)]
        scored = [e for e in found if isinstance(e, DealScored)]
        assert [e.deal for e in started] == list(range(1, len(doc.deals) + 1)), variant
        assert [e.deal for e in scored] == [e.deal for e in started], variant
        assert state.result is not None and scored[-1].points == state.result.scores
        endings = [e for e in found if isinstance(e, WentOut | Blocked)]
        assert len(endings) == len(scored)
        ended = [e for e in found if isinstance(e, MatchEnded)]
        assert len(ended) == 1 and ended[0].winners == state.winners
        drawn = sum(e.count for e in found if isinstance(e, Drew))
        assert drawn == sum(1 for _seat, text in doc.moves if text == "draw"), variant
        tiles = sum(1 for e in found if isinstance(e, Played))
        written = sum(1 + text.count("+") for _seat, text in doc.moves if text[0].isdigit())
        assert tiles == written, variant


def test_a_run_of_draws_by_one_seat_is_one_event_that_counts_them() -> None:
    for seed in range(200):
        doc, _state = whole_game(0, seed)  # Tyaga, where one draws until a tile fits
        runs: list[int] = []
        previous = None
        for index, (seat, text) in enumerate(doc.moves):
            if text != "draw":
                previous = None
                continue
            joined = previous == seat and not {index - 1, index} & set(doc.timed_out)
            if joined:
                runs[-1] += 1
            else:
                runs.append(1)
            previous = seat
        if max(runs, default=0) > 1:
            assert [e.count for e in events_since(doc) if isinstance(e, Drew)] == runs
            return
    raise AssertionError("no game drew twice in a row")


def test_events_since_a_version_are_those_after_it() -> None:
    doc, _state = whole_game(2, 50)
    every = events_since(doc)
    assert events_since(doc, doc.step) == ()
    for since in range(0, doc.step, 7):
        later = events_since(doc, since)
        assert later and all(e.version > since for e in later)
        assert {e.version for e in later} == {e.version for e in every if e.version > since}


def test_three_guns_tells_the_token_and_baghdad_the_caravan_stolen_and_the_penalty() -> None:
    guns = next(i for i, t in enumerate(TABLES) if t[0] == "three_guns")
    baghdad = next(i for i, t in enumerate(TABLES) if t[0] == "baghdad")
    doc, state = whole_game(guns, 60)
    tokens = [e for e in events_since(doc) if isinstance(e, TookToken)]
    assert tokens and sum(1 for e in tokens if e.seat == state.winners[0]) >= 4
    for seed in range(100):
        doc, state = whole_game(baghdad, seed)
        found = events_since(doc)
        stolen = [e for e in found if isinstance(e, StoleCaravan)]
        steals = [text for _seat, text in doc.moves if text.startswith("steal")]
        assert [f"steal {e.thief.hi}-{e.thief.lo}" for e in stolen] == steals
        penalties = [e for e in found if isinstance(e, Penalty)]
        if stolen and penalties:
            return
    raise AssertionError("no Baghdad game both stole a caravan and took a penalty")
