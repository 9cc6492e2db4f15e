"""Tyaga, the Draw / Block game: draw until you can play; lowest hand wins a block."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from operator import add, attrgetter
from typing import Any

from engine.dealing import find_tile, lay_first, lay_matching, next_seat, replace_hand
from engine.errors import BadOption, IllegalMove
from engine.moves import DRAW, LEADS, PASS, PLAYS_L, PLAYS_R, Kind, Move
from engine.options import OptionSpec
from engine.public import TyagaPublic
from engine.rounds import (
    can_play,
    deal_tiles,
    finish_deal,
    nobody_can_move,
    sole_lowest,
    with_drawn_leader,
)
from engine.state import DealEnd, DealResult, Event, Fixture, OptionValue, State, moved
from engine.tiles import DOUBLE_SIX, MAX_PIPS, Tile
from engine.variant import register
from engine.variants.common import CommonRules, Dealt
from engine.variants.refusals import does_not_fit, not_a_move_in, not_in_hand

DOUBLE_SIX_TILE = Tile(6, 6)
# Read on every move: a global is cheaper than the Enum class's attribute lookup.
_PLAY, _DRAW, _PASS = Kind.PLAY, Kind.DRAW, Kind.PASS
_DOMINO, _BLOCK = DealEnd.DOMINO, DealEnd.BLOCK


def _plays_on(plays: tuple[Move, ...], value: int) -> tuple[Move | None, ...]:
    """By tile index: the tile's play from ``plays`` if it shows ``value``, else None."""
    return tuple(plays[t.index] if t.has(value) else None for t in DOUBLE_SIX)


# By the value an end shows, then by tile index: the play of that tile on that
# end, or None when it does not fit there.
_PLAYS_ON_L = tuple(_plays_on(PLAYS_L, value) for value in range(MAX_PIPS + 1))
_PLAYS_ON_R = tuple(_plays_on(PLAYS_R, value) for value in range(MAX_PIPS + 1))
_pips_of = attrgetter("pips")


@dataclass(frozen=True, slots=True)
class TyagaDetail:
    forced_lead: Tile | None  # the opening tile the rules make the leader play, if any


TyagaState = State[TyagaDetail]


def default_hand_size(players: int) -> int:
    return 7 if players <= 4 else 5 if players == 5 else 4


