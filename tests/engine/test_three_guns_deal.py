"""Three Guns: the table, the cardinal's swap and the lead."""

from __future__ import annotations

import pytest

from engine import api
from engine.dealing import shuffle_deal
from engine.errors import BadFixture, BadOption, IllegalMove
from engine.moves import Move
from engine.state import Fixture, Placed
from engine.tiles import THREE_GUNS_SET, Tile
from tests.engine.three_guns_deals import (
    DEAL_A,
    SIX_SIX,
    WON_BY,
    accepts,
    deals_won_by,
    details,
    legal,
    play,
    start,
    tiles,
)


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
