"""Thief of Baghdad: how a finished deal is scored and what a replay shows of it."""

from __future__ import annotations

import json

from engine import DealEnd, new_match
from engine.replay import fixture_json, parse_replay, report, run
from tests.engine.baghdad_deals import (
    DEAL_A,
    DEAL_BLOCK,
    DEAL_C,
    DRAWS,
    MOVES_A,
    MOVES_BLOCK,
    MOVES_C,
    details,
    hand_points,
    hand_text,
    play,
    replay,
)


def test_a_deals_score_counts_own_caravans_the_opponents_hand_and_penalties() -> None:
    state = replay("deals:6", (DEAL_A, MOVES_A))
    assert state.deal_over and state.turn is None and state.hands[1] == ()
    left = hand_text(state, 0)
    assert left == {"5-5", "3-3", "5-0", "5-3", "3-0", "5-2", "2-2"}
    assert hand_points(left) == 4 * 1 + 1 * 6 + 2 * 3
    caravans = details(state)["caravans"]
    assert [(c["state"], c["owner"], c["camels"]) for c in caravans] == [
        ("stolen", 1, 3),
        ("recovered", 1, 3),  # seat 0 stole it, seat 1 won it back
        ("open", None, 7),  # never stolen: nobody's camels
    ]
    seat1 = 3 + 3 + hand_points(left) + 2  # two caravans, seat 0's hand, two penalties
    assert state.result is not None and state.result.end is DealEnd.DOMINO
    assert state.result.scores == (0, seat1) and state.result.winner == 1
    assert state.match_scores == (0, seat1)


def test_a_thief_played_as_a_camel_counts_as_a_camel() -> None:
    state = replay("deals:6", (DEAL_C, MOVES_C))
    recovered = details(state)["caravans"][1]
    assert recovered["state"] == "recovered" and "3-3" in recovered["tiles"]
    assert recovered["camels"] == 4
    assert hand_text(state, 0) == {"6-3"}
    assert state.result is not None and state.result.scores == (2, 4 + 1)


def test_a_block_ends_the_deal_at_once_and_is_scored_like_any_deal() -> None:
    state = replay("deals:6", (DEAL_BLOCK, MOVES_BLOCK))
    assert state.deal_over and state.ends == (0, 0) and state.boneyard == ()
    assert not any(t.has(0) for hand in state.hands for t in hand)
    assert details(state)["penalties"] == [2, 3]
    expected = (hand_points(hand_text(state, 1)) + 2, hand_points(hand_text(state, 0)) + 3)
    assert expected == (12 + 9 + 3 + 2, 6 + 6 + 7 + 3)
    assert state.result is not None and state.result.end is DealEnd.BLOCK
    assert state.result.scores == expected and state.result.winner == 0


def test_penalty_points_count_in_the_match_total_before_the_deal_ends() -> None:
    state = new_match("baghdad", 2, {"match": "target:1"}, fixture=DRAWS)
    state = play(state, (0, "6-6"), (1, "draw"), (1, "done"))
    assert state.match_scores == (1, 0)
    # The target is checked at the end of a deal only.
    assert not state.match_over and state.turn == 0


def test_replay_output_shows_the_active_caravan_as_the_line_and_every_caravan() -> None:
    data = {
        "variant": "baghdad",
        "players": 2,
        "deals": [fixture_json(DEAL_A)],
        "moves": [[seat, move] for seat, move in MOVES_A[:6]],
    }
    out = report(run(parse_replay(data)))
    assert out["line"] == ["6-3", "3-4"]
    assert [c["state"] for c in out["caravans"]] == ["stolen", "open"]
    assert out["caravans"][0]["thief"] == "4-2" and out["caravans"][0]["owner"] == 1
    json.dumps(out)  # plain data
