"""How every game begins and ends a deal (engine.rounds), one rule per test."""

from __future__ import annotations

from types import MappingProxyType

import pytest

from engine.dealing import rng, shuffle_deal
from engine.errors import BadFixture
from engine.moves import DRAW, Move
from engine.rounds import (
    can_play,
    deal_after,
    deal_tiles,
    finish_deal,
    first_deal,
    lowest_seats,
    nobody_can_move,
    sole_lowest,
    with_drawn_leader,
)
from engine.state import DealEnd, DealResult, Event, Fixture, Placed, State
from engine.tiles import DOUBLE_SIX, Tile

OPTIONS = MappingProxyType({"target": 100})
SIX_SIX = Tile(6, 6)


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(Tile.parse(t) for t in text.split())


def two_hands(leader: int | None = None) -> Fixture:
    """Seven tiles each, the rest of the double-six set in the boneyard."""
    hands = (DOUBLE_SIX[:7], DOUBLE_SIX[7:14])
    return Fixture(hands, DOUBLE_SIX[14:], leader)


def started() -> State[str]:
    return first_deal("game", 2, OPTIONS, 9, two_hands(), 1, "fresh")


def played(state: State[str], **changes: object) -> State[str]:
    """A deal in progress: a tile on the table, a few moves made, points on the sheet."""
    defaults: dict[str, object] = {
        "line": (Placed(6, 5),),
        "ends": (6, 5),
        "counter": 12,
        "last_player": 0,
        "match_scores": (30, 40),
    }
    defaults.update(changes)
    return state.but(**defaults)


# -- dealing ---------------------------------------------------------------------


def test_a_valid_fixture_is_dealt_as_given() -> None:
    fixture = two_hands()
    assert deal_tiles(DOUBLE_SIX, 2, 7, 0, 1, fixture) == (fixture, 0)


def test_a_fixture_must_hold_the_set_in_the_rules_hand_sizes() -> None:
    with pytest.raises(BadFixture, match="the rules deal 6"):
        deal_tiles(DOUBLE_SIX, 2, 6, 0, 1, two_hands())


def test_a_fixture_may_not_name_a_leader_the_rules_choose() -> None:
    with pytest.raises(BadFixture, match="the winner leads; leave 'leader' out"):
        deal_tiles(DOUBLE_SIX, 2, 7, 0, 1, two_hands(1), leader_rule="the winner leads")


def test_a_fixture_may_name_the_leader_where_the_rules_draw_one() -> None:
    fixture = two_hands(1)
    assert deal_tiles(DOUBLE_SIX, 2, 7, 0, 1, fixture)[0].leader == 1


def test_the_set_is_checked_before_the_leader() -> None:
    short = Fixture((DOUBLE_SIX[:6], DOUBLE_SIX[7:14]), DOUBLE_SIX[14:] + DOUBLE_SIX[6:7], 1)
    with pytest.raises(BadFixture, match="has 6 tiles"):
        deal_tiles(DOUBLE_SIX, 2, 7, 0, 1, short, leader_rule="the winner leads")


def test_a_fixture_the_rules_would_deal_again_is_refused_with_their_reason() -> None:
    with pytest.raises(BadFixture, match="nobody holds 6-6"):
        deal_tiles(DOUBLE_SIX, 2, 7, 0, 1, two_hands(), redeal=lambda dealt: "nobody holds 6-6")


def test_without_a_fixture_the_deal_is_the_seeded_shuffle() -> None:
    dealt, reshuffles = deal_tiles(DOUBLE_SIX, 3, 5, 42, 2, None)
    assert dealt == shuffle_deal(DOUBLE_SIX, 3, 5, 42, 2, 0)
    assert reshuffles == 0


def test_a_shuffle_the_rules_refuse_is_shuffled_again_and_counted() -> None:
    def no_six_six_in_hand(dealt: Fixture) -> str | None:
        return None if any(SIX_SIX in hand for hand in dealt.hands) else "6-6 in the boneyard"

    dealt, reshuffles = deal_tiles(DOUBLE_SIX, 2, 3, 7, 1, None, redeal=no_six_six_in_hand)
    assert dealt == shuffle_deal(DOUBLE_SIX, 2, 3, 7, 1, reshuffles)
    assert any(SIX_SIX in hand for hand in dealt.hands)
    refused = [shuffle_deal(DOUBLE_SIX, 2, 3, 7, 1, a) for a in range(reshuffles)]
    assert all(SIX_SIX in deal.boneyard for deal in refused)
    assert reshuffles > 0  # with 6 of 28 tiles in hand, seed 7 needs more than one shuffle


def test_a_leader_left_to_chance_is_drawn_from_the_seed_and_recorded() -> None:
    drawn = with_drawn_leader(two_hands(), 5, 4)
    assert drawn.leader == rng(5, "leader").randrange(4)
    assert (drawn.hands, drawn.boneyard) == (two_hands().hands, two_hands().boneyard)


def test_a_leader_named_by_the_fixture_is_kept() -> None:
    assert with_drawn_leader(two_hands(1), 5, 2).leader == 1


