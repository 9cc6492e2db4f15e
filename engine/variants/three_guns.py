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

from engine.dealing import check_fixture, next_seat, replace_hand, shuffle_deal, without
from engine.errors import BadFixture, IllegalMove
from engine.moves import PASS, End, Kind, Move
from engine.options import OptionSpec
from engine.seatview import seat_view
from engine.state import DealEnd, DealResult, Event, Fixture, OptionValue, Placed, State, View
from engine.tiles import THREE_GUNS_SET, Tile, pip_total
from engine.variant import register

SIX_SIX: Final = Tile(6, 6)
DARTAGNAN: Final = Tile(0, 0)
MUSKETEERS: Final = frozenset({Tile(5, 1), Tile(4, 2), Tile(3, 3)})
#: The tiles that may be played across an end.
ACROSS: Final = MUSKETEERS | {DARTAGNAN}
HAND_SIZE: Final = 7
SUM: Final = 6
TOKENS: Final = 6
TOKENS_TO_WIN: Final = 4

Values = tuple[int, ...]
EndPair = tuple[Values, Values]
NO_ENDS: Final[EndPair] = ((), ())


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


def normal_end(outer: int) -> tuple[Values, Values]:
    """(shows, accepts) of an end whose tile was laid normally with ``outer`` outward.

    An end showing 0 accepts nothing: a 6 would be needed, and no 6 is ever played.
    """
    return (outer,), ((SUM - outer,) if outer else ())


def across_end(tile: Tile, shows: Values) -> tuple[Values, Values]:
    """(shows, accepts) of an end once ``tile`` is laid across it.

    A musketeer ``[a|b]`` shows both halves; since ``a + b = 6``, a touching half that adds
    up to six with one of them is ``b`` or ``a``: the end accepts its own halves.
    D'Artagnan mirrors: the end accepts exactly what it showed when he was laid.
    """
    if tile is DARTAGNAN:
        return shows, shows
    halves = (tile.lo,) if tile.is_double else (tile.lo, tile.hi)
    return halves, halves


def fits(tile: Tile, accepts: Values) -> bool:
    """Whether ``tile`` may be laid normally on an end that accepts ``accepts``.

    No end accepts 0 while d'Artagnan is in a hand (only his own mirror can), so this
    never lets him be laid normally.
    """
    return tile.hi in accepts or tile.lo in accepts


def first_playable(hand: tuple[Tile, ...], accepts: EndPair) -> Tile | None:
    """A tile of ``hand`` that can be played somewhere (a special always can)."""
    left, right = accepts
    for tile in hand:
        if tile in ACROSS or fits(tile, left) or fits(tile, right):
            return tile
    return None


def describe(accepts: Values) -> str:
    return " or ".join(str(v) for v in accepts) if accepts else "nothing"


