"""Thief of Baghdad (Złodziej z Bagdadu): two players build caravans of camels,
thieves steal whole caravans and handcuffs win stolen ones back.

The active caravan is the state's ``line``; closed caravans live in the detail.
A turn is a main play (a camel, a draw or a pass) and then at most one extra (a
steal or a recovery) right after one's own camel; ``phase`` says where in the
turn the seat to move stands.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from engine.dealing import (
    check_fixture,
    fit_error_text,
    lay_first,
    lay_matching,
    replace_hand,
    rng,
    shuffle_deal,
    without,
)
from engine.errors import BadFixture, BadOption, IllegalMove
from engine.moves import DONE, DRAW, PASS, Kind, Move
from engine.options import OptionSpec
from engine.seatview import seat_view
from engine.state import DealEnd, DealResult, Event, Fixture, OptionValue, Placed, State, View
from engine.tiles import DOUBLE_SIX, Tile
from engine.variant import register

HAND_SIZE: Final = 11
THIEVES: Final = frozenset((Tile(3, 3), Tile(6, 0), Tile(5, 1), Tile(4, 2)))
#: The handcuff doubles that win back a caravan stolen by each thief, higher first.
#: ``[3|3]`` has none: what it steals stays stolen.
HANDCUFFS: Final = {
    Tile(6, 0): (Tile(6, 6), Tile(0, 0)),
    Tile(5, 1): (Tile(5, 5), Tile(1, 1)),
    Tile(4, 2): (Tile(4, 4), Tile(2, 2)),
}
_THIEF_OF_CUFFS: Final = {cuffs: thief for thief, cuffs in HANDCUFFS.items()}
_CUFF_TILES: Final = frozenset(t for pair in HANDCUFFS.values() for t in pair)
#: What a tile left in a hand is worth to the opponent, by tile index.
HAND_VALUE: Final = tuple(6 if t in THIEVES else 3 if t in _CUFF_TILES else 1 for t in DOUBLE_SIX)
MAX_DEALS: Final = 100
MAX_TARGET: Final = 1000


class Phase(StrEnum):
    MAIN = "main"  # the turn's main play: camel, draw or pass
    AFTER_DRAW = "after_draw"  # only the drawn tile may be played, or done
    EXTRA = "extra_possible"  # a camel is down: steal, recover or done


@dataclass(frozen=True, slots=True)
class Caravan:
    """A caravan: the active one is ``open``; a thief makes it ``stolen`` and
    handcuffs make it ``recovered``, both closed for good."""

    camels: tuple[Placed, ...]
    status: str
    owner: int | None = None  # whose camels they are; nobody's until stolen
    thief: Tile | None = None
    handcuffs: tuple[Tile, Tile] | None = None

    def data(self) -> dict[str, Any]:
        """Plain data for the table and the replay output."""
        return {
            "state": self.status,
            "owner": self.owner,
            "thief": None if self.thief is None else str(self.thief),
            "handcuffs": None if self.handcuffs is None else [str(t) for t in self.handcuffs],
            "camels": len(self.camels),
            "tiles": [str(p) for p in self.camels],
        }


@dataclass(frozen=True, slots=True)
class BaghdadDetail:
    caravans: tuple[Caravan, ...]  # closed caravans, in the order they were closed
    phase: Phase
    drawn: Tile | None  # the tile drawn this turn, while it is the only one playable
    penalties: tuple[int, ...]  # "no camel" points each seat received this deal

    def at(self, phase: Phase, drawn: Tile | None = None) -> BaghdadDetail:
        return BaghdadDetail(self.caravans, phase, drawn, self.penalties)


BaghdadState = State[BaghdadDetail]
Outcome = tuple[BaghdadState, tuple[Event, ...]]


def parse_match(text: str) -> str:
    """Normalise the ``match`` option: ``deals:N`` (N even) or ``target:N``."""
    word = text.replace(" ", "").lower()
    kind, _, number = word.partition(":")
    if kind not in ("deals", "target"):
        raise _bad_match(text, "write deals:N (an even number of deals) or target:N (points)")
    if not number:
        number = "6" if kind == "deals" else "100"
    if not number.isdigit():
        raise _bad_match(text, f"{number!r} is not a whole number")
    n = int(number)
    if kind == "deals" and not (2 <= n <= MAX_DEALS and n % 2 == 0):
        raise _bad_match(text, f"the number of deals must be even, from 2 to {MAX_DEALS}")
    if kind == "target" and not 1 <= n <= MAX_TARGET:
        raise _bad_match(text, f"the target must be from 1 to {MAX_TARGET} points")
    return f"{kind}:{n}"


def _bad_match(text: str, why: str) -> BadOption:
    return BadOption(f"option match={text}: {why}", option="match", value=text, why=why)


class Baghdad:
    name = "baghdad"
    title = "Thief of Baghdad"
    aliases: tuple[str, ...] = ("thief", "zlodziej", "złodziej")
    min_players = 2
    max_players = 2
    option_specs: tuple[OptionSpec, ...] = (
        OptionSpec(
            "match",
            "deals:6",
            "deals:N plays N deals (N even), target:N plays until someone reaches N points",
            parse=parse_match,
        ),
    )

    def check_options(self, players: int, options: Mapping[str, OptionValue]) -> None:
        """Every ``match`` value its parser accepts is playable: nothing to check."""

    # -- dealing ---------------------------------------------------------------

    def new_match(
        self,
        players: int,
        options: Mapping[str, OptionValue],
        seed: int,
        fixture: Fixture | None = None,
    ) -> BaghdadState:
        if fixture is None:
            fixture = shuffle_deal(DOUBLE_SIX, players, HAND_SIZE, seed, 1, 0)
        check_fixture(fixture, DOUBLE_SIX, players, HAND_SIZE)
        leader = fixture.leader
        if leader is None:
            leader = rng(seed, "leader").randrange(players)
        elif not 0 <= leader < players:
            raise BadFixture(f"leader {leader} is not a seat")
        dealt = Fixture(fixture.hands, fixture.boneyard, leader)
        return _deal(self.name, players, options, seed, (1, 0, leader), dealt)

    def next_deal(self, state: State[Any], fixture: Fixture | None = None) -> BaghdadState:
        """Deal the next deal; the players lead deals in turn."""
        number = state.deal_number + 1
        if fixture is None:
            fixture = shuffle_deal(DOUBLE_SIX, state.players, HAND_SIZE, state.seed, number, 0)
        check_fixture(fixture, DOUBLE_SIX, state.players, HAND_SIZE)
        if fixture.leader is not None:
            raise BadFixture(f"deal {number} is led by the players in turn; leave 'leader' out")
        steps = (number, state.counter, 1 - state.leader)
        fresh = _deal(self.name, state.players, state.options, state.seed, steps, fixture)
        return fresh.but(match_scores=state.match_scores, result=state.result)

    # -- moves -----------------------------------------------------------------

    def legal_moves(self, state: State[Any]) -> tuple[Move, ...]:
        seat = state.turn
        if seat is None:
            return ()
        detail: BaghdadDetail = state.detail
        if detail.phase is Phase.EXTRA:
            return (*_extras(state, seat), DONE)
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
                return _steal(state, seat, move)
            if kind is Kind.RECOVER:
                return _recover(state, seat, move)
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
        raise IllegalMove(f"{move} is not a move in {self.title}", "wrong_kind", move=str(move))

    # -- seeing ----------------------------------------------------------------

    def view(self, state: State[Any], seat: int) -> View:
        legal = self.legal_moves(state) if state.turn == seat else ()
        return seat_view(state, seat, legal, self.public_details(state))

    def public_details(self, state: State[Any]) -> dict[str, Any]:
        """Caravans (closed ones in the order they closed, then the active one),
        the phase of the turn and the penalty points received this deal."""
        detail: BaghdadDetail = state.detail
        caravans = [c.data() for c in detail.caravans]
        if state.line:
            caravans.append(Caravan(state.line, "open").data())
        return {
            "caravans": caravans,
            "phase": detail.phase.value,
            "penalties": list(detail.penalties),
        }


def _deal(
    name: str,
    players: int,
    options: Mapping[str, OptionValue],
    seed: int,
    steps: tuple[int, int, int],
    dealt: Fixture,
) -> BaghdadState:
    """A fresh deal of a fresh match; ``steps`` is (deal number, moves so far, leader)."""
    number, counter, leader = steps
    return State(
        variant=name,
        players=players,
        options=options,
        seed=seed,
        deal_number=number,
        hands=dealt.hands,
        boneyard=dealt.boneyard,
        line=(),
        ends=None,
        turn=leader,
        leader=leader,
        counter=counter,
        last_player=None,
        match_scores=(0,) * players,
        result=None,
        deal_over=False,
        match_over=False,
        winners=(),
        dealt=dealt,
        detail=BaghdadDetail((), Phase.MAIN, None, (0,) * players),
    )


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


def _extras(state: State[Any], seat: int) -> list[Move]:
    """The steal and the recoveries open to ``seat`` right after his camel."""
    hand = state.hands[seat]
    moves: list[Move] = []
    if state.ends is not None:
        shown = Tile(*state.ends)
        if shown in THIEVES and shown in hand:
            moves.append(Move.steal(shown))
    for caravan in state.detail.caravans:
        if caravan.status != "stolen" or caravan.owner == seat or caravan.thief is None:
            continue
        cuffs = HANDCUFFS.get(caravan.thief)
        if cuffs is not None and cuffs[0] in hand and cuffs[1] in hand:
            moves.append(Move.recover(*cuffs))
    return moves


# -- applying ------------------------------------------------------------------


def _moved(seat: int, move: Move) -> Event:
    return Event("move", seat, move)


def _camel(state: State[Any], seat: int, move: Move) -> Outcome:
    tile = move.tile
    assert tile is not None
    hand = state.hands[seat]
    if tile not in hand:
        raise _not_in_hand(tile)
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
    if hand and _extras(played, seat):
        return played.but(detail=played.detail.at(Phase.EXTRA)), tuple(events)
    return _end_turn(played, seat, events)


def _check_fit(tile: Tile, move: Move, ends: tuple[int, int]) -> None:
    left, right = ends
    if move.end is None or not (tile.has(left) or tile.has(right)):
        text = fit_error_text(tile, ends)
        raise IllegalMove(text, "does_not_fit", tile=str(tile), left=left, right=right)
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
    ends = state.ends
    if any(_fits(t, ends) for t in state.hands[seat]):
        raise IllegalMove("you hold a playable tile; pass is not allowed", "must_play")
    if state.boneyard:
        raise IllegalMove("pass is not allowed while the boneyard has tiles: draw", "must_draw")
    return _end_turn(state.but(counter=state.counter + 1), seat, [_moved(seat, PASS)])


def _steal(state: State[Any], seat: int, move: Move) -> Outcome:
    thief = move.tile
    assert thief is not None and state.ends is not None
    if thief not in THIEVES:
        raise IllegalMove(f"{thief} is not a thief", "not_thief", tile=str(thief))
    hand = state.hands[seat]
    if thief not in hand:
        raise _not_in_hand(thief)
    left, right = state.ends
    shown = Tile(left, right)
    if shown is not thief:
        text = (
            f"{thief} cannot steal this caravan: its ends show {left} and {right}"
            if shown in THIEVES
            else f"nothing to steal: the caravan's ends show {left} and {right}"
        )
        raise IllegalMove(text, "no_steal", tile=str(thief), left=left, right=right)
    detail: BaghdadDetail = state.detail
    caravan = Caravan(state.line, "stolen", seat, thief)
    stolen = state.but(
        hands=replace_hand(state.hands, seat, without(hand, thief)),
        line=(),
        ends=None,
        counter=state.counter + 1,
        last_player=seat,
        detail=BaghdadDetail((*detail.caravans, caravan), Phase.MAIN, None, detail.penalties),
    )
    info = (("caravan", len(detail.caravans)), ("camels", len(caravan.camels)))
    return _end_turn(stolen, seat, [_moved(seat, move), Event("steal", seat, move, thief, info)])


def _recover(state: State[Any], seat: int, move: Move) -> Outcome:
    first, second = move.tile, move.second
    assert first is not None and second is not None
    pair = (first, second) if first.index >= second.index else (second, first)
    thief = _THIEF_OF_CUFFS.get(pair)
    if thief is None:
        text = f"{first} and {second} are not a pair of handcuffs"
        raise IllegalMove(text, "not_handcuffs", tiles=f"{first} {second}")
    hand = state.hands[seat]
    for tile in pair:
        if tile not in hand:
            raise _not_in_hand(tile)
    detail: BaghdadDetail = state.detail
    caravans = detail.caravans
    found = [
        i
        for i, c in enumerate(caravans)
        if c.thief is thief and c.status == "stolen" and c.owner != seat
    ]
    if not found:
        text = f"nothing to recover: your opponent holds no caravan stolen by {thief}"
        raise IllegalMove(text, "no_recover", thief=str(thief))
    i = found[0]
    won_back = Caravan(caravans[i].camels, "recovered", seat, thief, pair)
    recovered = state.but(
        hands=replace_hand(state.hands, seat, without(without(hand, pair[0]), pair[1])),
        counter=state.counter + 1,
        last_player=seat,
        detail=BaghdadDetail(
            (*caravans[:i], won_back, *caravans[i + 1 :]), Phase.MAIN, None, detail.penalties
        ),
    )
    info = (("caravan", i), ("camels", len(won_back.camels)))
    events = [_moved(seat, move), Event("recover", seat, move, thief, info)]
    return _end_turn(recovered, seat, events)


def _penalize(state: BaghdadState, seat: int, events: list[Event]) -> BaghdadState:
    """The "no camel" point: the opponent of ``seat`` scores 1, in the totals at once."""
    other = 1 - seat
    detail = state.detail
    penalties = tuple(p + (s == other) for s, p in enumerate(detail.penalties))
    scores = tuple(p + (s == other) for s, p in enumerate(state.match_scores))
    events.append(Event("penalty", other, info=(("points", 1), ("from", seat))))
    detail = BaghdadDetail(detail.caravans, Phase.MAIN, None, penalties)
    return state.but(match_scores=scores, detail=detail)


# -- ending turns, deals and the match -------------------------------------------


def _end_turn(state: BaghdadState, seat: int, events: list[Event]) -> Outcome:
    """Pass the turn, unless ``seat`` is out of tiles or nobody can move."""
    if state.detail.phase is not Phase.MAIN:
        state = state.but(detail=state.detail.at(Phase.MAIN))
    if not state.hands[seat]:
        return _end_deal(state, DealEnd.DOMINO, events)
    ends = state.ends
    # With no active caravan any tile starts one, so only an active caravan blocks.
    if (
        not state.boneyard
        and ends is not None
        and not any(_fits(t, ends) for hand in state.hands for t in hand)
    ):
        return _end_deal(state, DealEnd.BLOCK, events)
    return state.but(turn=1 - seat), tuple(events)


def deal_points(state: BaghdadState) -> tuple[int, ...]:
    """What each seat writes for the deal: the camels of his caravans, the
    tiles left in his opponent's hand, and the penalty points he received."""
    detail = state.detail
    points = list(detail.penalties)
    for caravan in detail.caravans:
        if caravan.owner is not None:
            points[caravan.owner] += len(caravan.camels)
    for seat, hand in enumerate(state.hands):
        points[1 - seat] += sum(HAND_VALUE[t.index] for t in hand)
    return tuple(points)


