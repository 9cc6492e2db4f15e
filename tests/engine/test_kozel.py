"""Kozel ("the goat"): golden deals, one rule per test.

Every deal is scripted with a Fixture; the boneyard lists the tiles named first
and then the rest of the set. Moves are written in the notation, with the seat
that makes them.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from engine import api
from engine.errors import BadFixture, BadOption, GameOver, IllegalMove
from engine.moves import DRAW, PASS, Kind, Move
from engine.state import DealEnd, Event, Fixture, OptionValue, State
from engine.tiles import DOUBLE_SIX, Tile, rank
from engine.variant import get_variant

Moves = Iterable[tuple[int, str]]


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(Tile.parse(t) for t in text.split())


def deal(*hands: str, boneyard: str = "") -> Fixture:
    """Hands as written; the boneyard draws ``boneyard`` first, then every tile
    not named anywhere, highest first."""
    dealt = tuple(tiles(h) for h in hands)
    first = tiles(boneyard)
    named = {t for hand in dealt for t in hand} | set(first)
    rest = sorted((t for t in DOUBLE_SIX if t not in named), key=rank, reverse=True)
    return Fixture(dealt, first + tuple(rest))


def start(fixture: Fixture, options: Mapping[str, OptionValue] | None = None) -> State[Any]:
    return api.new_match("kozel", len(fixture.hands), options, fixture=fixture)


def play(state: State[Any], moves: Moves) -> tuple[State[Any], list[Event]]:
    events: list[Event] = []
    for seat, text in moves:
        state, caused = api.apply(state, text, seat)
        events += caused
    return state, events


def refusal(state: State[Any], move: str) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        api.apply(state, move)
    return caught.value


def draws(seat: int, times: int) -> list[tuple[int, str]]:
    return [(seat, "draw")] * times


# -- scripted deals ----------------------------------------------------------------

# Three players; seat 0 dominoes along R. Seat 1 keeps 3-1 (4), seat 2 keeps 0-0.
CHAIN_1 = deal("6-6 5-4 3-3 2-1 4-0", "6-5 4-4 3-2 1-1 3-1", "5-5 4-3 2-2 1-0 0-0")
CHAIN_1_MOVES = [
    (0, "6-6"), (1, "6-5@R"), (2, "5-5@R"), (0, "5-4@R"), (1, "4-4@R"), (2, "4-3@R"),
    (0, "3-3@R"), (1, "3-2@R"), (2, "2-2@R"), (0, "2-1@R"), (1, "1-1@R"), (2, "1-0@R"),
    (0, "4-0@R"),
]  # fmt: skip

# The next deal, led by seat 0: seat 1 keeps 5-4 (9), seat 2 keeps 2-0 (2).
CHAIN_2 = deal("6-6 5-3 2-2 1-0 4-4", "6-5 3-3 2-1 0-0 5-4", "5-5 3-2 1-1 4-0 2-0")
CHAIN_2_MOVES = [
    (0, "6-6"), (1, "6-5@R"), (2, "5-5@R"), (0, "5-3@R"), (1, "3-3@R"), (2, "3-2@R"),
    (0, "2-2@R"), (1, "2-1@R"), (2, "1-1@R"), (0, "1-0@R"), (1, "0-0@R"), (2, "4-0@R"),
    (0, "4-4@R"),
]  # fmt: skip

# Three players; seat 2 draws 5-5 and 5-4, then 1-1, and ends with 0-0, 2-0, 5-5, 5-4.
DRAWING = deal(
    "6-6 4-3 2-2 1-0 6-5", "6-4 3-3 2-1 3-0 4-2", "4-4 3-2 0-0 5-3 2-0", boneyard="5-5 5-4 1-1"
)
DRAWING_UNTIL_STUCK = [
    (0, "6-6"), (1, "6-4@R"), (2, "4-4@R"), (0, "4-3@R"), (1, "3-3@R"), (2, "3-2@R"),
    (0, "2-2@R"), (1, "2-1@R"),
]  # fmt: skip
DRAWING_REST = [
    (2, "draw"), (2, "draw"), (2, "draw"), (2, "1-1@R"), (0, "1-0@R"), (1, "3-0@R"),
    (2, "5-3@R"), (0, "6-5@R"),
]  # fmt: skip

# Four players put all seven 6s on the line, ends 6 and 6; seat 2 then draws the
# whole boneyard (8 tiles, none with a 6) and nobody can move: a fish.
FISH_MOVES = [
    (0, "6-6"), (1, "6-5@R"), (2, "5-4@R"), (3, "6-4@R"), (0, "6-3@R"), (1, "3-2@R"),
    (2, "6-2@R"), (3, "6-1@R"), (0, "1-0@R"), (1, "6-0@R"), *draws(2, 8),
]  # fmt: skip


def fish_deal(rest0: str, rest1: str, rest2: str, rest3: str) -> Fixture:
    """The fish above, with each seat's tiles that stay in hand."""
    return deal(
        f"6-6 6-3 1-0 {rest0}", f"6-5 3-2 6-0 {rest1}", f"5-4 6-2 {rest2}", f"6-4 6-1 {rest3}"
    )