class ThreeGuns:
    name = "three_guns"
    title = "Three Guns"
    aliases: tuple[str, ...] = ("musketeers", "muszkieterowie", "three-guns")
    min_players = 3
    max_players = 3
    option_specs: tuple[OptionSpec, ...] = ()

    def check_options(self, players: int, options: Mapping[str, OptionValue]) -> None:
        """Three Guns has no options."""

    # -- dealing ---------------------------------------------------------------

    def new_match(
        self,
        players: int,
        options: Mapping[str, OptionValue],
        seed: int,
        fixture: Fixture | None = None,
    ) -> GunsState:
        return self._deal(players, options, seed, 1, 0, (0,) * players, None, fixture)

    def next_deal(self, state: State[Any], fixture: Fixture | None = None) -> GunsState:
        return self._deal(
            state.players,
            state.options,
            state.seed,
            state.deal_number + 1,
            state.counter,
            state.match_scores,
            state.result,
            fixture,
        )

    def _deal(
        self,
        players: int,
        options: Mapping[str, OptionValue],
        seed: int,
        deal_number: int,
        counter: int,
        tokens: tuple[int, ...],
        result: DealResult | None,
        fixture: Fixture | None,
    ) -> GunsState:
        attempt = 0
        if fixture is not None:
            check_fixture(fixture, THREE_GUNS_SET, players, HAND_SIZE)
            if fixture.leader is not None:
                raise BadFixture("the holder of 6-6 leads every deal; leave 'leader' out")
            if fixture.boneyard[0] is SIX_SIX:
                raise BadFixture("6-6 is the left-over tile: the rules deal such a deal again")
            dealt = fixture
        else:
            dealt = shuffle_deal(THREE_GUNS_SET, players, HAND_SIZE, seed, deal_number, 0)
            # 6-6 always takes part in the deal, so it may not be the left-over tile.
            while dealt.boneyard[0] is SIX_SIX:
                attempt += 1
                dealt = shuffle_deal(THREE_GUNS_SET, players, HAND_SIZE, seed, deal_number, attempt)
        cardinal = next(seat for seat, hand in enumerate(dealt.hands) if SIX_SIX in hand)
        hand = dealt.hands[cardinal]
        at = hand.index(SIX_SIX)
        # The left-over tile takes the place of 6-6, which is put aside.
        swapped = hand[:at] + dealt.boneyard + hand[at + 1 :]
        return State(
            variant=self.name,
            players=players,
            options=options,
            seed=seed,
            deal_number=deal_number,
            hands=replace_hand(dealt.hands, cardinal, swapped),
            boneyard=(SIX_SIX,),
            line=(),
            ends=None,
            turn=cardinal,
            leader=cardinal,
            counter=counter,
            last_player=None,
            match_scores=tokens,
            result=result,
            deal_over=False,
            match_over=False,
            winners=(),
            dealt=dealt,
            detail=GunsDetail(cardinal, NO_ENDS, NO_ENDS, attempt),
        )

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
        raise IllegalMove(f"{move} is not a move in {self.title}", "wrong_kind", move=str(move))

    def _play(
        self, state: State[Any], seat: int, move: Move
    ) -> tuple[GunsState, tuple[Event, ...]]:
        tile = move.tile
        assert tile is not None
        if tile is SIX_SIX:
            raise IllegalMove("6-6 is never played: it is set aside", "never_played", tile="6-6")
        hand = state.hands[seat]
        if tile not in hand:
            raise IllegalMove(f"{tile} is not in your hand", "not_in_hand", tile=str(tile))
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
                state.line, state.ends, detail, tile, end, move.across
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
        if winner is None:
            winner = fewest_pips(state.hands)
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
        events.append(
            Event(
                "deal_over",
                winner,
                info=(("end", end.value), ("winner", winner), ("scores", result.scores)),
            )
        )
        if winners:
            events.append(Event("match_over", info=(("winners", winners),)))
        over = state.but(
            turn=None,
            match_scores=tuple(tokens),
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
        detail: GunsDetail = state.detail
        return {
            "pool": TOKENS - sum(state.match_scores),
            "tokens": list(state.match_scores),
            "aside": str(SIX_SIX),
            "cardinal": detail.cardinal,
            "shows": [list(detail.shows[0]), list(detail.shows[1])],
            "accepts": [list(detail.accepts[0]), list(detail.accepts[1])],
            "reshuffles": detail.reshuffles,
        }


Laid = tuple[tuple[Placed, ...], tuple[int, int], EndPair, EndPair]  # line, ends, shows, accepts


def lay_lead(tile: Tile, flip: bool) -> Laid:
    """The first tile, laid normally with both halves showing."""
    left, right = (tile.lo, tile.hi) if flip else (tile.hi, tile.lo)
    (show_l, acc_l), (show_r, acc_r) = normal_end(left), normal_end(right)
    return (Placed(left, right),), (left, right), (show_l, show_r), (acc_l, acc_r)


def lay_on_end(
    line: tuple[Placed, ...],
    ends: tuple[int, int],
    detail: GunsDetail,
    tile: Tile,
    end: End,
    across: bool,
) -> Laid:
    """Lay ``tile`` on ``end``, normally or across (the caller checked it may go there)."""
    side = 0 if end == "L" else 1
    if across:
        placed = Placed(tile.hi, tile.lo, True)
        outer = tile.hi
        show, accept = across_end(tile, detail.shows[side])
    else:
        # Only the musketeer itself could offer both halves to an end; it is on the table.
        acc = detail.accepts[side]
        touching = tile.hi if tile.hi in acc else tile.lo
        outer = tile.other(touching)
        placed = Placed(outer, touching) if side == 0 else Placed(touching, outer)
        show, accept = normal_end(outer)
    (show_l, show_r), (acc_l, acc_r) = detail.shows, detail.accepts
    if side == 0:
        return (placed,) + line, (outer, ends[1]), (show, show_r), (accept, acc_r)
    return line + (placed,), (ends[0], outer), (show_l, show), (acc_l, accept)


def checked_end(accepts: EndPair, tile: Tile, move: Move) -> End:
    """The end ``move`` goes on, once the rules allow it there."""
    end = move.end
    if move.across:
        if tile not in ACROSS:
            raise IllegalMove(
                f"{tile} cannot be played across: only the musketeers 5-1, 4-2, 3-3 "
                "and d'Artagnan 0-0 can",
                "not_across",
                tile=str(tile),
            )
        if end is None:
            raise IllegalMove(
                f"{tile} across needs an end: {tile}x@L or {tile}x@R", "no_end", tile=str(tile)
            )
        return end
    if tile is DARTAGNAN:
        raise IllegalMove(
            "0-0 can only be played across, like 0-0x@L", "across_only", tile=str(tile)
        )
    if end is None or not fits(tile, accepts[0 if end == "L" else 1]):
        where = f" {end}" if end is not None else ""
        raise IllegalMove(
            f"{tile} does not fit{where}: "
            f"L accepts {describe(accepts[0])}, R accepts {describe(accepts[1])}",
            "does_not_fit",
            tile=str(tile),
            left=accepts[0],
            right=accepts[1],
        )
    return end


def fewest_pips(hands: tuple[tuple[Tile, ...], ...]) -> int | None:
    """The seat with strictly the fewest pips in hand; ``None`` on a tie for fewest."""
    pips = [pip_total(hand) for hand in hands]
    low = min(pips)
    lowest = [seat for seat, p in enumerate(pips) if p == low]
    return lowest[0] if len(lowest) == 1 else None


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
