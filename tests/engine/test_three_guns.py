"""Three Guns: golden deals, one rule per test."""

from __future__ import annotations

from typing import Any

import pytest

from engine import api
from engine.dealing import shuffle_deal
from engine.errors import BadFixture, BadOption, GameOver, IllegalMove
from engine.moves import PASS, Move
from engine.state import DealEnd, Fixture, Placed, State
from engine.tiles import THREE_GUNS_SET, Tile, pip_total

SIX_SIX = Tile(6, 6)


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(Tile.parse(t) for t in text.split())


def deal(seat0: str, seat1: str, seat2: str, left_over: str) -> Fixture:
    """Hands as dealt, before the cardinal swaps 6-6 for the left-over tile."""
    return Fixture((tiles(seat0), tiles(seat1), tiles(seat2)), tiles(left_over))


def start(fixture: Fixture) -> State[Any]:
    return api.new_match("three_guns", 3, fixture=fixture)


def play(state: State[Any], *moves: str) -> State[Any]:
    for text in moves:
        state, _ = api.apply(state, text)
    return state


def details(state: State[Any]) -> dict[str, Any]:
    return dict(api.view(state, 0).details)


def accepts(state: State[Any]) -> list[list[int]]:
    return list(details(state)["accepts"])


def legal(state: State[Any]) -> set[str]:
    return {str(m) for m in api.legal_moves(state)}


# Seat 0 is the cardinal in both deals. Deal A: seat 0 holds 4-2, 5-1, 0-0; seat 1 holds 3-3.
DEAL_A = deal(
    "6-6 4-2 5-1 0-0 3-2 2-1 1-0",
    "3-3 4-4 4-3 4-1 2-2 2-0 1-1",
    "5-5 5-4 5-3 5-2 4-0 3-1 3-0",
    "5-0",
)
# Deal B spreads the specials: 5-1 with seat 0, 0-0 and 3-3 with seat 1, 4-2 with seat 2.
DEAL_B = deal(
    "6-6 5-1 5-5 5-4 3-2 2-1 1-1",
    "0-0 3-3 4-3 4-1 2-2 2-0 1-0",
    "4-2 5-3 5-2 5-0 4-0 3-1 3-0",
    "4-4",
)
# Deal B: three specials across one another on R.
ACROSS_ON_ACROSS = ("3-2", "3-3x@R", "4-2x@R", "5-1x@R")

# Seven moves play every special and close both ends on a 0, so nobody can move.
QUICK_BLOCK = ("0-0", "5-1x@L", "5-0@L", "4-2x@R", "4-0@R", "3-3x@L", "3-0@L")


def quick_block(extra0: str, extra1: str, extra2: str) -> Fixture:
    """A deal for QUICK_BLOCK; the extra tiles stay in hand and decide the block."""
    return deal(f"6-6 0-0 4-2 {extra0}", f"5-1 4-0 {extra1}", f"5-0 3-3 {extra2}", "3-0")


WON_BY = {  # pips left in hand: 8/25/42, 35/12/28, 35/28/12
    0: quick_block("1-0 1-1 2-0 2-1", "2-2 3-1 3-2 4-1 4-3", "4-4 5-2 5-3 5-4 5-5"),
    1: quick_block("5-5 5-4 5-3 4-4", "1-0 1-1 2-0 2-1 2-2", "3-1 3-2 4-1 4-3 5-2"),
    2: quick_block("5-5 5-4 5-3 4-4", "3-1 3-2 4-1 4-3 5-2", "1-0 1-1 2-0 2-1 2-2"),
}
TIED = quick_block("5-5 5-4 5-3 4-4", "1-0 1-1 2-1 4-3 5-2", "2-0 2-2 3-1 3-2 4-1")


def deals_won_by(*winners: int) -> State[Any]:
    """A match whose deals are quick blocks won by the given seats, in order."""
    state = start(WON_BY[winners[0]])
    state = play(state, *QUICK_BLOCK)
    for winner in winners[1:]:
        state = play(api.next_deal(state, WON_BY[winner]), *QUICK_BLOCK)
    return state


