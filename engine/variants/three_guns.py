"""Three Guns (Trzej Muszkieterowie): three players, the rule of sixes, musketeers and
d'Artagnan laid across the line, and six tokens that change hands between deals.

The set is double-five plus ``[6|6]``. Whoever is dealt ``[6|6]`` (the cardinal) swaps it
for the one left-over tile, sets it aside (it is the deal's only boneyard tile and is never
played) and leads. Touching halves add up to six; a musketeer ``[1|5]``, ``[2|4]``,
``[3|3]`` or d'Artagnan ``[0|0]`` may instead go across any open end. A deal's winner
takes a token, from the pool while it lasts, then from the richest opponent.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from engine.dealing import next_seat, replace_hand, without
from engine.errors import IllegalMove
from engine.moves import PASS, Kind, Move
from engine.public import GunsPublic
from engine.rounds import deal_tiles, finish_deal, sole_lowest
from engine.state import DealEnd, DealResult, Event, Fixture, OptionValue, State
from engine.tiles import THREE_GUNS_SET, Tile, pip_total
from engine.variant import Unit, register
from engine.variants.common import CommonRules, Dealt
from engine.variants.refusals import not_a_move_in, not_in_hand
from engine.variants.three_guns_ends import (
    ACROSS,
    NO_ENDS,
    EndPair,
    checked_end,
    first_playable,
    fits,
    lay_lead,
    lay_on_end,
)

SIX_SIX: Final = Tile(6, 6)
#: What stays on the side for the whole deal: the cardinal's 6-6.
ASIDE: Final = (SIX_SIX,)
HAND_SIZE: Final = 7
TOKENS: Final = 6
TOKENS_TO_WIN: Final = 4


@dataclass(frozen=True, slots=True)
class GunsDetail:
    """The open ends as the rule of sixes sees them, L then R.

    ``shows`` is what an end shows: the outer half of a tile laid normally, both halves of
    a musketeer across, and, behind d'Artagnan, whatever the end showed before him (he
    mirrors it). ``accepts`` is the set of values a touching half may have.

    ``State.ends`` (display only) holds the outer half of a normally laid end tile and
    the higher half of a tile across; the rules read ``accepts``.
    """

    cardinal: int  # the holder of 6-6, who leads this deal
    shows: EndPair
    accepts: EndPair
    reshuffles: int  # times this deal was dealt again because 6-6 was left over


GunsState = State[GunsDetail]


class ThreeGuns(CommonRules):
    name = "three_guns"
    title = "Three Guns"
    aliases: tuple[str, ...] = ("musketeers", "muszkieterowie", "three-guns")
    min_players = 3
    max_players = 3
    tiles = THREE_GUNS_SET
    draws = False  # all but one tile are dealt; the cardinal sets aside his 6-6
    plays_across = True
    unit = Unit.TOKENS

    # -- dealing ---------------------------------------------------------------

    def first_dealt(
        self, players: int, options: Mapping[str, OptionValue], seed: int, fixture: Fixture | None
    ) -> Dealt:
        return _deal(players, seed, 1, fixture)

    def next_dealt(self, state: State[Any], fixture: Fixture | None) -> Dealt:
        return _deal(state.players, state.seed, state.deal_number + 1, fixture)

    def ready(self, state: State[Any]) -> GunsState:
        """The cardinal swaps 6-6 for the left-over tile and sets it aside for the deal."""
        return _set_aside(state)

    # -- moves -----------------------------------------------------------------

    def legal_moves(self, state: State[Any]) -> tuple[Move, ...]:
        seat = state.turn
        if seat is None:
            return ()
        hand = state.hands[seat]
        if not state.line:
            return tuple(Move.lead(t) for t in hand)
        left, right = state.detail.accepts
        moves: list[Move] = []
        for tile in hand:
            if fits(tile, left):
                moves.append(Move.play(tile, "L"))
            if fits(tile, right):
                moves.append(Move.play(tile, "R"))
            if tile in ACROSS:
                moves.append(Move.play(tile, "L", across=True))
                moves.append(Move.play(tile, "R", across=True))
        return tuple(moves) if moves else (PASS,)

    def apply(self, state: State[Any], move: Move) -> tuple[GunsState, tuple[Event, ...]]:
        seat = state.turn
        assert seat is not None
        if move.kind is Kind.PLAY:
            return self._play(state, seat, move)
        if move.kind is Kind.PASS:
            hand = state.hands[seat]
            playable = first_playable(hand, state.detail.accepts) if state.line else hand[0]
            if playable is not None:
                raise IllegalMove(
                    f"pass is not allowed: {playable} can be played",
                    "must_play",
                    move="pass",
                    tile=str(playable),
                )
            passed = state.but(turn=next_seat(seat, state.players), counter=state.counter + 1)
            return passed, (Event("move", seat, move),)
        if move.kind is Kind.DRAW:
            raise IllegalMove("there is no drawing in Three Guns: play a tile or pass", "no_draw")
        raise not_a_move_in(self.title, move)

    def _play(
        self, state: State[Any], seat: int, move: Move
    ) -> tuple[GunsState, tuple[Event, ...]]:
        tile = move.tile
        assert tile is not None
        if tile is SIX_SIX:
            raise IllegalMove("6-6 is never played: it is set aside", "never_played", tile="6-6")
        hand = state.hands[seat]
        if tile not in hand:
            raise not_in_hand(tile)
        detail: GunsDetail = state.detail
        if not state.line:
            if move.across:
                raise IllegalMove(
                    f"{move} cannot lead: the first tile is laid normally, not across",
                    "lead_across",
                    tile=str(tile),
                )
            # The first tile has no end; one written on it is ignored.
            move = Move.lead(tile, flip=move.flip)
            line, ends, shows, accepts = lay_lead(tile, move.flip)
        else:
            end = checked_end(detail.accepts, tile, move)
            assert state.ends is not None
            line, ends, shows, accepts = lay_on_end(
                state.line, state.ends, detail.shows, detail.accepts, tile, end, move.across
            )
        hands = replace_hand(state.hands, seat, without(hand, tile))
        played = state.but(
            hands=hands,
            line=line,
            ends=ends,
            turn=next_seat(seat, state.players),
            counter=state.counter + 1,
            last_player=seat,
            detail=GunsDetail(detail.cardinal, shows, accepts, detail.reshuffles),
        )
        events = [Event("move", seat, move)]
        if not hands[seat]:
            return self._end_deal(played, DealEnd.DOMINO, seat, events)
        if all(first_playable(h, accepts) is None for h in hands):
            # Nobody could ever move again: the block is declared at once.
            return self._end_deal(played, DealEnd.BLOCK, None, events)
        return played, tuple(events)

    def _end_deal(
        self, state: GunsState, end: DealEnd, winner: int | None, events: list[Event]
    ) -> tuple[GunsState, tuple[Event, ...]]:
        """The winner (of a domino, or the sole lowest hand of a block) takes a
        token: from the pool while it has one, else from the richest opponent."""
        if winner is None:
            winner = sole_lowest([pip_total(hand) for hand in state.hands])
        tokens = list(state.match_scores)
        scores = [0] * state.players
        winners: tuple[int, ...] = ()
        if winner is not None:
            source = token_source(state.match_scores, winner)
            tokens[winner] += 1
            scores[winner] = 1
            if source is not None:
                tokens[source] -= 1
                scores[source] = -1
            pool = TOKENS - sum(tokens)
            events.append(Event("token", winner, info=(("from", source), ("pool", pool))))
            if tokens[winner] >= TOKENS_TO_WIN:
                winners = (winner,)
        result = DealResult(end, winner, tuple(scores))
        return finish_deal(state, events, result, tuple(tokens), winners)

    # -- seeing ----------------------------------------------------------------

    def public(self, state: State[Any]) -> GunsPublic:
        detail: GunsDetail = state.detail
        return GunsPublic(
            pool=TOKENS - sum(state.match_scores),
            tokens=state.match_scores,
            aside=SIX_SIX,
            cardinal=detail.cardinal,
            shows=detail.shows,
            accepts=detail.accepts,
            reshuffles=detail.reshuffles,
        )

    def match_target(self, options: Mapping[str, OptionValue]) -> int | None:
        return TOKENS_TO_WIN


def _deal(players: int, seed: int, deal_number: int, fixture: Fixture | None) -> Dealt:
    """The deal as dealt, led by the holder of 6-6, and its detail: who that is and how
    many shuffles left 6-6 over (it always takes part in a deal, so they are dealt again)."""
    dealt, reshuffles = deal_tiles(
        THREE_GUNS_SET,
        players,
        HAND_SIZE,
        seed,
        deal_number,
        fixture,
        leader_rule="the holder of 6-6 leads every deal",
        redeal=_six_six_left_over,
    )
    cardinal = next(seat for seat, hand in enumerate(dealt.hands) if SIX_SIX in hand)
    return Dealt(dealt, cardinal, GunsDetail(cardinal, NO_ENDS, NO_ENDS, reshuffles))


def _set_aside(state: GunsState) -> GunsState:
    """The cardinal swaps 6-6 for the left-over tile and sets it aside for the deal."""
    cardinal = state.detail.cardinal
    hand = state.hands[cardinal]
    at = hand.index(SIX_SIX)
    swapped = hand[:at] + state.boneyard + hand[at + 1 :]
    return state.but(hands=replace_hand(state.hands, cardinal, swapped), boneyard=ASIDE)


def _six_six_left_over(dealt: Fixture) -> str | None:
    if dealt.boneyard[0] is SIX_SIX:
        return "6-6 is the left-over tile: the rules deal such a deal again"
    return None


def token_source(tokens: tuple[int, ...], winner: int) -> int | None:
    """Where the winner's token comes from: ``None`` for the pool while it has one,
    else the opponent holding the most, the first such after the winner in turn order."""
    if sum(tokens) < TOKENS:
        return None
    players = len(tokens)
    opponents = [(winner + step) % players for step in range(1, players)]
    most = max(tokens[seat] for seat in opponents)
    return next(seat for seat in opponents if tokens[seat] == most)


register(ThreeGuns())
