"""Thief of Baghdad: drawing, passing and what a tile must match."""

from __future__ import annotations

from typing import Any

import pytest

from engine import IllegalMove, State, apply
from tests.engine.baghdad_deals import DRAWS, deal, details, hand_text, play, start, texts

# Seat 0 holds every 6 and leads 6-6; seat 1 holds no 6, nor does the boneyard.
NO_SIXES = deal(
    "6-6 6-5 6-4 6-3 6-2 6-1 6-0 0-0 1-1 2-2 3-3",
    "1-0 2-0 3-0 4-0 5-0 2-1 3-1 4-1 5-1 3-2 4-2",
    "4-4 5-5 5-2 4-3 5-3 5-4",
)


def test_draw_then_done_gives_the_opponent_a_point_at_once() -> None:
    state = play(start(DRAWS), (0, "6-6"))
    assert "6-2@L" in texts(state)  # drawing is allowed with a playable tile in hand
    state, _ = apply(state, "draw", 1)
    state, events = apply(state, "done", 1)
    assert state.turn == 0 and not state.deal_over
    assert state.match_scores == (1, 0)
    assert details(state)["penalties"] == [1, 0]
    assert [e.seat for e in events if e.kind == "penalty"] == [0]


def test_a_drawn_tile_that_cannot_be_played_ends_the_turn_with_the_penalty() -> None:
    state = play(start(DRAWS), (0, "6-6"), (1, "draw"), (1, "6-1@R"))
    assert state.match_scores == (0, 0)  # the drawn tile was played: no penalty
    assert state.ends == (6, 1)
    state, events = apply(state, "draw", 0)
    assert "5-2" in hand_text(state, 0)
    assert state.turn == 1 and details(state)["phase"] == "main"
    assert state.match_scores == (0, 1)
    assert [e.kind for e in events] == ["move", "draw", "penalty"]


def test_only_the_drawn_tile_may_be_played_after_a_draw() -> None:
    state = play(start(DRAWS), (0, "6-6"), (1, "draw"))
    assert texts(state) == ["6-1@L", "6-1@R", "done"]
    with pytest.raises(IllegalMove, match="only the drawn tile 6-1 may be played") as refused:
        apply(state, "6-2@L", 1)
    assert refused.value.reason == "only_drawn_tile"
    with pytest.raises(IllegalMove) as again:
        apply(state, "draw", 1)
    assert again.value.reason == "drawn_already"


def test_the_leader_may_draw_and_start_the_caravan_with_the_drawn_tile() -> None:
    state = play(start(DRAWS), (0, "draw"))
    assert texts(state) == ["6-1", "done"]
    state = play(state, (0, "1-6"))
    assert state.line[0].left == 1 and state.ends == (1, 6)
    assert state.turn == 1 and state.match_scores == (0, 0)


def test_must_draw_when_nothing_fits() -> None:
    state = play(start(NO_SIXES), (0, "6-6"))
    assert texts(state) == ["draw"]
    with pytest.raises(IllegalMove, match="draw") as refused:
        apply(state, "pass", 1)
    assert refused.value.reason == "must_draw"


def drain_boneyard(state: State[Any]) -> State[Any]:
    """In NO_SIXES after the lead nothing drawn fits: each draw ends a turn."""
    while state.boneyard:
        state, _ = apply(state, "draw")
    return state


def test_pass_only_when_nothing_fits_and_the_boneyard_is_empty() -> None:
    state = drain_boneyard(play(start(NO_SIXES), (0, "6-6")))
    assert state.match_scores == (3, 3)  # six camel-less draws, three each
    assert state.turn == 1 and texts(state) == ["pass"]
    state = play(state, (1, "pass"))
    assert state.turn == 0 and not state.deal_over


def test_no_pass_with_a_playable_tile() -> None:
    state = drain_boneyard(play(start(NO_SIXES), (0, "6-6")))
    state = play(state, (1, "pass"))
    with pytest.raises(IllegalMove, match="you hold a playable tile; pass is not allowed") as e:
        apply(state, "pass", 0)
    assert e.value.reason == "must_play"
    with pytest.raises(IllegalMove, match="boneyard is empty"):
        apply(state, "draw", 0)


def test_a_tile_must_match_an_end() -> None:
    state = play(start(DRAWS), (0, "6-6"))
    with pytest.raises(IllegalMove, match=r"3-1 does not fit L \(6\) or R \(6\)") as refused:
        apply(state, "3-1@L", 1)
    assert refused.value.reason == "does_not_fit"
    with pytest.raises(IllegalMove, match="not in your hand"):
        apply(state, "6-5@L", 1)