# Points in hand: seat 0 8, seat 1 5, seat 2 26 + the boneyard's 64 (0-0 is 25) = 90,
# seat 3 12.
FISH = fish_deal("4-1 3-0", "2-1 1-1", "5-5 4-4 5-3", "3-3 2-2 2-0")
# Seats 0 and 1 both hold 8.
TIED_FISH = fish_deal("4-1 3-0", "5-0 2-1", "5-5 4-4 5-3", "3-3 2-2 2-0")
# The deal after a fish: seat 3 holds 6-6.
AFTER_FISH = deal(
    "5-5 4-1 3-0 2-0 1-0", "5-4 4-4 3-1 2-1 1-1", "5-3 4-3 3-3 2-2 0-0", "6-6 6-5 6-4 6-3 6-2"
)


def fished(fixture: Fixture, options: Mapping[str, OptionValue] | None = None) -> State[Any]:
    state, _ = play(start(fixture, options), FISH_MOVES)
    assert state.deal_over
    return state


# -- who leads ----------------------------------------------------------------------


def test_first_deal_is_led_by_the_highest_double_with_that_double() -> None:
    state = start(deal("6-5 6-4 4-1 3-1 2-0", "6-3 5-1 4-2 3-2 2-1", "5-5 4-4 4-3 5-0 1-0"))
    assert state.turn == 2
    assert api.legal_moves(state) == (Move.lead(Tile(5, 5)),)
    state, _ = api.apply(state, "5-5", 2)
    assert state.line[0].left == 5 and state.turn == 0


def test_first_deal_without_doubles_is_led_by_the_highest_tile() -> None:
    state = start(
        deal("6-0 5-4 5-3 4-2 3-1 2-0 1-0", "6-4 6-3 5-2 4-3 4-1 3-2 2-1", boneyard="6-5")
    )
    assert state.turn == 1
    assert api.legal_moves(state) == (Move.lead(Tile(6, 4)),)
    # The higher half decides before the pips do: 6-0 leads over 5-4.
    state = start(deal("6-0 3-2 3-1 2-1 2-0 1-0 4-0", "5-4 5-3 5-2 5-1 5-0 4-3 4-2"))
    assert api.legal_moves(state) == (Move.lead(Tile(6, 0)),)


def test_first_lead_may_be_written_either_way_round() -> None:
    state = start(
        deal("6-0 5-4 5-3 4-2 3-1 2-0 1-0", "6-4 6-3 5-2 4-3 4-1 3-2 2-1", boneyard="6-5")
    )
    state, _ = api.apply(state, "4-6", 1)
    assert state.ends == (4, 6)


def test_later_deal_is_led_by_the_domino_winner_with_any_tile() -> None:
    state, _ = play(start(CHAIN_1), CHAIN_1_MOVES)
    assert state.result is not None and state.result.winner == 0
    later = deal("5-5 4-1 3-0 2-0 1-0", "6-6 6-5 4-4 3-1 2-1", "6-4 5-3 4-3 3-3 0-0")
    nxt = api.next_deal(state, later)
    assert (nxt.deal_number, nxt.turn, nxt.leader) == (2, 0, 0)
    assert set(api.legal_moves(nxt)) == {Move.lead(t) for t in tiles("5-5 4-1 3-0 2-0 1-0")}
    nxt, _ = api.apply(nxt, "1-0", 0)
    assert nxt.ends == (1, 0)