def _end_deal(state: BaghdadState, end: DealEnd, events: list[Event]) -> Outcome:
    points = deal_points(state)
    # The penalty points are in the running totals already.
    gained = (p - k for p, k in zip(points, state.detail.penalties, strict=True))
    totals = tuple(t + g for t, g in zip(state.match_scores, gained, strict=True))
    best = _best(points)
    winner = best[0] if len(best) == 1 else None
    info = (("end", end.value), ("winner", winner), ("scores", points))
    events.append(Event("deal_over", winner, info=info))
    winners = _best(totals) if _match_over(state, totals) else ()
    if winners:
        events.append(Event("match_over", info=(("winners", winners),)))
    over = state.but(
        turn=None,
        match_scores=totals,
        result=DealResult(end, winner, points),
        deal_over=True,
        match_over=bool(winners),
        winners=winners,
    )
    return over, tuple(events)


def _best(scores: tuple[int, ...]) -> tuple[int, ...]:
    top = max(scores)
    return tuple(seat for seat, score in enumerate(scores) if score == top)


def _match_over(state: BaghdadState, totals: tuple[int, ...]) -> bool:
    kind, _, number = str(state.options["match"]).partition(":")
    if kind == "deals":
        return state.deal_number >= int(number)
    return max(totals) >= int(number)


def _not_in_hand(tile: Tile) -> IllegalMove:
    return IllegalMove(f"{tile} is not in your hand", "not_in_hand", tile=str(tile))


def _not_now(move: Move, why: str, reason: str) -> IllegalMove:
    return IllegalMove(f"{move} is not allowed now: {why}", reason, move=str(move))


register(Baghdad())