def test_a_named_leader_must_be_a_seat() -> None:
    with pytest.raises(BadFixture, match="leader 2 is not a seat"):
        with_drawn_leader(two_hands(2), 5, 2)


# -- starting --------------------------------------------------------------------


def test_a_match_starts_with_the_leader_to_move_on_a_bare_table() -> None:
    state = started()
    assert (state.turn, state.leader, state.line, state.ends) == (1, 1, (), None)
    assert (state.deal_number, state.counter, state.match_scores) == (1, 0, (0, 0))
    assert (state.result, state.deal_over, state.match_over, state.winners) == (
        None,
        False,
        False,
        (),
    )


def test_a_deal_is_played_as_dealt_and_remembers_the_deal() -> None:
    state = started()
    assert (state.hands, state.boneyard, state.dealt) == (
        two_hands().hands,
        two_hands().boneyard,
        two_hands(),
    )
    assert (state.variant, state.players, state.seed, state.detail) == ("game", 2, 9, "fresh")


def test_the_next_deal_carries_totals_counter_and_last_result() -> None:
    last = DealResult(DealEnd.DOMINO, 0, (12, 0))
    over = played(started(), result=last, deal_over=True, turn=None)
    dealt = Fixture(two_hands().hands[::-1], two_hands().boneyard)
    nxt = deal_after(over, dealt, 0, "next")
    assert (nxt.deal_number, nxt.counter, nxt.match_scores, nxt.result) == (2, 12, (30, 40), last)
    assert (nxt.options, nxt.seed, nxt.variant) == (over.options, over.seed, over.variant)


def test_the_next_deal_starts_on_a_bare_table_with_its_leader_to_move() -> None:
    over = played(started(), deal_over=True, turn=None)
    dealt = Fixture(two_hands().hands[::-1], two_hands().boneyard)
    nxt = deal_after(over, dealt, 0, "next")
    assert (nxt.line, nxt.ends, nxt.last_player, nxt.turn, nxt.leader) == ((), None, None, 0, 0)
    assert (nxt.hands, nxt.dealt, nxt.detail, nxt.deal_over) == (dealt.hands, dealt, "next", False)


# -- ending ----------------------------------------------------------------------


def test_any_tile_can_lead_a_bare_table() -> None:
    assert can_play(tiles("1-0"), None)
    assert not can_play((), None)


def test_a_tile_can_play_when_either_half_matches_either_end() -> None:
    assert can_play(tiles("2-1 6-4"), (3, 4))
    assert can_play(tiles("3-0"), (3, 4))
    assert not can_play(tiles("2-1 6-5 0-0"), (3, 4))


def test_a_deal_is_blocked_only_when_nothing_is_left_to_draw_and_nothing_fits() -> None:
    hands = (tiles("1-1 2-1"), tiles("2-2"))
    blocked = played(started(), hands=hands, boneyard=())
    assert nobody_can_move(blocked)
    assert not nobody_can_move(blocked.but(boneyard=tiles("0-0")))
    assert not nobody_can_move(blocked.but(hands=(tiles("1-1"), tiles("5-2"))))


def test_the_sole_lowest_seat_wins_and_a_tie_has_no_winner() -> None:
    assert sole_lowest([9, 3, 7]) == 1
    assert sole_lowest([9, 3, 3]) is None
    assert lowest_seats([9, 3, 3]) == (1, 2)


def test_a_finished_deal_records_its_result_and_totals_and_stops_play() -> None:
    result = DealResult(DealEnd.BLOCK, 1, (0, 25))
    over, _ = finish_deal(played(started()), [], result, (30, 65), ())
    assert (over.turn, over.deal_over, over.result, over.match_scores) == (
        None,
        True,
        result,
        (30, 65),
    )
    assert (over.match_over, over.winners, over.detail) == (False, (), "fresh")


def test_a_finished_deal_adds_deal_over_after_the_moves_events() -> None:
    move = Event("move", 1, DRAW)
    result = DealResult(DealEnd.BLOCK, 1, (0, 25))
    _, events = finish_deal(played(started()), [move], result, (30, 65), ())
    info = (("end", "block"), ("winner", 1), ("scores", (0, 25)))
    assert events == (move, Event("deal_over", 1, info=info))


def test_winners_end_the_match_with_a_match_over_event() -> None:
    move = Event("move", 0, Move.play(Tile(5, 5), "R"))
    result = DealResult(DealEnd.DOMINO, 0, (80, 0))
    over, events = finish_deal(played(started()), (move,), result, (110, 40), (0,))
    assert (over.match_over, over.winners) == (True, (0,))
    assert [e.kind for e in events] == ["move", "deal_over", "match_over"]
    assert events[-1].info == (("winners", (0,)),)


def test_a_finished_deal_may_replace_the_detail() -> None:
    result = DealResult(DealEnd.DOMINO, 0, (5, 0))
    over, _ = finish_deal(played(started()), [], result, (35, 40), (), "scored")
    assert over.detail == "scored"