def test_later_deal_after_a_fish_is_led_by_the_seat_with_fewest_points() -> None:
    state = fished(FISH)
    assert state.result is not None and state.result.winner == 1
    nxt = api.next_deal(state, AFTER_FISH)
    assert nxt.turn == 1
    assert set(api.legal_moves(nxt)) == {Move.lead(t) for t in tiles("5-4 4-4 3-1 2-1 1-1")}


def test_tied_fish_brings_back_the_first_deal_rule() -> None:
    state = fished(TIED_FISH)
    assert state.result is not None and state.result.winner is None
    nxt = api.next_deal(state, AFTER_FISH)
    assert nxt.turn == 3
    assert api.legal_moves(nxt) == (Move.lead(Tile(6, 6)),)
    error = refusal(nxt, "6-5")
    assert error.reason == "forced_lead"
    assert error.message == "this deal opens with 6-6: the highest double leads"


def test_fish_leader_counts_the_blank_double_as_25() -> None:
    # Seat 1 holds 0-0 and 1-0 (25 by default, 1 when 0-0 counts only alone);
    # seat 0 holds 4-1 and 3-0 (8).
    fixture = fish_deal("4-1 3-0", "0-0 2-1", "5-5 4-4 5-3", "3-3 2-2 2-0")
    assert fished(fixture).result.winner == 0  # type: ignore[union-attr]
    alone = fished(fixture, {"blank_double": "alone"})
    assert alone.result is not None and alone.result.winner == 1


# -- a turn ---------------------------------------------------------------------------


def test_double_move_plays_two_doubles_on_both_ends_in_one_move() -> None:
    fixture = deal("6-6 3-3 4-4 5-5 2-0", "6-4 2-1 4-1 5-1 3-1", "6-3 5-2 4-2 3-2 5-0")
    state, _ = play(start(fixture), [(0, "6-6"), (1, "6-4@R"), (2, "6-3@L")])
    assert state.ends == (3, 4)
    assert Move.double(Tile(3, 3), Tile(4, 4)) in api.legal_moves(state)
    after, events = api.apply(state, "4-4@R+3-3@L", 0)
    assert [str(p) for p in after.line] == ["3-3", "3-6", "6-6", "6-4", "4-4"]
    assert after.hands[0] == tiles("5-5 2-0")
    assert (after.turn, after.counter) == (1, state.counter + 1)
    assert [e.kind for e in events] == ["move"]


def test_double_move_is_refused_when_the_option_is_off() -> None:
    fixture = deal("6-6 3-3 4-4 5-5 2-0", "6-4 2-1 4-1 5-1 3-1", "6-3 5-2 4-2 3-2 5-0")
    state = start(fixture, {"double_move": "off"})
    state, _ = play(state, [(0, "6-6"), (1, "6-4@R"), (2, "6-3@L")])
    assert all(m.kind is not Kind.DOUBLE for m in api.legal_moves(state))
    assert refusal(state, "3-3@L+4-4@R").reason == "double_move_off"


def test_double_move_needs_each_double_to_fit_its_end() -> None:
    fixture = deal("6-6 3-3 4-4 5-5 2-0", "6-4 2-1 4-1 5-1 3-1", "6-3 5-2 4-2 3-2 5-0")
    state, _ = play(start(fixture), [(0, "6-6"), (1, "6-4@R"), (2, "6-3@L")])
    error = refusal(state, "5-5@L+4-4@R")
    assert error.reason == "does_not_fit"
    assert error.message == "5-5@L+4-4@R does not fit L (3) and R (4)"


def test_player_with_nothing_to_play_draws_one_tile_at_a_time_until_one_fits() -> None:
    state, _ = play(start(DRAWING), DRAWING_UNTIL_STUCK)
    assert state.ends == (6, 1)
    assert api.legal_moves(state) == (DRAW,)
    state, events = api.apply(state, "draw", 2)
    assert events[-1] == Event("draw", 2, DRAW, Tile(5, 5))
    assert state.turn == 2 and api.legal_moves(state) == (DRAW,)
    state, _ = play(state, draws(2, 2))
    assert state.turn == 2
    assert api.legal_moves(state) == (Move.play(Tile(1, 1), "R"),)
    assert state.hands[2] == tiles("0-0 5-3 2-0 5-5 5-4 1-1")


