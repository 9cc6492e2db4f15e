"""Thief of Baghdad (Złodziej z Bagdadu): two players build caravans of camels,
thieves steal whole caravans and handcuffs win stolen ones back.

The active caravan is the state's ``line``; closed caravans live in the detail.
A turn is a main play (a camel, a draw or a pass) and then at most one extra (a
steal or a recovery) right after one's own camel; ``phase`` says where in the
turn the seat to move stands.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from engine.dealing import lay_first, lay_matching, replace_hand, without
from engine.errors import IllegalMove
from engine.moves import DONE, DRAW, PASS, Kind, Move
from engine.options import OptionSpec
from engine.public import BaghdadPublic
from engine.rounds import (
    can_play,
    deal_tiles,
    nobody_can_move,
    with_drawn_leader,
)
from engine.state import DealEnd, Event, Fixture, OptionValue, State
from engine.tiles import DOUBLE_SIX, Tile
from engine.variant import register
from engine.variants.baghdad_caravans import (
    BaghdadDetail,
    BaghdadState,
    Caravan,
    Outcome,
    Phase,
    extras,
    recover,
    steal,
)
from engine.variants.baghdad_scoring import HAND_VALUE, end_deal, match_length, parse_match
from engine.variants.common import CommonRules, Dealt
from engine.variants.refusals import does_not_fit, not_a_move_in, not_in_hand

HAND_SIZE: Final = 11


class Baghdad(CommonRules):
    name = "baghdad"
    title = "Thief of Baghdad"
    aliases: tuple[str, ...] = ("thief", "zlodziej", "złodziej")
    min_players = 2
    max_players = 2
    draws_at_will = True  # "allowed even when the player holds a playable tile"
    ends_at_will = True  # after a draw, or after a camel that a thief or handcuffs may follow
    option_specs: tuple[OptionSpec, ...] = (
        OptionSpec(
            "match",
            "deals:6",
            "deals:N plays N deals (N even), target:N plays until someone reaches N points",
            parse=parse_match,
        ),
    )

    # -- dealing ---------------------------------------------------------------

    def first_dealt(
        self, players: int, options: Mapping[str, OptionValue], seed: int, fixture: Fixture | None
    ) -> Dealt:
        dealt, _ = deal_tiles(DOUBLE_SIX, players, HAND_SIZE, seed, 1, fixture)
        dealt = with_drawn_leader(dealt, seed, players)
        assert dealt.leader is not None
        return Dealt(dealt, dealt.leader, BaghdadDetail((), Phase.MAIN, None, (0,) * players))

    def next_dealt(self, state: State[Any], fixture: Fixture | None) -> Dealt:
        """The next deal; the players lead deals in turn."""
        number = state.deal_number + 1
        rule = f"deal {number} is led by the players in turn"
        dealt, _ = deal_tiles(
            DOUBLE_SIX, state.players, HAND_SIZE, state.seed, number, fixture, leader_rule=rule
        )
        detail = BaghdadDetail((), Phase.MAIN, None, (0,) * state.players)
        return Dealt(dealt, 1 - state.leader, detail)

    # -- moves -----------------------------------------------------------------

    def legal_moves(self, state: State[Any]) -> tuple[Move, ...]:
        seat = state.turn
        if seat is None:
            return ()
        detail: BaghdadDetail = state.detail
        if detail.phase is Phase.EXTRA:
            return (*extras(state, seat), DONE)
        if detail.phase is Phase.AFTER_DRAW:
            assert detail.drawn is not None
            return (*_camels((detail.drawn,), state.ends), DONE)
        moves = _camels(state.hands[seat], state.ends)
        if state.boneyard:
            return (*moves, DRAW)
        return moves if moves else (PASS,)

    def apply(self, state: State[Any], move: Move) -> Outcome:
        seat = state.turn
        assert seat is not None
        phase = state.detail.phase
        kind = move.kind
        if phase is Phase.EXTRA:
            if kind is Kind.STEAL:
                stolen, events = steal(state, seat, move)
                return _end_turn(stolen, seat, events)
            if kind is Kind.RECOVER:
                recovered, events = recover(state, seat, move)
                return _end_turn(recovered, seat, events)
            if kind is Kind.DONE:
                return _end_turn(state.but(counter=state.counter + 1), seat, [_moved(seat, move)])
            raise _not_now(move, "your camel is down; steal, recover or say done", "camel_played")
        if kind is Kind.STEAL or kind is Kind.RECOVER:
            why = "a thief or handcuffs may be played only right after your own camel"
            raise _not_now(move, why, "extra_not_now")
        if phase is Phase.AFTER_DRAW:
            return _after_draw(state, seat, move)
        if kind is Kind.PLAY:
            return _camel(state, seat, move)
        if kind is Kind.DRAW:
            return _draw(state, seat)
        if kind is Kind.PASS:
            return _pass(state, seat)
        if kind is Kind.DONE:
            raise _not_now(move, "done ends a turn after a draw or a camel", "nothing_to_end")
        raise not_a_move_in(self.title, move)

    # -- seeing ----------------------------------------------------------------

    def public(self, state: State[Any]) -> BaghdadPublic:
        detail: BaghdadDetail = state.detail
        caravans = detail.caravans
        if state.line:
            caravans += (Caravan(state.line, "open"),)
        return BaghdadPublic(caravans, detail.phase, detail.penalties)

    def tile_points(self, tile: Tile) -> int:
        return HAND_VALUE[tile.index]

    def match_target(self, options: Mapping[str, OptionValue]) -> int | None:
        return match_length(options)[0]

    def match_deals(self, options: Mapping[str, OptionValue]) -> int | None:
        return match_length(options)[1]


# -- what may be played ----------------------------------------------------------


def _camels(tiles: tuple[Tile, ...], ends: tuple[int, int] | None) -> tuple[Move, ...]:
    """Every camel among ``tiles``: leads when no caravan is active, else each fitting end."""
    if ends is None:
        return tuple(Move.lead(t) for t in tiles)
    left, right = ends
    moves = [Move.play(t, "L") for t in tiles if t.hi == left or t.lo == left]
    moves += [Move.play(t, "R") for t in tiles if t.hi == right or t.lo == right]
    return tuple(moves)


def _fits(tile: Tile, ends: tuple[int, int] | None) -> bool:
    return ends is None or tile.has(ends[0]) or tile.has(ends[1])


# -- applying ------------------------------------------------------------------


def _moved(seat: int, move: Move) -> Event:
    return Event("move", seat, move)


def _camel(state: State[Any], seat: int, move: Move) -> Outcome:
    tile = move.tile
    assert tile is not None
    hand = state.hands[seat]
    if tile not in hand:
        raise not_in_hand(tile)
    if move.across:
        raise _not_now(move, "tiles are never played across in this game", "illegal")
    ends = state.ends
    if ends is None:
        # A caravan's first camel has no end; one written on it is ignored.
        move = Move.lead(tile, flip=move.flip)
        line, ends = lay_first(tile, move.flip)
    else:
        _check_fit(tile, move, ends)
        assert move.end is not None
        line, ends = lay_matching(state.line, ends, tile, move.end)
    hand = without(hand, tile)
    played = state.but(
        hands=replace_hand(state.hands, seat, hand),
        line=line,
        ends=ends,
        counter=state.counter + 1,
        last_player=seat,
        detail=state.detail.at(Phase.MAIN),
    )
    events = [_moved(seat, move)]
    if hand and extras(played, seat):
        return played.but(detail=played.detail.at(Phase.EXTRA)), tuple(events)
    return _end_turn(played, seat, events)


def _check_fit(tile: Tile, move: Move, ends: tuple[int, int]) -> None:
    left, right = ends
    if move.end is None or not (tile.has(left) or tile.has(right)):
        raise does_not_fit(tile, ends)
    value = left if move.end == "L" else right
    if not tile.has(value):
        text = f"{tile} does not fit {move.end} ({value})"
        raise IllegalMove(text, "does_not_fit", tile=str(tile), end=move.end, value=value)


def _draw(state: State[Any], seat: int) -> Outcome:
    if not state.boneyard:
        raise IllegalMove("draw is not allowed: the boneyard is empty", "boneyard_empty")
    tile = state.boneyard[0]
    playable = _fits(tile, state.ends)
    drawn = state.but(
        hands=replace_hand(state.hands, seat, state.hands[seat] + (tile,)),
        boneyard=state.boneyard[1:],
        counter=state.counter + 1,
        detail=state.detail.at(Phase.AFTER_DRAW, tile) if playable else state.detail,
    )
    events = [_moved(seat, DRAW), Event("draw", seat, DRAW, tile)]
    if playable:
        return drawn, tuple(events)
    # A drawn tile that cannot be played ends the turn at once, camel-less.
    return _end_turn(_penalize(drawn, seat, events), seat, events)


def _after_draw(state: State[Any], seat: int, move: Move) -> Outcome:
    drawn = state.detail.drawn
    assert drawn is not None
    if move.kind is Kind.PLAY:
        if move.tile is not drawn:
            text = f"only the drawn tile {drawn} may be played"
            raise IllegalMove(text, "only_drawn_tile", tile=str(drawn))
        return _camel(state, seat, move)
    if move.kind is Kind.DONE:
        events = [_moved(seat, DONE)]
        ended = _penalize(state.but(counter=state.counter + 1), seat, events)
        return _end_turn(ended, seat, events)
    raise _not_now(move, f"you drew {drawn}; play it or say done", "drawn_already")


def _pass(state: State[Any], seat: int) -> Outcome:
    if can_play(state.hands[seat], state.ends):
        raise IllegalMove("you hold a playable tile; pass is not allowed", "must_play")
    if state.boneyard:
        raise IllegalMove("pass is not allowed while the boneyard has tiles: draw", "must_draw")
    return _end_turn(state.but(counter=state.counter + 1), seat, [_moved(seat, PASS)])


def _penalize(state: BaghdadState, seat: int, events: list[Event]) -> BaghdadState:
    """The "no camel" point: the opponent of ``seat`` scores 1, in the totals at once."""
    other = 1 - seat
    detail = state.detail
    penalties = tuple(p + (s == other) for s, p in enumerate(detail.penalties))
    scores = tuple(p + (s == other) for s, p in enumerate(state.match_scores))
    events.append(Event("penalty", other, info=(("points", 1), ("from", seat))))
    detail = BaghdadDetail(detail.caravans, Phase.MAIN, None, penalties)
    return state.but(match_scores=scores, detail=detail)


# -- ending a turn ---------------------------------------------------------------


def _end_turn(state: BaghdadState, seat: int, events: list[Event]) -> Outcome:
    """Pass the turn, unless ``seat`` is out of tiles or nobody can move."""
    if state.detail.phase is not Phase.MAIN:
        state = state.but(detail=state.detail.at(Phase.MAIN))
    if not state.hands[seat]:
        return end_deal(state, DealEnd.DOMINO, events)
    # With no active caravan any tile starts one, so only an active caravan blocks.
    if state.ends is not None and nobody_can_move(state):
        return end_deal(state, DealEnd.BLOCK, events)
    return state.but(turn=1 - seat), tuple(events)


def _not_now(move: Move, why: str, reason: str) -> IllegalMove:
    return IllegalMove(f"{move} is not allowed now: {why}", reason, move=str(move))


register(Baghdad())
