"""Thief of Baghdad: the extras after one's own camel, stealing a caravan and
recovering it with handcuffs."""

from __future__ import annotations

import pytest

from engine import IllegalMove, apply
from tests.engine.baghdad_deals import HANDCUFFS, deal, details, hand_text, play, start, texts

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
