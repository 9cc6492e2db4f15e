"""Three Guns: the rule of sixes, the musketeers and d'Artagnan, and passing."""

from __future__ import annotations

import pytest

from engine import api
from engine.errors import IllegalMove
from engine.moves import PASS
from engine.state import Placed
from tests.engine.three_guns_deals import DEAL_A, DEAL_B, accepts, legal, play, start

# Deal B: three specials across one another on R.
ACROSS_ON_ACROSS = ("3-2", "3-3x@R", "4-2x@R", "5-1x@R")


# -- the rule of sixes ----------------------------------------------------------------------


def test_touching_halves_add_up_to_six() -> None:
    state = play(start(DEAL_A), "3-2")
    assert accepts(state) == [[3], [4]]
    assert legal(state) == {"3-3@L", "4-3@L", "4-3@R", "4-4@R", "4-1@R", "3-3x@L", "3-3x@R"}
    state = play(state, "4-1@R")
    assert state.line == (Placed(3, 2), Placed(4, 1))
    assert accepts(state) == [[3], [5]]


def test_a_tile_that_does_not_add_up_to_six_is_refused() -> None:
    state = play(start(DEAL_A), "3-2")
    with pytest.raises(IllegalMove, match="2-2 does not fit R: L accepts 3, R accepts 4"):
        api.apply(state, "2-2@R")
    with pytest.raises(IllegalMove, match="2-0 does not fit: L accepts 3, R accepts 4") as error:
        api.apply(state, "2-0")
    assert error.value.reason == "does_not_fit"


def test_an_end_showing_zero_accepts_nothing() -> None:
    state = play(start(DEAL_B), "5-5", "1-0@R")
    assert accepts(state) == [[1], []]
    assert legal(state) == {"3-1@L", "4-2x@L", "4-2x@R"}
    with pytest.raises(IllegalMove, match="R accepts nothing"):
        api.apply(state, "5-0@R")


# -- musketeers and d'Artagnan --------------------------------------------------------------


def test_a_musketeer_may_be_played_normally_or_across() -> None:
    state = play(start(DEAL_A), "1-0", "3-3x@R", "5-3@R")
    assert accepts(state) == [[5], [1]]
    assert legal(state) == {
        "5-0@L",
        "5-1@L",
        "5-1@R",
        "5-1x@L",
        "5-1x@R",
        "4-2x@L",
        "4-2x@R",
        "0-0x@L",
        "0-0x@R",
        "2-1@R",
    }
    normally = play(state, "1-5@R")
    assert normally.line[-1] == Placed(1, 5)
    assert accepts(normally) == [[5], [1]]
    across = play(state, "1-5x@R")
    assert across.line[-1] == Placed(5, 1, across=True)
    assert accepts(across) == [[5], [1, 5]]


def test_a_musketeer_across_accepts_a_half_adding_up_to_six_with_either_of_its_halves() -> None:
    state = play(start(DEAL_B), "3-2", "4-1@R", "4-2x@R")
    assert accepts(state) == [[3], [2, 4]]
    assert legal(state) == {"4-4@R", "5-4@R", "2-1@R", "5-1x@L", "5-1x@R"}
    with pytest.raises(IllegalMove, match="5-5 does not fit R"):
        api.apply(state, "5-5@R")
    assert accepts(play(state, "2-1@R")) == [[3], [5]]
    assert accepts(play(state, "5-4@R")) == [[3], [1]]


def test_only_musketeers_and_d_artagnan_go_across() -> None:
    state = play(start(DEAL_A), "3-2")
    with pytest.raises(IllegalMove, match="4-3 cannot be played across") as error:
        api.apply(state, "4-3x@L")
    assert error.value.reason == "not_across"


def test_d_artagnan_is_played_only_across() -> None:
    state = play(start(DEAL_B), "5-5")
    assert not {m for m in legal(state) if m.startswith("0-0") and "x" not in m}
    with pytest.raises(IllegalMove, match="0-0 can only be played across"):
        api.apply(state, "0-0@R")


def test_d_artagnan_mirrors_a_tile_laid_normally() -> None:
    state = play(start(DEAL_B), "5-4", "0-0x@R")
    assert state.line == (Placed(5, 4), Placed(0, 0, across=True))
    assert accepts(state) == [[1], [4]]
    assert legal(state) == {"3-1@L", "4-2@R", "4-2x@L", "4-2x@R", "4-0@R"}
    with pytest.raises(IllegalMove, match="5-2 does not fit R"):
        api.apply(state, "5-2@R")
    state = play(state, "4-0@R")
    assert state.line[-1] == Placed(4, 0)
    assert accepts(state) == [[1], []]


def test_d_artagnan_mirrors_a_musketeer_across() -> None:
    state = play(start(DEAL_B), *ACROSS_ON_ACROSS, "0-0x@R")
    assert accepts(state) == [[3], [1, 5]]
    assert legal(state) == {"5-3@L", "5-3@R", "5-2@R", "5-0@R", "3-1@L", "3-1@R", "3-0@L"}
    state = play(state, "3-1@R")
    assert state.line[-2:] == (Placed(0, 0, across=True), Placed(1, 3))
    assert accepts(state) == [[3], [3]]


def test_d_artagnan_opens_an_end_that_accepted_nothing() -> None:
    state = play(start(DEAL_B), "5-5", "1-0@R", "3-1@L", "3-2@L", "0-0x@R")
    assert accepts(state) == [[4], [0]]
    state = play(state, "5-0@R")
    assert state.line[-2:] == (Placed(0, 0, across=True), Placed(0, 5))
    assert accepts(state) == [[4], [1]]


def test_a_special_may_go_across_another_across() -> None:
    state = start(DEAL_B)
    seen = []
    for move in ACROSS_ON_ACROSS:
        state = play(state, move)
        seen.append(accepts(state)[1])
    assert seen == [[4], [3], [2, 4], [1, 5]]
    assert [str(p) for p in state.line] == ["3-2", "3-3x", "4-2x", "5-1x"]


# -- turns -------------------------------------------------------------------------------


def test_a_player_passes_only_when_nothing_can_be_played() -> None:
    state = play(start(DEAL_A), "1-0")
    with pytest.raises(IllegalMove, match="3-3 can be played") as error:
        api.apply(state, "pass")
    assert error.value.reason == "must_play"
    state = play(state, "3-3x@L", "3-0@L", "4-2x@R", "2-0@R")
    assert accepts(state) == [[], []]
    assert api.legal_moves(state) == (PASS,)
    state = play(state, "pass")
    assert (state.turn, state.deal_over) == (0, False)


def test_there_is_no_drawing() -> None:
    with pytest.raises(IllegalMove, match="no drawing") as error:
        api.apply(play(start(DEAL_A), "1-0"), "draw")
    assert error.value.reason == "no_draw"
