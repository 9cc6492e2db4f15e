"""Tyaga, the Draw game: one test per rule and per decision of the rules page."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine import (
    BadFixture,
    BadOption,
    DealEnd,
    DealResult,
    Fixture,
    IllegalMove,
    State,
    Tile,
    apply,
    format_move,
    legal_moves,
    new_match,
    next_deal,
)
from engine.replay import parse_replay, run
from engine.tiles import DOUBLE_SIX

GOLDEN = Path(__file__).parent / "golden"


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(Tile.parse(t) for t in text.split())


def fixture(*hands: str, boneyard: str | None = None, leader: int | None = None) -> Fixture:
    """Hands as written; the boneyard is the rest of the set unless given."""
    dealt = tuple(tiles(h) for h in hands)
    used = {t for h in dealt for t in h}
    rest = (
        tiles(boneyard) if boneyard is not None else tuple(t for t in DOUBLE_SIX if t not in used)
    )
    return Fixture(dealt, rest, leader)


def play(state, *moves: str):  # type: ignore[no-untyped-def]
    for text in moves:
        state, _ = apply(state, text)
    return state


def texts(state) -> list[str]:  # type: ignore[no-untyped-def]
    return [format_move(m) for m in legal_moves(state)]


TWO_HANDS = ("6-6 6-5 1-1 2-0 3-0 4-0 5-0", "5-5 5-4 4-4 3-3 2-2 3-1 2-1")


def test_hand_size_defaults_by_table_size() -> None:
    sizes = {p: len(new_match("tyaga", p, seed=1).hands[0]) for p in range(2, 7)}
    assert sizes == {2: 7, 3: 7, 4: 7, 5: 5, 6: 4}


def test_hand_size_option_overrides_and_is_refused_past_28_tiles() -> None:
    assert len(new_match("tyaga", 4, {"hand_size": 7}).boneyard) == 0
    assert len(new_match("tyaga", 3, {"hand_size": 3}).hands[2]) == 3
    with pytest.raises(BadOption, match="28 tiles"):
        new_match("tyaga", 5, {"hand_size": 6})
    with pytest.raises(BadOption, match="from 3 to 8"):
        new_match("tyaga", 2, {"hand_size": 9})


def test_no_double_blank_is_refused_with_another_opening() -> None:
    with pytest.raises(BadOption, match="highest_double"):
        new_match("tyaga", 2, {"no_double": "blank"})


def test_any_opening_first_leader_is_drawn_and_may_lead_any_tile() -> None:
    leaders = {new_match("tyaga", 4, seed=s).turn for s in range(40)}
    assert leaders == {0, 1, 2, 3}
    state = new_match("tyaga", 2, fixture=fixture(*TWO_HANDS, leader=1))
    assert state.turn == 1
    assert sorted(texts(state)) == sorted(str(t) for t in state.hands[1])


def test_lead_is_laid_as_written() -> None:
    state = new_match("tyaga", 2, fixture=fixture(*TWO_HANDS, leader=1))
    state = play(state, "1-3")
    assert state.ends == (1, 3)
    assert [str(p) for p in state.line] == ["1-3"]


def test_draw_until_playable_then_play() -> None:
    state = new_match(
        "tyaga",
        2,
        fixture=fixture(
            *TWO_HANDS, boneyard="4-3 6-4 6-3 4-2 6-2 6-1 6-0 5-3 5-2 5-1 4-1 3-2 1-0 0-0", leader=0
        ),
    )
    state = play(state, "6-6")
    assert texts(state) == ["draw"]
    state = play(state, "draw")
    assert state.turn == 1 and texts(state) == ["draw"]
    state = play(state, "draw")
    assert state.turn == 1 and texts(state) == ["6-4@L", "6-4@R"]
    with pytest.raises(IllegalMove, match="playable"):
        apply(state, "draw")
    with pytest.raises(IllegalMove, match="fits both ends"):
        apply(state, "6-4")


def test_no_draw_or_pass_with_a_playable_tile() -> None:
    state = play(new_match("tyaga", 2, fixture=fixture(*TWO_HANDS, leader=0)), "5-0")
    assert state.turn == 1
    with pytest.raises(IllegalMove, match="playable") as error:
        apply(state, "draw")
    assert error.value.reason == "must_play"
    with pytest.raises(IllegalMove):
        apply(state, "pass")


def test_a_tile_that_does_not_fit_is_refused_naming_the_ends() -> None:
    state = play(new_match("tyaga", 2, fixture=fixture(*TWO_HANDS, leader=0)), "3-0")
    with pytest.raises(IllegalMove, match=r"5-5 does not fit L \(3\) or R \(0\)"):
        apply(state, "5-5@L")


def test_pass_only_with_an_empty_boneyard() -> None:
    hands = ("6-6 6-5 6-4 6-3 6-2 6-1 6-0", "5-5 5-4 5-3 5-2 5-1 5-0 4-4")
    rest = "4-3 4-2 4-1 4-0 3-3 3-2 3-1 3-0 2-2 2-1 2-0 1-1 1-0 0-0"
    state = new_match(
        "tyaga", 2, {"hand_size": 7}, fixture=fixture(*hands, boneyard=rest, leader=0)
    )
    state = play(state, "6-6")
    for _ in range(14):
        state = play(state, "draw")
    # seat 1 drew the whole boneyard and holds nothing with a 6
    assert not state.boneyard and texts(state) == ["pass"]
    state = play(state, "pass")
    assert state.turn == 0


def test_winner_of_a_domino_scores_the_opponents_pips() -> None:
    hands = ("6-6 6-5 5-4", "6-3 3-3 4-2")
    state = new_match("tyaga", 2, {"hand_size": 3}, fixture=fixture(*hands, leader=0))
    state = play(state, "6-6", "6-3@L", "6-5@R", "3-3@L", "5-4@R")
    assert state.deal_over and state.turn is None
    assert state.result == DealResult(DealEnd.DOMINO, 0, (6, 0))
    assert state.match_scores == (6, 0)
    assert [str(t) for t in state.hands[1]] == ["4-2"]


def replayed(name: str) -> State[Any]:
    data = json.loads((GOLDEN / name).read_text())
    outcome = run(parse_replay(data))
    assert outcome.failed_at is None, outcome.error
    return outcome.state


def test_block_is_declared_at_once_and_the_lowest_hand_wins() -> None:
    state = replayed("tyaga_block_win.json")
    result = state.result
    assert state.deal_over and result is not None and result.end is DealEnd.BLOCK
    pips = [sum(t.pips for t in hand) for hand in state.hands]
    assert result.winner == pips.index(min(pips)) and pips.count(min(pips)) == 1
    assert result.scores[result.winner] == sum(pips) - min(pips)
    # declared at once: nobody could have moved, and no pass was needed to find out
    assert state.boneyard == ()
    assert not any(t.has(v) for hand in state.hands for t in hand for v in state.ends or ())


def test_block_with_a_tie_for_lowest_scores_nothing() -> None:
    state = replayed("tyaga_block_tie.json")
    result = state.result
    assert result is not None and result.end is DealEnd.BLOCK
    pips = [sum(t.pips for t in hand) for hand in state.hands]
    assert pips.count(min(pips)) > 1
    assert result.winner is None and result.scores == (0, 0, 0, 0)
    assert state.match_scores == (0, 0, 0, 0)
    after = next_deal(state)
    assert after.turn == state.last_player


def test_highest_double_leads_with_it() -> None:
    hands = ("6-5 1-1 2-0 3-0 4-0 5-0 6-0", "5-5 5-4 4-4 3-3 2-2 3-1 2-1")
    state = new_match("tyaga", 2, {"opening": "highest_double"}, fixture=fixture(*hands))
    assert state.turn == 1 and texts(state) == ["5-5"]
    with pytest.raises(IllegalMove, match="opens with 5-5"):
        apply(state, "4-4")


def test_highest_double_with_no_double_is_a_reshuffle() -> None:
    hands = ("6-5 6-4 6-3 6-2 6-1 6-0 5-4", "5-3 5-2 5-1 5-0 4-3 4-2 4-1")
    with pytest.raises(BadFixture, match="reshuffle"):
        new_match("tyaga", 2, {"opening": "highest_double"}, fixture=fixture(*hands))
    for seed in range(30):
        state = new_match("tyaga", 2, {"opening": "highest_double"}, seed=seed)
        assert any(t.is_double for h in state.hands for t in h)
        assert legal_moves(state)[0].tile is max(
            (t for h in state.hands for t in h if t.is_double), key=lambda t: t.hi
        )


def test_blank_opening_leads_with_the_highest_blank_when_nobody_has_a_double() -> None:
    hands = ("6-5 6-4 6-3 6-2 6-1 5-4 5-3", "5-2 5-1 4-3 4-2 4-1 6-0 3-0")
    options = {"opening": "highest_double", "no_double": "blank"}
    state = new_match("tyaga", 2, options, fixture=fixture(*hands))
    assert state.turn == 1 and texts(state) == ["6-0"]


def test_blank_opening_without_blanks_reshuffles() -> None:
    hands = ("6-5 6-4 6-3 6-2 6-1 5-4 5-3", "5-2 5-1 4-3 4-2 4-1 3-2 3-1")
    options = {"opening": "highest_double", "no_double": "blank"}
    with pytest.raises(BadFixture):
        new_match("tyaga", 2, options, fixture=fixture(*hands))


def test_double_six_opening_and_its_reshuffle() -> None:
    hands = ("6-5 1-1 2-0 3-0 4-0 5-0 6-0", "5-5 5-4 4-4 3-3 2-2 3-1 2-1")
    with pytest.raises(BadFixture):
        new_match("tyaga", 2, {"opening": "double_six"}, fixture=fixture(*hands))
    for seed in range(20):
        state = new_match("tyaga", 2, {"opening": "double_six"}, seed=seed)
        assert state.turn is not None and Tile(6, 6) in state.hands[state.turn]
        assert texts(state) == ["6-6"]


def test_a_leader_in_the_fixture_is_refused_where_the_rules_pick_him() -> None:
    with pytest.raises(BadFixture, match="leader"):
        new_match("tyaga", 2, {"opening": "double_six"}, fixture=fixture(*TWO_HANDS, leader=1))


def test_later_deal_is_led_by_the_previous_winner() -> None:
    state = new_match("tyaga", 2, seed=5)
    while not state.deal_over:
        state = play(state, texts(state)[0])
    result = state.result
    assert result is not None
    following = next_deal(state)
    expected = result.winner if result.winner is not None else state.last_player
    assert following.turn == expected and following.deal_number == 2


def test_match_ends_when_a_total_reaches_the_target() -> None:
    state = new_match("tyaga", 3, {"target": 10}, seed=2)
    while not state.match_over:
        state = next_deal(state) if state.deal_over else play(state, texts(state)[0])
    assert state.winners and all(state.match_scores[w] >= 10 for w in state.winners)
    assert state.turn is None and legal_moves(state) == ()
