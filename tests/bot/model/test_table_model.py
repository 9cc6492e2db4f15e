"""The table's model: built from the view for no seat, it says what every seat sees,
and its JSON form reads back as the same model over many positions of all four games."""

from __future__ import annotations

import random

import pytest
from pydantic import ValidationError

import engine
from bot.model.table import TableView, table_view
from tests.bot.model.games import GAMES, TABLES, positions, random_game


def test_the_json_form_reads_back_as_the_same_model_over_many_positions() -> None:
    rng = random.Random(11)
    seen = set()
    for _ in range(400):
        doc, state = random_game(rng)
        table = table_view(doc, engine.public_view(state))
        assert TableView.model_validate_json(table.model_dump_json()) == table
        seen.add(table.game)
    assert seen == set(GAMES)


def test_the_table_says_what_the_engine_shows_every_seat() -> None:
    rng = random.Random(5)
    for number in range(len(TABLES)):
        for doc, state in positions(rng, number):
            view = engine.public_view(state)
            table = table_view(doc, view)
            assert table.version == doc.step
            assert [(t.left, t.right, t.across) for t in table.line] == list(view.line)
            assert [t.position for t in table.line] == list(range(len(view.line)))
            assert table.boneyard == len(state.boneyard)
            assert [s.tiles for s in table.seats] == [len(h) for h in state.hands]
            assert [s.total for s in table.seats] == list(state.match_scores)
            if state.deal_over:
                assert table.turn is None
                assert state.result is not None
                assert table.deal_result is not None
                assert table.deal_result.points == state.result.scores
                assert [s.deal_points for s in table.seats] == list(state.result.scores)
            else:
                assert table.turn is not None and table.turn.seat == state.turn
                assert table.deal_result is None
            if state.ends is None:
                assert table.ends is None
            else:
                assert table.ends is not None
                shows = tuple(end.shows for end in table.ends)
                if table.game != "three_guns":
                    assert shows == ((state.ends[0],), (state.ends[1],))
                    assert tuple(end.accepts for end in table.ends) == shows


def test_every_tile_the_seat_to_move_may_lay_on_an_end_has_a_half_the_end_accepts() -> None:
    rng = random.Random(8)
    checked = 0
    for number in range(len(TABLES)):
        for doc, state in positions(rng, number):
            table = table_view(doc, engine.public_view(state))
            if table.ends is None:
                continue
            accepts = {end.side: end.accepts for end in table.ends}
            for move in engine.legal_moves(state):
                if move.kind is engine.Kind.PLAY and move.end and not move.across:
                    assert move.tile is not None
                    assert move.tile.hi in accepts[move.end] or move.tile.lo in accepts[move.end]
                    checked += 1
    assert checked > 100


def test_three_guns_counts_tokens_and_each_seat_holds_its_own() -> None:
    rng = random.Random(2)
    table_number = next(i for i, t in enumerate(TABLES) if t[0] == "three_guns")
    checked = 0
    for doc, state in positions(rng, table_number):
        table = table_view(doc, engine.public_view(state))
        assert table.parts.game == "three_guns"
        assert table.unit == "tokens"
        assert [s.tokens for s in table.seats] == list(table.parts.tokens)
        checked += 1
    assert checked


def test_a_finished_kozel_match_names_its_goats_and_winners() -> None:
    rng = random.Random(3)
    table_number = next(i for i, t in enumerate(TABLES) if t[0] == "kozel")
    *_, (doc, state) = positions(rng, table_number)
    table = table_view(doc, engine.public_view(state))
    assert table.lower_wins
    assert table.status == "finished"
    assert table.match_result is not None
    assert table.match_result.winners == state.winners
    goats = [s.seat for s in table.seats if s.goat]
    assert goats and goats == list(table.match_result.goats)
    assert all(state.match_scores[g] >= 25 for g in goats)


def test_a_deadline_is_the_turn_s_while_a_deal_is_played_and_the_next_deal_s_between() -> None:
    rng = random.Random(4)
    for doc, state in positions(rng, 0):
        table = table_view(doc, engine.public_view(state))
        assert doc.due is not None or state.match_over
        if state.deal_over:
            expected = None if state.match_over else doc.due
            assert table.next_deal_at == (None if expected is None else expected.at)
        else:
            assert table.turn is not None and doc.due is not None
            assert table.turn.deadline == doc.due.at


def test_a_seat_s_own_view_is_refused() -> None:
    doc, state = random_game(random.Random(1), 0)
    with pytest.raises(ValueError, match="view for no seat"):
        table_view(doc, engine.view(state, 0))


def test_a_field_the_model_does_not_know_is_refused() -> None:
    doc, state = random_game(random.Random(1), 0)
    data = table_view(doc, engine.public_view(state)).model_dump(mode="json")
    data["hand"] = [{"hi": 6, "lo": 6}]
    with pytest.raises(ValidationError, match="hand"):
        TableView.model_validate(data)


def test_the_model_cannot_be_changed() -> None:
    doc, state = random_game(random.Random(1), 0)
    table = table_view(doc, engine.public_view(state))
    with pytest.raises(ValidationError):
        table.boneyard = 0  # type: ignore[misc]