def test_no_draw_or_pass_with_a_playable_tile() -> None:
    state, _ = play(start(DRAWING), [*DRAWING_UNTIL_STUCK, *draws(2, 3)])
    assert refusal(state, "draw").reason == "must_play"
    assert refusal(state, "pass").reason == "must_play"
    fresh = start(DRAWING)
    assert refusal(fresh, "draw").reason == "must_play"


def test_no_pass_while_the_boneyard_has_tiles() -> None:
    state, _ = play(start(DRAWING), DRAWING_UNTIL_STUCK)
    error = refusal(state, "pass")
    assert error.reason == "must_draw"


def test_pass_with_an_empty_boneyard_and_nothing_to_play() -> None:
    fixture = deal("6-6 6-5 6-4 6-3 6-2 6-1 6-0", "5-4 3-2 1-0 0-0 5-5 4-4 3-3")
    state, _ = play(start(fixture), [(0, "6-6"), *draws(1, 14)])
    assert not state.boneyard and state.turn == 1
    assert api.legal_moves(state) == (PASS,)
    assert refusal(state, "draw").reason == "boneyard_empty"
    state, _ = api.apply(state, "pass", 1)
    assert state.turn == 0 and not state.deal_over


# -- the end of a deal --------------------------------------------------------------


def test_fish_is_declared_at_once_when_nobody_can_move() -> None:
    state, _ = play(start(FISH), FISH_MOVES[:-1])
    assert not state.deal_over and len(state.boneyard) == 1
    state, events = api.apply(state, "draw", 2)
    assert state.deal_over and state.turn is None
    assert state.result is not None and state.result.end is DealEnd.BLOCK
    assert api.legal_moves(state) == ()
    assert events[-1].kind == "deal_over"
    assert dict(events[-1].info)["end"] == "block"


def test_domino_ends_the_deal_and_every_player_adds_his_pips() -> None:
    state, events = play(start(DRAWING), [*DRAWING_UNTIL_STUCK, *DRAWING_REST])
    assert state.deal_over and state.result is not None
    assert (state.result.end, state.result.winner) == (DealEnd.DOMINO, 0)
    # Seat 1 keeps 4-2 (6, under 13, dropped); seat 2 keeps 0-0 2-0 5-5 5-4.
    assert state.result.scores == (0, 0, 25 + 2 + 10 + 9)
    assert dict(events[-1].info)["scores"] == (0, 0, 46)


# -- scoring ----------------------------------------------------------------------------


def test_blank_double_counts_25_with_other_tiles_by_default() -> None:
    state, _ = play(start(DRAWING), [*DRAWING_UNTIL_STUCK, *DRAWING_REST])
    assert state.deal_scores == (0, 0, 46)


def test_blank_double_alone_counts_nothing_beside_other_tiles() -> None:
    state = start(DRAWING, {"blank_double": "alone"})
    state, _ = play(state, [*DRAWING_UNTIL_STUCK, *DRAWING_REST])
    assert state.deal_scores == (0, 0, 0 + 2 + 10 + 9)


@pytest.mark.parametrize("rule", ["always", "alone"])
def test_blank_double_as_the_last_tile_counts_25(rule: str) -> None:
    state, _ = play(start(CHAIN_1, {"blank_double": rule}), CHAIN_1_MOVES)
    assert state.deal_scores == (0, 0, 25)


def test_sheet_opens_at_13_and_smaller_deals_are_dropped_not_carried() -> None:
    state, _ = play(start(CHAIN_1), CHAIN_1_MOVES)
    assert state.deal_scores == (0, 0, 25)  # seat 1's 4 points are dropped
    assert api.view(state, 0).details["opened"] == [False, False, True]
    state, _ = play(api.next_deal(state, CHAIN_2), CHAIN_2_MOVES)
    # Seat 1 holds 9: with the dropped 4 that would make 13, but nothing carries.
    # Seat 2's sheet is open, so its 2 points are written.
    assert state.deal_scores == (0, 0, 2)
    assert state.match_scores == (0, 0, 27)
    assert api.view(state, 1).details["opened"] == [False, False, True]


