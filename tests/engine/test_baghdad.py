"""Thief of Baghdad: one test per rule and per decision of the rules page.

Deals are scripted: hands as dealt (seat 0, seat 1), the boneyard in draw order,
and moves in the notation, each with the seat that makes it.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import (
    BadFixture,
    BadOption,
    DealEnd,
    Fixture,
    IllegalMove,
    State,
    Tile,
    apply,
    format_move,
    get_variant,
    legal_moves,
    new_match,
    next_deal,
)
from engine.replay import fixture_json, parse_replay, report, run

THIEVES = {"3-3", "6-0", "5-1", "4-2"}
HANDCUFFS = {"6-6", "0-0", "5-5", "1-1", "4-4", "2-2"}


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(Tile.parse(t) for t in text.split())


def deal(seat0: str, seat1: str, boneyard: str, leader: int | None = 0) -> Fixture:
    return Fixture((tiles(seat0), tiles(seat1)), tiles(boneyard), leader)


def start(fixture: Fixture, match: str = "deals:6") -> State[Any]:
    return new_match("baghdad", 2, {"match": match}, seed=3, fixture=fixture)


def play(state: State[Any], *moves: tuple[int, str]) -> State[Any]:
    for seat, text in moves:
        state, _ = apply(state, text, seat)
    return state


def texts(state: State[Any]) -> list[str]:
    return [format_move(m) for m in legal_moves(state)]


def details(state: State[Any]) -> dict[str, Any]:
    return get_variant("baghdad").public_details(state)


def hand_text(state: State[Any], seat: int) -> set[str]:
    return {str(t) for t in state.hands[seat]}


# Seat 0 leads 5-3; seat 1's 3-1 on R makes the ends show 5 and 1, the pattern of
# the thief [5|1] that seat 0 holds; seat 0's 5-5 on L keeps that pattern.
STEAL = deal(
    "5-3 5-5 5-1 0-0 1-1 2-2 6-6 2-0 4-0 6-1 6-2",
    "3-1 3-3 4-4 1-0 3-0 5-0 6-0 2-1 4-1 3-2 4-2",
    "5-2 4-3 6-3 5-4 6-4 6-5",
)
# Seat 1 leads; 6-4, 4-3, 3-0 make the ends show 6 and 0 and seat 1 steals with
# [6|0]. Seat 0 holds the handcuffs [6|6] and [0|0].
RECOVER_BONEYARD = "4-2 6-2 5-3 6-3 5-4 6-5"
RECOVER = deal(
    "4-3 6-6 0-0 5-2 5-1 1-1 2-2 1-0 2-0 2-1 4-1",
    "6-4 3-0 6-0 3-3 4-4 5-5 4-0 5-0 3-1 6-1 3-2",
    RECOVER_BONEYARD,
    leader=1,
)
# Seat 1 steals with [3|3]; seat 0 holds every handcuff double.
GOLDEN_SIX = deal(
    "6-3 6-6 0-0 5-5 1-1 4-4 2-2 1-0 2-0 2-1 4-1",
    "6-5 5-3 3-3 3-0 4-0 5-0 6-0 3-1 5-1 6-1 3-2",
    "4-2 5-2 6-2 4-3 5-4 6-4",
    leader=1,
)
# Seat 0 leads 6-6; the boneyard's first tile 6-1 fits, its second 5-2 fits neither 6 nor 1.
DRAWS = deal(
    "6-6 6-5 5-5 4-4 3-3 0-0 1-0 2-0 3-0 4-0 5-0",
    "6-2 6-3 6-4 6-0 1-1 2-2 3-1 4-1 5-1 3-2 4-2",
    "6-1 5-2 2-1 4-3 5-3 5-4",
)
# Seat 0 holds every 6 and leads 6-6; seat 1 holds no 6, nor does the boneyard.
NO_SIXES = deal(
    "6-6 6-5 6-4 6-3 6-2 6-1 6-0 0-0 1-1 2-2 3-3",
    "1-0 2-0 3-0 4-0 5-0 2-1 3-1 4-1 5-1 3-2 4-2",
    "4-4 5-5 5-2 4-3 5-3 5-4",
)


# -- stealing --------------------------------------------------------------------


def test_steal_is_possible_only_right_after_ones_own_camel() -> None:
    state = play(start(STEAL), (0, "5-3"), (1, "3-1@R"))
    assert state.ends == (5, 1)
    # Seat 1 holds no [5|1]: his turn ended with his camel.
    assert state.turn == 0 and details(state)["phase"] == "main"
    assert not any(t.startswith("steal") for t in texts(state))
    with pytest.raises(IllegalMove, match="only right after your own camel") as refused:
        apply(state, "steal 5-1", 0)
    assert refused.value.reason == "extra_not_now"
    state = play(state, (0, "5-5@L"))
    assert state.ends == (5, 1) and state.turn == 0
    assert details(state)["phase"] == "extra_possible"
    assert texts(state) == ["steal 5-1", "done"]


def test_a_steal_closes_the_caravan_and_gives_its_camels_to_the_thief() -> None:
    state = play(start(STEAL), (0, "5-3"), (1, "3-1@R"), (0, "5-5@L"), (0, "steal 5-1"))
    assert state.line == () and state.ends is None
    assert "5-1" not in hand_text(state, 0)
    assert details(state)["caravans"] == [
        {
            "state": "stolen",
            "owner": 0,
            "thief": "5-1",
            "handcuffs": None,
            "camels": 3,
            "tiles": ["5-5", "5-3", "3-1"],
        }
    ]
    # One extra a turn: the steal ends it; the opponent starts a new caravan with any tile.
    assert state.turn == 1
    assert texts(state) == [str(t) for t in state.hands[1]] + ["draw"]
    state = play(state, (1, "4-4"))
    assert state.ends == (4, 4) and len(details(state)["caravans"]) == 2


def test_done_declines_a_possible_steal() -> None:
    state = play(start(STEAL), (0, "5-3"), (1, "3-1@R"), (0, "5-5@L"), (0, "done"))
    assert state.turn == 1 and state.ends == (5, 1)
    assert details(state)["caravans"][0]["state"] == "open"
    assert state.match_scores == (0, 0)  # a camel was played: no penalty


def test_a_camel_cannot_follow_a_camel() -> None:
    state = play(start(STEAL), (0, "5-3"), (1, "3-1@R"), (0, "5-5@L"))
    with pytest.raises(IllegalMove, match="steal, recover or say done") as refused:
        apply(state, "1-1@R", 0)
    assert refused.value.reason == "camel_played"


def test_a_steal_needs_the_ends_to_show_the_thiefs_pattern() -> None:
    state = play(start(RECOVER), (1, "6-4"), (0, "4-3@R"), (1, "3-0@R"), (1, "steal 6-0"))
    state = play(state, (0, "5-2"))  # a recovery is possible, so the extra phase is on
    with pytest.raises(IllegalMove, match="nothing to steal: the caravan's ends show 5 and 2") as e:
        apply(state, "steal 5-1", 0)
    assert e.value.reason == "no_steal"


# -- recovering ------------------------------------------------------------------


def test_handcuffs_recover_a_caravan_the_opponent_stole() -> None:
    state = play(start(RECOVER), (1, "6-4"), (0, "4-3@R"), (1, "3-0@R"))
    assert texts(state) == ["steal 6-0", "done"]
    state = play(state, (1, "steal 6-0"), (0, "5-2"))
    assert texts(state) == ["recover 6-6 0-0", "done"]
    state = play(state, (0, "recover 0-0 6-6"))
    caravan = details(state)["caravans"][0]
    assert caravan["state"] == "recovered" and caravan["owner"] == 0
    assert caravan["thief"] == "6-0" and caravan["handcuffs"] == ["6-6", "0-0"]
    assert caravan["tiles"] == ["6-4", "4-3", "3-0"]
    assert not {"6-6", "0-0"} & hand_text(state, 0)
    # The new caravan stays active; the turn passes after the extra.
    assert state.ends == (5, 2) and state.turn == 1


def test_a_recovery_also_waits_for_ones_own_camel() -> None:
    state = play(start(RECOVER), (1, "6-4"), (0, "4-3@R"), (1, "3-0@R"), (1, "steal 6-0"))
    with pytest.raises(IllegalMove) as refused:
        apply(state, "recover 6-6 0-0", 0)
    assert refused.value.reason == "extra_not_now"


def test_a_caravan_stolen_by_the_golden_six_can_never_be_recovered() -> None:
    state = play(start(GOLDEN_SIX), (1, "6-5"), (0, "6-3@L"), (1, "5-3@R"))
    assert state.ends == (3, 3) and texts(state) == ["steal 3-3", "done"]
    state = play(state, (1, "steal 3-3"))
    assert hand_text(state, 0) >= HANDCUFFS
    # Seat 0 holds every handcuff double, yet after his camel no extra is possible.
    state = play(state, (0, "4-4"))
    assert state.turn == 1
    assert details(state)["caravans"][0] == {
        "state": "stolen",
        "owner": 1,
        "thief": "3-3",
        "handcuffs": None,
        "camels": 3,
        "tiles": ["3-6", "6-5", "5-3"],
    }


def test_a_thief_cannot_recover_the_caravan_he_stole_himself() -> None:
    own = deal(
        "4-3 3-3 4-4 5-2 5-1 1-1 2-2 1-0 2-0 2-1 4-1",
        "6-4 3-0 6-0 6-6 0-0 5-5 4-0 5-0 3-1 6-1 3-2",
        RECOVER_BONEYARD,
        leader=1,
    )
    state = play(start(own), (1, "6-4"), (0, "4-3@R"), (1, "3-0@R"), (1, "steal 6-0"))
    # Seat 1 holds [6|6] and [0|0], but the caravan is his already: no extra.
    state = play(state, (0, "5-2"), (1, "5-5@L"))
    assert state.turn == 0
    assert details(state)["caravans"][0]["state"] == "stolen"


def test_handcuffs_must_be_a_pair_for_the_thief() -> None:
    state = play(start(RECOVER), (1, "6-4"), (0, "4-3@R"), (1, "3-0@R"), (1, "steal 6-0"))
    state = play(state, (0, "5-2"))
    with pytest.raises(IllegalMove, match="not a pair of handcuffs"):
        apply(state, "recover 6-6 1-1", 0)


# -- drawing and passing -----------------------------------------------------------


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


# -- whole deals -----------------------------------------------------------------

Script = list[tuple[int, str]]

# Seat 1 steals with [4|2], seat 0 with [6|0]; seat 1 recovers that one with
# [6|6]+[0|0], seat 0 draws twice without a camel, and seat 1 goes out.
DEAL_A = deal(
    "4-0 5-5 3-3 3-1 6-3 1-1 6-0 5-0 5-3 3-0 5-2",
    "0-0 4-2 4-3 6-6 6-4 6-1 2-0 3-2 6-5 5-1 4-1",
    "2-2 6-2 1-0 4-4 5-4 2-1",
    leader=1,
)
MOVES_A: Script = [
    (1, "4-1"), (0, "3-1@R"), (1, "3-2@R"), (1, "steal 4-2"), (0, "6-3"), (1, "4-3@R"),
    (0, "4-0@R"), (0, "steal 6-0"), (1, "6-4"), (1, "recover 6-6 0-0"), (0, "draw"),
    (1, "6-5@L"), (0, "draw"), (1, "5-1@L"), (0, "1-1@L"), (1, "6-1@L"), (0, "6-2@L"),
    (1, "2-0@L"),
]  # fmt: skip
# Seat 0 steals twice; seat 1 plays [3|3] as a camel and then recovers the caravan
# holding it; seat 1 goes out. Both seats score.
DEAL_C = deal(
    "0-0 6-0 4-2 3-2 6-2 4-0 6-3 2-1 3-1 4-4 5-1",
    "5-2 3-3 5-3 3-0 1-1 5-0 6-1 4-3 6-4 2-0 5-5",
    "4-1 2-2 5-4 6-6 1-0 6-5",
    leader=1,
)
MOVES_C: Script = [
    (1, "6-4"), (0, "6-2@L"), (0, "steal 4-2"), (1, "5-2"), (0, "3-2@R"), (1, "3-3@R"),
    (0, "3-1@R"), (0, "steal 5-1"), (1, "4-3"), (1, "recover 5-5 1-1"), (0, "4-4@L"),
    (1, "3-0@R"), (0, "0-0@R"), (1, "5-0@R"), (0, "4-0@L"), (1, "5-3@R"), (0, "6-0@L"),
    (1, "6-1@L"), (0, "2-1@L"), (1, "2-0@L"),
]  # fmt: skip
# Every 0 goes onto the caravan, whose ends both show 0; the boneyard runs dry.
DEAL_BLOCK = deal(
    "5-2 6-1 2-1 3-2 5-1 5-4 4-1 3-0 5-3 6-0 1-0",
    "6-4 6-2 2-2 4-4 4-0 6-5 1-1 2-0 3-1 5-0 4-3",
    "5-5 4-2 6-3 0-0 6-6 3-3",
    leader=1,
)
MOVES_BLOCK: Script = [
    (1, "6-2"), (0, "6-0@L"), (1, "2-0@R"), (0, "1-0@R"), (1, "3-1@R"), (0, "3-0@R"),
    (1, "4-0@L"), (0, "5-4@L"), (1, "5-0@L"), (0, "draw"), (1, "draw"), (0, "draw"),
    (1, "draw"), (1, "0-0@R"), (0, "draw"), (1, "draw"),
]  # fmt: skip


def swapped(fixture: Fixture, moves: Script) -> tuple[Fixture, Script]:
    """The same deal with the seats exchanged (the next deal's leader is the other seat)."""
    hands = (fixture.hands[1], fixture.hands[0])
    return Fixture(hands, fixture.boneyard), [(1 - seat, move) for seat, move in moves]


def replay(match: str, *deals: tuple[Fixture, Script]) -> State[Any]:
    data = {
        "variant": "baghdad",
        "players": 2,
        "options": {"match": match},
        "seed": 3,
        "deals": [fixture_json(fixture) for fixture, _ in deals],
        "moves": [[seat, move] for _, moves in deals for seat, move in moves],
    }
    outcome = run(parse_replay(json.loads(json.dumps(data))))
    assert outcome.failed_at is None, outcome.error
    return outcome.state


def hand_points(hand: set[str]) -> int:
    """The rules' value of a hand for the opponent, tile by tile."""
    return sum(6 if t in THIEVES else 3 if t in HANDCUFFS else 1 for t in hand)


def test_settlement_counts_own_caravans_the_opponents_hand_and_penalties() -> None:
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


def test_a_block_ends_the_deal_at_once_and_is_settled_like_any_deal() -> None:
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


# -- the match -------------------------------------------------------------------


def test_a_match_of_n_deals_goes_to_the_higher_total() -> None:
    first = replay("deals:2", (DEAL_A, MOVES_A))
    assert first.deal_over and not first.match_over
    state = replay("deals:2", (DEAL_A, MOVES_A), swapped(DEAL_C, MOVES_C))
    assert state.match_scores == (0 + 5, 24 + 2)
    assert state.match_over and state.winners == (1,) and state.turn is None


def test_a_match_of_n_deals_with_equal_totals_is_shared() -> None:
    state = replay("deals:2", (DEAL_C, MOVES_C), swapped(DEAL_C, MOVES_C))
    assert state.match_scores == (2 + 5, 5 + 2)
    assert state.match_over and state.winners == (0, 1)


def test_the_default_match_is_six_deals() -> None:
    assert new_match("baghdad", 2).options["match"] == "deals:6"
    state = replay("deals:6", (DEAL_C, MOVES_C), swapped(DEAL_C, MOVES_C))
    assert not state.match_over
    for number in range(3, 7):
        state = next_deal(state)
        while not state.deal_over:
            state, _ = apply(state, legal_moves(state)[0])
        assert state.deal_number == number and state.match_over == (number == 6)


def test_a_target_match_ends_when_a_total_reaches_the_target() -> None:
    state = replay("target:24", (DEAL_A, MOVES_A))
    assert state.match_scores == (0, 24)
    assert state.match_over and state.winners == (1,)
    short = replay("target:25", (DEAL_A, MOVES_A))
    assert not short.match_over


def test_a_target_reached_by_both_goes_to_the_higher_total() -> None:
    state = replay("target:2", (DEAL_C, MOVES_C))
    assert state.match_scores == (2, 5)
    assert state.match_over and state.winners == (1,)


def test_a_target_reached_by_both_with_equal_totals_is_shared() -> None:
    first = replay("target:7", (DEAL_C, MOVES_C))
    assert not first.match_over  # 2 and 5 are short of 7
    state = replay("target:7", (DEAL_C, MOVES_C), swapped(DEAL_C, MOVES_C))
    assert state.match_scores == (7, 7)
    assert state.match_over and state.winners == (0, 1)


def test_the_players_lead_deals_in_turn() -> None:
    state = replay("deals:6", (DEAL_C, MOVES_C))
    assert state.leader == 1
    state = next_deal(state)
    assert state.leader == 0 and state.turn == 0
    state = replay("deals:6", (DEAL_C, MOVES_C), swapped(DEAL_C, MOVES_C))
    assert next_deal(state).leader == 1


def test_the_first_leader_is_drawn_from_the_seed() -> None:
    leaders = {new_match("baghdad", 2, seed=s).leader for s in range(20)}
    assert leaders == {0, 1}
    for seed in range(5):
        state = new_match("baghdad", 2, seed=seed)
        assert state.turn == state.leader == new_match("baghdad", 2, seed=seed).leader
        assert state.dealt.leader == state.leader  # recorded, so exports replay it


def test_a_fixture_names_the_leader_only_for_the_first_deal() -> None:
    assert start(DEAL_C).turn == 1
    state = replay("deals:6", (DEAL_C, MOVES_C))
    fixture, _ = swapped(DEAL_C, MOVES_C)
    with pytest.raises(BadFixture, match="in turn"):
        next_deal(state, Fixture(fixture.hands, fixture.boneyard, 0))
    assert next_deal(state, fixture).hands == fixture.hands


def test_a_fixture_must_hold_the_whole_set_in_hands_of_eleven() -> None:
    with pytest.raises(BadFixture, match="11"):
        start(
            Fixture((DEAL_C.hands[0][:10], DEAL_C.hands[1]), DEAL_C.boneyard + DEAL_C.hands[0][10:])
        )


# -- options ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("deals:6", "deals:6"),
        ("Deals:8", "deals:8"),
        ("deals: 100", "deals:100"),
        ("target:50", "target:50"),
        ("target", "target:100"),
        ("deals", "deals:6"),
        ("target:1000", "target:1000"),
    ],
)
def test_the_match_option_is_normalised(given: str, kept: str) -> None:
    assert new_match("baghdad", 2, {"match": given}).options["match"] == kept


@pytest.mark.parametrize(
    ("given", "why"),
    [
        ("deals:5", "even"),
        ("deals:0", "even"),
        ("deals:102", "even"),
        ("target:0", "from 1 to 1000"),
        ("target:1001", "from 1 to 1000"),
        ("target:ten", "whole number"),
        ("deals:-2", "whole number"),
        ("rounds:6", "deals:N"),
        ("", "deals:N"),
    ],
)
def test_bad_match_options_are_refused(given: str, why: str) -> None:
    with pytest.raises(BadOption, match=why):
        new_match("baghdad", 2, {"match": given})


def test_exactly_two_players() -> None:
    with pytest.raises(BadOption, match="2 players"):
        new_match("baghdad", 3)


def test_the_game_is_found_by_its_aliases() -> None:
    for name in ("baghdad", "thief", "zlodziej", "Złodziej"):
        assert get_variant(name).name == "baghdad"
