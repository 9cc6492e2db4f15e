"""Tyaga, the Draw / Block game: draw until you can play; lowest hand wins a block."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.dealing import (
    check_fixture,
    fit_error_text,
    lay_first,
    lay_matching,
    next_seat,
    replace_hand,
    rng,
    shuffle_deal,
    without,
)
from engine.errors import BadFixture, BadOption, IllegalMove
from engine.moves import DRAW, PASS, Kind, Move
from engine.options import OptionSpec
from engine.seatview import seat_view
from engine.state import DealEnd, DealResult, Event, Fixture, OptionValue, State, View
from engine.tiles import DOUBLE_SIX, Tile
from engine.variant import register

DOUBLE_SIX_TILE = Tile(6, 6)


@dataclass(frozen=True, slots=True)
class TyagaDetail:
    forced_lead: Tile | None  # the opening tile the rules make the leader play, if any


TyagaState = State[TyagaDetail]


def default_hand_size(players: int) -> int:
    return 7 if players <= 4 else 5 if players == 5 else 4


class Tyaga:
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
            "with highest_double, when nobody holds a double",
            choices=("reshuffle", "blank"),
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

    def new_match(
        self,
        players: int,
        options: Mapping[str, OptionValue],
        seed: int,
        fixture: Fixture | None = None,
    ) -> TyagaState:
        blank = (0,) * players
        return self._deal(players, options, seed, 1, 0, blank, None, fixture)

    def next_deal(self, state: State[Any], fixture: Fixture | None = None) -> TyagaState:
        result = state.result
        winner = result.winner if result is not None else None
        leader = winner if winner is not None else state.last_player
        return self._deal(
            state.players,
            state.options,
            state.seed,
            state.deal_number + 1,
            state.counter,
            state.match_scores,
            leader,
            fixture,
        ).but(result=result)  # the last finished deal stays on show until the next one ends

    def _deal(
        self,
        players: int,
        options: Mapping[str, OptionValue],
        seed: int,
        deal_number: int,
        counter: int,
        scores: tuple[int, ...],
        leader: int | None,
        fixture: Fixture | None,
    ) -> TyagaState:
        hand_size = int(options["hand_size"])
        random_leader = options["opening"] == "any" and leader is None
        if fixture is not None:
            check_fixture(fixture, DOUBLE_SIX, players, hand_size)
            if fixture.leader is not None and not random_leader:
                raise BadFixture("this deal's leader is set by the rules; leave 'leader' out")
            opening = self._opening(fixture, options)
            if opening is None:
                raise BadFixture("the rules would reshuffle this deal: no tile may open it")
            dealt = fixture
        else:
            attempt = 0
            while True:
                dealt = shuffle_deal(DOUBLE_SIX, players, hand_size, seed, deal_number, attempt)
                opening = self._opening(dealt, options)
                if opening is not None:
                    break
                attempt += 1
        forced_seat, forced_tile = opening
        if forced_seat is not None:
            leader = forced_seat
        elif leader is None:
            leader = dealt.leader
            if leader is None:
                leader = rng(seed, "leader").randrange(players)
            if not 0 <= leader < players:
                raise BadFixture(f"leader {leader} is not a seat")
            dealt = Fixture(dealt.hands, dealt.boneyard, leader)
        return State(
            variant=self.name,
            players=players,
            options=options,
            seed=seed,
            deal_number=deal_number,
            hands=dealt.hands,
            boneyard=dealt.boneyard,
            line=(),
            ends=None,
            turn=leader,
            leader=leader,
            counter=counter,
            last_player=None,
            match_scores=scores,
            result=None,
            deal_over=False,
            match_over=False,
            winners=(),
            dealt=dealt,
            detail=TyagaDetail(forced_tile),
        )

    @staticmethod
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
                if tile in hand:
                    return seat, tile
        return None

    # -- moves -----------------------------------------------------------------

    def legal_moves(self, state: State[Any]) -> tuple[Move, ...]:
        if state.turn is None:
            return ()
        hand = state.hands[state.turn]
        ends = state.ends
        if ends is None:
            forced = state.detail.forced_lead
            if forced is not None:
                return (Move.lead(forced),)
            return tuple(Move.lead(t) for t in hand)
        left, right = ends
        moves = [Move.play(t, "L") for t in hand if t.hi == left or t.lo == left]
        moves += [Move.play(t, "R") for t in hand if t.hi == right or t.lo == right]
        if moves:
            return tuple(moves)
        return (DRAW,) if state.boneyard else (PASS,)

    def apply(self, state: State[Any], move: Move) -> tuple[TyagaState, tuple[Event, ...]]:
        seat = state.turn
        assert seat is not None
        if move.kind is Kind.PLAY:
            return self._play(state, seat, move)
        if move.kind is Kind.DRAW or move.kind is Kind.PASS:
            if _playable(state.hands[seat], state.ends):
                raise IllegalMove(
                    f"{move.kind.value} is not allowed: you hold a playable tile",
                    "must_play",
                    move=move.kind.value,
                )
            if move.kind is Kind.DRAW:
                return self._draw(state, seat)
            if state.boneyard:
                raise IllegalMove(
                    "pass is not allowed while the boneyard has tiles: draw",
                    "must_draw",
                )
            turn = next_seat(seat, state.players)
            return state.but(turn=turn, counter=state.counter + 1), (Event("move", seat, move),)
        raise IllegalMove(f"{move} is not a move in {self.title}", "wrong_kind", move=str(move))

    def _play(
        self, state: State[Any], seat: int, move: Move
    ) -> tuple[TyagaState, tuple[Event, ...]]:
        tile = move.tile
        assert tile is not None
        hand = state.hands[seat]
        if tile not in hand or move.across:
            raise _not_in_hand(tile) if tile not in hand else _illegal(move)
        ends = state.ends
        if ends is None:
            forced = state.detail.forced_lead
            if forced is not None and tile is not forced:
                raise IllegalMove(f"this deal opens with {forced}", "forced_lead", tile=str(forced))
            line, ends = lay_first(tile, move.flip)
        else:
            if move.end is None:
                raise _illegal(move)
            value = ends[0] if move.end == "L" else ends[1]
            if not tile.has(value):
                raise IllegalMove(
                    fit_error_text(tile, ends),
                    "does_not_fit",
                    tile=str(tile),
                    left=ends[0],
                    right=ends[1],
                )
            line, ends = lay_matching(state.line, ends, tile, move.end)
        hands = replace_hand(state.hands, seat, without(hand, tile))
        events: list[Event] = [Event("move", seat, move)]
        played = state.but(
            hands=hands,
            line=line,
            ends=ends,
            turn=next_seat(seat, state.players),
            counter=state.counter + 1,
            last_player=seat,
        )
        if not hands[seat]:
            return self._end_deal(played, DealEnd.DOMINO, seat, events)
        if _blocked(played):
            return self._end_deal(played, DealEnd.BLOCK, None, events)
        return played, tuple(events)

    def _draw(self, state: State[Any], seat: int) -> tuple[TyagaState, tuple[Event, ...]]:
        if not state.boneyard:
            raise IllegalMove("the boneyard is empty: pass", "boneyard_empty")
        tile = state.boneyard[0]
        hands = replace_hand(state.hands, seat, state.hands[seat] + (tile,))
        drawn = state.but(hands=hands, boneyard=state.boneyard[1:], counter=state.counter + 1)
        events = [Event("move", seat, DRAW), Event("draw", seat, DRAW, tile)]
        if _blocked(drawn):
            return self._end_deal(drawn, DealEnd.BLOCK, None, events)
        return drawn, tuple(events)

    def _end_deal(
        self, state: TyagaState, end: DealEnd, winner: int | None, events: list[Event]
    ) -> tuple[TyagaState, tuple[Event, ...]]:
        pips = [sum(t.pips for t in hand) for hand in state.hands]
        if winner is None:
            low = min(pips)
            lowest = [seat for seat, p in enumerate(pips) if p == low]
            winner = lowest[0] if len(lowest) == 1 else None
        scores = [0] * state.players
        if winner is not None:
            scores[winner] = sum(pips) - pips[winner]
        totals = tuple(a + b for a, b in zip(state.match_scores, scores, strict=True))
        target = int(state.options["target"])
        winners = tuple(s for s, total in enumerate(totals) if total >= target)
        result = DealResult(end, winner, tuple(scores))
        events.append(
            Event(
                "deal_over",
                winner,
                info=(
                    ("end", end.value),
                    ("winner", winner),
                    ("scores", result.scores),
                ),
            )
        )
        if winners:
            events.append(Event("match_over", info=(("winners", winners),)))
        over = state.but(
            turn=None,
            match_scores=totals,
            result=result,
            deal_over=True,
            match_over=bool(winners),
            winners=winners,
        )
        return over, tuple(events)

    # -- seeing ----------------------------------------------------------------

    def view(self, state: State[Any], seat: int) -> View:
        legal = self.legal_moves(state) if state.turn == seat else ()
        return seat_view(state, seat, legal, self.public_details(state))

    def public_details(self, state: State[Any]) -> dict[str, Any]:
        return {}


def _playable(hand: tuple[Tile, ...], ends: tuple[int, int] | None) -> bool:
    if ends is None:
        return bool(hand)
    left, right = ends
    return any(t.hi in (left, right) or t.lo in (left, right) for t in hand)


def _blocked(state: State[Any]) -> bool:
    """Nobody can move: nothing to draw and no tile in any hand fits."""
    return not state.boneyard and not any(_playable(h, state.ends) for h in state.hands)


def _not_in_hand(tile: Tile) -> IllegalMove:
    return IllegalMove(f"{tile} is not in your hand", "not_in_hand", tile=str(tile))


def _illegal(move: Move) -> IllegalMove:
    return IllegalMove(f"{move} is not a legal move here", "illegal", move=str(move))


register(Tyaga())