# -- the table and the deal ---------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
def test_three_guns_is_played_by_exactly_three(players: int) -> None:
    with pytest.raises(BadOption, match="3 players"):
        api.new_match("three_guns", players)


def test_musketeers_is_another_name_for_three_guns() -> None:
    assert api.new_match("musketeers", 3).variant == "three_guns"


def test_cardinal_takes_the_left_over_tile_and_puts_6_6_aside() -> None:
    state = start(DEAL_A)
    assert state.hands[0] == tiles("5-0 4-2 5-1 0-0 3-2 2-1 1-0")
    assert state.hands[1:] == DEAL_A.hands[1:]
    assert state.boneyard == (SIX_SIX,)
    assert state.dealt == DEAL_A
    assert details(state)["aside"] == "6-6"


def test_cardinal_leads_with_any_tile() -> None:
    hands = DEAL_A.hands
    state = start(Fixture((hands[1], hands[2], hands[0]), DEAL_A.boneyard))
    assert (state.turn, state.leader, details(state)["cardinal"]) == (2, 2, 2)
    assert api.legal_moves(state) == tuple(Move.lead(t) for t in state.hands[2])


def test_the_lead_is_laid_normally_even_d_artagnan() -> None:
    state = play(start(DEAL_A), "0-0")
    assert state.line == (Placed(0, 0),)
    assert accepts(state) == [[], []]
    assert legal(state) == {"3-3x@L", "3-3x@R"}


def test_the_lead_is_laid_as_written() -> None:
    state = play(start(DEAL_A), "2-3")
    assert state.line == (Placed(2, 3),)
    assert accepts(state) == [[4], [3]]


def test_the_lead_is_never_across() -> None:
    with pytest.raises(IllegalMove, match="first tile is laid normally") as error:
        api.apply(start(DEAL_A), "1-5x@L")
    assert error.value.reason == "lead_across"


def test_6_6_is_never_played() -> None:
    with pytest.raises(IllegalMove, match="6-6 is never played"):
        api.apply(start(DEAL_A), "6-6")


def test_a_deal_with_6_6_left_over_is_a_bad_fixture() -> None:
    hands = (tiles("5-0 4-2 5-1 0-0 3-2 2-1 1-0"), *DEAL_A.hands[1:])
    with pytest.raises(BadFixture, match="6-6 is the left-over tile"):
        start(Fixture(hands, (SIX_SIX,)))


def test_a_fixture_may_not_name_the_leader() -> None:
    with pytest.raises(BadFixture, match="leader"):
        start(Fixture(DEAL_A.hands, DEAL_A.boneyard, leader=1))


def test_a_deal_with_6_6_left_over_is_dealt_again() -> None:
    def left_over(seed: int, attempt: int) -> Tile:
        return shuffle_deal(THREE_GUNS_SET, 3, 7, seed, 1, attempt).boneyard[0]

    seed = next(s for s in range(1000) if left_over(s, 0) is SIX_SIX and left_over(s, 1) != SIX_SIX)
    state = api.new_match("three_guns", 3, seed=seed)
    assert state.dealt == shuffle_deal(THREE_GUNS_SET, 3, 7, seed, 1, 1)
    assert details(state)["reshuffles"] == 1


def test_every_deal_is_led_by_its_cardinal() -> None:
    state = deals_won_by(0)
    hands = WON_BY[0].hands
    scripted = api.next_deal(state, Fixture((hands[2], hands[0], hands[1]), WON_BY[0].boneyard))
    assert (scripted.turn, scripted.leader) == (1, 1)
    seeded = api.next_deal(state)
    assert SIX_SIX in seeded.dealt.hands[seeded.leader]
    assert seeded.turn == seeded.leader == details(seeded)["cardinal"]


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


# -- deal end and tokens ---------------------------------------------------------------------


def test_a_block_is_declared_as_soon_as_nobody_can_move() -> None:
    state = play(start(WON_BY[0]), *QUICK_BLOCK[:-1])
    assert not state.deal_over
    state, events = api.apply(state, QUICK_BLOCK[-1])
    assert state.deal_over and state.turn is None
    assert state.result is not None and state.result.end is DealEnd.BLOCK
    assert api.legal_moves(state) == ()
    assert [e.kind for e in events] == ["move", "token", "deal_over"]