def test_deal_of_exactly_13_opens_the_sheet() -> None:
    # Seat 3 keeps 4-2 2-2 2-1, 13 points; seats 0 and 1 keep 8 and 4.
    state = fished(fish_deal("4-1 3-0", "1-1 2-0", "5-5 4-4 5-3", "4-2 2-2 2-1"))
    assert state.deal_scores == (0, 0, 90, 13)
    assert api.view(state, 0).details["opened"] == [False, False, True, True]


def test_teams_share_a_sheet_and_the_13_rule_applies_to_their_sum() -> None:
    state = fished(FISH, {"teams": "on"})
    # Seats 0+2: 8 + 90; seats 1+3: 5 + 12, each under 13 but 17 together.
    assert state.deal_scores == (98, 17, 98, 17)
    assert state.match_scores == (98, 17, 98, 17)
    details = api.view(state, 0).details
    assert details["opened"] == [True, True, True, True]
    assert details["teams"] == [[0, 2], [1, 3]]


def test_without_teams_each_seat_keeps_its_own_sheet() -> None:
    state = fished(FISH)
    assert state.deal_scores == (0, 0, 90, 0)


def test_teams_fish_leader_is_still_the_seat_with_fewest_points() -> None:
    state = fished(FISH, {"teams": "on"})
    assert api.next_deal(state, AFTER_FISH).turn == 1


# -- the end of the match -----------------------------------------------------------


def test_player_reaching_101_is_the_goat_and_the_lowest_total_wins() -> None:
    fixture = deal("6-6 6-5 6-4 6-3 6-2 6-1 6-0", "5-4 3-2 1-0 0-0 5-5 4-4 3-3")
    moves = [
        (0, "6-6"), *draws(1, 14), (1, "pass"), (0, "6-5@R"), (1, "5-4@R"), (0, "6-4@R"),
        (1, "pass"), (0, "6-3@R"), (1, "3-2@R"), (0, "6-2@R"), (1, "pass"), (0, "6-1@R"),
        (1, "1-0@R"), (0, "6-0@R"),
    ]  # fmt: skip
    state, events = play(start(fixture), moves)
    # Seat 1 holds every tile without a 6 but 5-4, 3-2, 1-0: 90 pips, 0-0 at 25.
    assert state.match_scores == (0, 115)
    assert state.match_over and state.winners == (0,)
    assert api.view(state, 0).details["goats"] == [1]
    assert events[-1] == Event("match_over", info=(("winners", (0,)),))
    with pytest.raises(GameOver):
        api.next_deal(state)


def test_goat_ties_for_the_lowest_total_share_the_win() -> None:
    state, _ = play(start(CHAIN_1, {"target": 25}), CHAIN_1_MOVES)
    assert state.match_scores == (0, 0, 25)
    assert state.match_over and state.winners == (0, 1)
    assert api.view(state, 2).details["goats"] == [2]


def test_match_goes_on_below_the_target() -> None:
    state, _ = play(start(CHAIN_1, {"target": 26}), CHAIN_1_MOVES)
    assert state.deal_over and not state.match_over and state.winners == ()


def test_teams_goat_makes_both_partners_of_the_other_team_win() -> None:
    state = fished(FISH, {"teams": "on", "target": 90})
    assert state.match_over and state.winners == (1, 3)
    assert api.view(state, 3).details["goats"] == [0, 2]


def test_when_every_sheet_reaches_the_target_the_lowest_total_still_wins() -> None:
    state = fished(FISH, {"teams": "on", "target": 17})
    assert state.match_scores == (98, 17, 98, 17)
    assert state.winners == (1, 3)
    assert api.view(state, 0).details["goats"] == [0, 1, 2, 3]


# -- errors ---------------------------------------------------------------------------


def test_tile_that_fits_no_end_is_refused_with_both_ends_named() -> None:
    fixture = deal("6-6 3-3 4-4 5-5 2-0", "6-4 2-1 4-1 5-1 3-1", "6-3 5-2 4-2 3-2 5-0")
    state, _ = play(start(fixture), [(0, "6-6"), (1, "6-4@R"), (2, "6-3@L")])
    error = refusal(state, "5-5@L")
    assert (error.reason, error.message) == ("does_not_fit", "5-5 does not fit L (3) or R (4)")
    assert refusal(state, "3-3@R").message == "3-3 does not fit R (4)"