class Tyaga(CommonRules):
    name = "tyaga"
    title = "Tyaga (Draw)"
    aliases = ("draw", "block", "тяга")
    min_players = 2
    max_players = 6
    option_specs = (
        OptionSpec("hand_size", default_hand_size, "tiles dealt to each player", low=3, high=8),
        OptionSpec(
            "opening",
            "any",
            "who leads: any tile, the highest double, or the 6-6",
            choices=("any", "highest_double", "double_six"),
        ),
        OptionSpec(
            "no_double",
            "reshuffle",
            "with opening=highest_double, when nobody holds a double",
            choices=("reshuffle", "blank"),
            only_with=("opening", "highest_double"),
        ),
        OptionSpec("target", 100, "points that win the match", low=10, high=1000),
    )

    def check_options(self, players: int, options: Mapping[str, OptionValue]) -> None:
        hand_size = int(options["hand_size"])
        if players * hand_size > len(DOUBLE_SIX):
            raise BadOption(
                f"{players} players with {hand_size} tiles each need more than 28 tiles",
                option="hand_size",
                value=hand_size,
                players=players,
            )
        if options["no_double"] == "blank" and options["opening"] != "highest_double":
            raise BadOption(
                "no_double=blank goes only with opening=highest_double",
                option="no_double",
                value="blank",
            )

    # -- dealing ---------------------------------------------------------------

    def first_dealt(
        self, players: int, options: Mapping[str, OptionValue], seed: int, fixture: Fixture | None
    ) -> Dealt:
        dealt, leader, forced = _deal(players, options, seed, 1, None, fixture)
        return Dealt(dealt, leader, TyagaDetail(forced))

    def next_dealt(self, state: State[Any], fixture: Fixture | None) -> Dealt:
        result = state.result
        winner = result.winner if result is not None else None
        leader = winner if winner is not None else state.last_player
        number = state.deal_number + 1
        dealt, leader, forced = _deal(
            state.players, state.options, state.seed, number, leader, fixture
        )
        return Dealt(dealt, leader, TyagaDetail(forced))

    # -- moves -----------------------------------------------------------------

    def legal_moves(self, state: State[Any]) -> tuple[Move, ...]:
        turn = state.turn
        if turn is None:
            return ()
        hand = state.hands[turn]
        ends = state.ends
        if ends is None:
            forced = state.detail.forced_lead
            if forced is not None:
                return (LEADS[forced.index],)
            return tuple(LEADS[t.index] for t in hand)
        # Every tile that fits L, then every tile that fits R, in hand order. One
        # plain loop: two list comprehensions cost a function call and a closure each.
        fits_left = _PLAYS_ON_L[ends[0]]
        fits_right = _PLAYS_ON_R[ends[1]]
        on_left: list[Move] = []
        on_right: list[Move] = []
        for t in hand:
            if play := fits_left[t.index]:
                on_left.append(play)
            if play := fits_right[t.index]:
                on_right.append(play)
        if on_left or on_right:
            return (*on_left, *on_right)
        return (DRAW,) if state.boneyard else (PASS,)

    def apply(self, state: State[Any], move: Move) -> tuple[TyagaState, tuple[Event, ...]]:
        seat = state.turn
        assert seat is not None
        if move.kind is not _PLAY:
            return self._draw_or_pass(state, seat, move)
        # Laying a tile, nearly every move: read here rather than in a helper.
        tile = move.tile
        assert tile is not None
        hands = state.hands
        hand = hands[seat]
        at = find_tile(hand, tile)
        if at < 0:
            raise not_in_hand(tile)
        if move.across:
            raise _illegal(move)
        ends = state.ends
        if ends is None:
            forced = state.detail.forced_lead
            if forced is not None and tile is not forced:
                raise IllegalMove(f"this deal opens with {forced}", "forced_lead", tile=str(forced))
            line, ends = lay_first(tile, move.flip)
        else:
            end = move.end
            if end is None:
                raise _illegal(move)
            value = ends[0] if end == "L" else ends[1]
            if tile.hi != value and tile.lo != value:
                raise does_not_fit(tile, ends)
            line, ends = lay_matching(state.line, ends, tile, end)
        hands = replace_hand(hands, seat, hand[:at] + hand[at + 1 :])
        turn = (seat + 1) % state.players
        played = state.after_play(hands, line, ends, turn, state.counter + 1, seat)
        events = (moved(seat, move),)
        if not hands[seat]:
            return self._end_deal(played, _DOMINO, seat, events)
        # With the boneyard empty every tile is in a hand or on the line. If the
        # ends differ, the line shows the left value an odd number of times, so
        # not all eight halves of that value are on it: some hand can still play.
        # So a block needs equal ends and an empty boneyard.
        if ends[0] == ends[1] and not state.boneyard and nobody_can_move(played):
            return self._end_deal(played, _BLOCK, None, events)
        return played, events

    def _draw_or_pass(
        self, state: State[Any], seat: int, move: Move
    ) -> tuple[TyagaState, tuple[Event, ...]]:
        kind = move.kind
        if kind is not _DRAW and kind is not _PASS:
            raise not_a_move_in(self.title, move)
        if can_play(state.hands[seat], state.ends):
            raise IllegalMove(
                f"{kind.value} is not allowed: you hold a playable tile",
                "must_play",
                move=kind.value,
            )
        if kind is _DRAW:
            return self._draw(state, seat)
        if state.boneyard:
            raise IllegalMove(
                "pass is not allowed while the boneyard has tiles: draw",
                "must_draw",
            )
        turn = next_seat(seat, state.players)
        return state.after_pass(turn, state.counter + 1), (moved(seat, move),)

    def _draw(self, state: State[Any], seat: int) -> tuple[TyagaState, tuple[Event, ...]]:
        if not state.boneyard:
            raise IllegalMove("the boneyard is empty: pass", "boneyard_empty")
        tile = state.boneyard[0]
        hands = replace_hand(state.hands, seat, state.hands[seat] + (tile,))
        drawn = state.but(hands=hands, boneyard=state.boneyard[1:], counter=state.counter + 1)
        events = (moved(seat, DRAW), Event("draw", seat, DRAW, tile))
        if nobody_can_move(drawn):
            return self._end_deal(drawn, _BLOCK, None, events)
        return drawn, tuple(events)

    def _end_deal(
        self, state: TyagaState, end: DealEnd, winner: int | None, events: tuple[Event, ...]
    ) -> tuple[TyagaState, tuple[Event, ...]]:
        """The winner (of a domino, or the sole lowest hand of a block) scores
        the pips left in every other hand."""
        pips = [sum(map(_pips_of, hand)) for hand in state.hands]
        if winner is None:
            winner = sole_lowest(pips)
        scores = [0] * state.players
        if winner is not None:
            scores[winner] = sum(pips) - pips[winner]
        totals = tuple(map(add, state.match_scores, scores))  # both one per seat
        target = int(state.options["target"])
        winners: tuple[int, ...] = ()
        if max(totals) >= target:
            winners = tuple(s for s, total in enumerate(totals) if total >= target)
        return finish_deal(state, events, DealResult(end, winner, tuple(scores)), totals, winners)

    # -- seeing ----------------------------------------------------------------

    def public(self, state: State[Any]) -> TyagaPublic:
        return TyagaPublic()

    def match_target(self, options: Mapping[str, OptionValue]) -> int | None:
        return int(options["target"])