def test_a_block_is_won_by_the_fewest_pips_in_hand() -> None:
    state = deals_won_by(1)
    assert [pip_total(h) for h in state.hands] == [35, 12, 28]
    assert state.result is not None and state.result.winner == 1
    assert state.deal_scores == (0, 1, 0)
    assert state.match_scores == (0, 1, 0)
    assert details(state)["pool"] == 5


def test_a_block_with_a_tie_for_fewest_pips_moves_no_token() -> None:
    state = play(start(TIED), *QUICK_BLOCK[:-1])
    state, events = api.apply(state, QUICK_BLOCK[-1])
    assert [pip_total(h) for h in state.hands] == [35, 20, 20]
    assert state.result is not None and state.result.winner is None
    assert state.deal_scores == (0, 0, 0)
    assert state.match_scores == (0, 0, 0)
    assert details(state)["pool"] == 6
    assert "token" not in [e.kind for e in events]


def test_domino_wins_the_deal_and_a_token_from_the_pool() -> None:
    state = play(
        start(DEAL_A),
        *("4-2", "4-4@R", "5-2@L", "2-1@L", "4-1@L", "5-5@L", "5-1@L", "3-3x@L", "5-3@L"),
        *("1-0@L", "2-0@R", "pass", "0-0x@L", "pass", "3-0@L", "3-2@L", "4-3@L", "3-1@L"),
    )
    state, events = api.apply(state, "5-0@L")
    assert state.hands[0] == ()
    assert state.result is not None
    assert (state.result.end, state.result.winner) == (DealEnd.DOMINO, 0)
    assert state.deal_scores == (1, 0, 0)
    assert details(state)["pool"] == 5
    token = next(e for e in events if e.kind == "token")
    assert (token.seat, dict(token.info)) == (0, {"from": None, "pool": 5})


def test_with_the_pool_empty_the_token_comes_from_the_richest_opponent() -> None:
    state = deals_won_by(0, 0, 0, 2, 2, 1)
    assert state.match_scores == (3, 1, 2)
    assert details(state)["pool"] == 0
    state = play(api.next_deal(state, WON_BY[1]), *QUICK_BLOCK)
    assert state.match_scores == (2, 2, 2)
    assert state.deal_scores == (-1, 1, 0)


def test_between_equally_rich_opponents_the_first_after_the_winner_gives_the_token() -> None:
    state = deals_won_by(0, 0, 0, 2, 2, 1, 1)
    assert state.match_scores == (2, 2, 2)
    state = play(api.next_deal(state, WON_BY[1]), *QUICK_BLOCK)
    assert state.match_scores == (2, 3, 1)
    assert state.deal_scores == (0, 1, -1)


def test_the_first_player_to_hold_four_tokens_wins_the_match() -> None:
    state = deals_won_by(0, 0, 0)
    assert not state.match_over
    state = play(api.next_deal(state, WON_BY[0]), *QUICK_BLOCK[:-1])
    state, events = api.apply(state, QUICK_BLOCK[-1])
    assert state.match_over and state.winners == (0,)
    assert state.match_scores == (4, 0, 0)
    assert events[-1].kind == "match_over"
    with pytest.raises(GameOver):
        api.next_deal(state)


# -- what a seat sees -----------------------------------------------------------------------


def test_a_seat_sees_its_own_hand_the_tokens_and_what_each_end_accepts() -> None:
    state = play(api.next_deal(deals_won_by(2), DEAL_A), "3-2")
    seen = api.view(state, 1)
    assert seen.hand == DEAL_A.hands[1]
    assert seen.hand_counts == (6, 7, 7)
    assert seen.revealed is None
    assert seen.boneyard == 1
    assert seen.details == {
        "pool": 5,
        "tokens": [0, 0, 1],
        "aside": "6-6",
        "cardinal": 0,
        "shows": [[3], [2]],
        "accepts": [[3], [4]],
        "reshuffles": 0,
    }