def test_tile_not_in_hand_is_refused() -> None:
    state = start(CHAIN_1)
    state, _ = api.apply(state, "6-6", 0)
    error = refusal(state, "6-4@R")
    assert (error.reason, error.message) == ("not_in_hand", "6-4 is not in your hand")


def test_first_deal_refuses_any_other_opening_tile() -> None:
    error = refusal(start(CHAIN_1), "5-4")
    assert error.reason == "forced_lead"
    assert error.message == "this deal opens with 6-6: the highest double leads"


def test_moves_of_other_games_are_refused() -> None:
    state = start(CHAIN_1)
    assert refusal(state, "done").reason == "wrong_kind"
    state, _ = api.apply(state, "6-6", 0)
    assert refusal(state, "6-5x@R").reason == "wrong_kind"


# -- options and fixtures ---------------------------------------------------------------


def test_options_default_to_the_classic_rules() -> None:
    state = api.new_match("goat", 3, seed=1)
    assert dict(state.options) == {
        "double_move": "on",
        "blank_double": "always",
        "teams": "off",
        "target": 101,
    }
    assert [len(h) for h in state.hands] == [5, 5, 5]
    assert [len(h) for h in api.new_match("kozel", 2).hands] == [7, 7]


def test_aliases_find_kozel() -> None:
    assert get_variant("козёл").name == get_variant("goat").name == "kozel"


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (3, {"teams": "on"}),
        (2, {"teams": "on"}),
        (3, {"goat": "on"}),
        (3, {"target": 10}),
        (3, {"target": 1002}),
        (3, {"blank_double": "never"}),
        (5, {}),
        (1, {}),
    ],
)
def test_bad_options_are_refused(players: int, options: dict[str, OptionValue]) -> None:
    with pytest.raises(BadOption):
        api.new_match("kozel", players, options)


def test_fixture_may_not_name_the_leader() -> None:
    fixture = Fixture(CHAIN_1.hands, CHAIN_1.boneyard, leader=1)
    with pytest.raises(BadFixture):
        start(fixture)


def test_fixture_hands_follow_the_hand_size() -> None:
    with pytest.raises(BadFixture):
        start(deal("6-6 5-4 3-3 2-1 4-0 4-1", "6-5 4-4 3-2 1-1 3-1", "5-5 4-3 2-2 1-0 0-0"))


def test_seeded_deals_repeat() -> None:
    one = api.new_match("kozel", 4, seed=11)
    two = api.new_match("kozel", 4, seed=11)
    assert one.hands == two.hands and one.boneyard == two.boneyard
    assert one.hands != api.new_match("kozel", 4, seed=12).hands


# -- legal moves and apply agree ------------------------------------------------------

CANDIDATES: tuple[Move, ...] = (
    DRAW,
    PASS,
    *(Move.play(t, end) for t in DOUBLE_SIX for end in ("L", "R")),
    *(Move.lead(t, flip=True) for t in DOUBLE_SIX),
    *(Move.lead(t) for t in DOUBLE_SIX),
    *(Move.double(a, b) for a in DOUBLE_SIX for b in DOUBLE_SIX if a.is_double and b.is_double),
)


@pytest.mark.parametrize(("players", "teams"), [(2, "off"), (3, "off"), (4, "on")])
def test_apply_accepts_exactly_the_legal_moves(players: int, teams: str) -> None:
    variant = get_variant("kozel")
    chooser = random.Random(players)
    state = api.new_match("kozel", players, {"teams": teams}, seed=players)
    for _ in range(150):
        if state.match_over:
            break
        if state.deal_over:
            state = api.next_deal(state)
            continue
        legal = set(api.legal_moves(state))
        accepted = set()
        for move in CANDIDATES:
            try:
                variant.apply(state, move)
            except IllegalMove:
                continue
            # On an empty line the notation ignores a written end: it is a lead.
            tile = move.tile
            lead = move.kind is Kind.PLAY and not state.line and tile is not None
            accepted.add(Move.lead(tile) if lead and tile is not None else move.unflipped())
        assert accepted == legal
        state, _ = api.apply(state, chooser.choice(sorted(legal, key=str)))
        dealt = [t for hand in state.hands for t in hand] + list(state.boneyard)
        assert len(dealt) + len(state.line) == len(DOUBLE_SIX)