def _deal(
    players: int,
    options: Mapping[str, OptionValue],
    seed: int,
    deal_number: int,
    leader: int | None,
    fixture: Fixture | None,
) -> tuple[Fixture, int, Tile | None]:
    """The deal as dealt, its leader, and the tile he must lead with, if any.

    ``leader`` is the one the rules give this deal, or ``None`` to leave it to
    the opening rule or, with opening any, to chance.
    """

    def no_opening(dealt: Fixture) -> str | None:
        if _opening(dealt, options) is None:
            return "the rules would reshuffle this deal: no tile may open it"
        return None

    random_leader = options["opening"] == "any" and leader is None
    dealt, _ = deal_tiles(
        DOUBLE_SIX,
        players,
        int(options["hand_size"]),
        seed,
        deal_number,
        fixture,
        leader_rule=None if random_leader else "this deal's leader is set by the rules",
        redeal=no_opening,
    )
    opening = _opening(dealt, options)
    assert opening is not None  # deal_tiles keeps only a deal that some tile may open
    forced_seat, forced_tile = opening
    if forced_seat is not None:
        return dealt, forced_seat, forced_tile
    if leader is None:
        dealt = with_drawn_leader(dealt, seed, players)
        assert dealt.leader is not None
        leader = dealt.leader
    return dealt, leader, None


def _opening(
    dealt: Fixture, options: Mapping[str, OptionValue]
) -> tuple[int | None, Tile | None] | None:
    """Who must lead with which tile; ``(None, None)`` for a free lead;
    ``None`` when the rules reshuffle."""
    opening = options["opening"]
    if opening == "any":
        return None, None
    if opening == "double_six":
        wanted: list[Tile] = [DOUBLE_SIX_TILE]
    else:
        wanted = [Tile(v, v) for v in range(6, -1, -1)]
        if options["no_double"] == "blank":
            wanted += [Tile(v, 0) for v in range(6, 0, -1)]
    for tile in wanted:
        for seat, hand in enumerate(dealt.hands):
            if find_tile(hand, tile) >= 0:
                return seat, tile
    return None


def _illegal(move: Move) -> IllegalMove:
    return IllegalMove(f"{move} is not a legal move here", "illegal", move=str(move))


register(Tyaga())
