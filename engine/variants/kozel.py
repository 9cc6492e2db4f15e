"""Kozel, "the goat": the Russian classic. Points left in hand are bad; whoever
reaches the target first is the goat and loses.

The holder of the highest double opens the first deal with it (the highest tile
when nobody holds a double); later deals are opened, with any tile, by the
previous deal's winner. Two doubles that fit both open ends may go down in one
move. A player with nothing to play draws one tile at a time, and passes once the
boneyard is empty. After a deal every player adds the pips left in his hand,
``[0|0]`` counting 25, but a score sheet opens only with a deal worth 13 or more.
Partners (seats 0+2 and 1+3) may share one sheet.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from engine import dealing
from engine.errors import BadFixture, BadOption, GameOver, IllegalMove
from engine.moves import DRAW, PASS, End, Kind, Move
from engine.options import OptionSpec
from engine.seatview import seat_view
from engine.state import (
    DealEnd,
    DealResult,
    Event,
    Fixture,
    Hands,
    OptionValue,
    Placed,
    State,
    View,
)
from engine.tiles import DOUBLE_SIX, Tile, rank
from engine.variant import register

BLANK_DOUBLE: Final = Tile(0, 0)
BLANK_DOUBLE_POINTS: Final = 25
OPENING_POINTS: Final = 13
#: Doubles from the highest down: the first-deal leader holds the first one dealt.
DOUBLES_DOWN: Final = tuple(Tile(v, v) for v in range(6, -1, -1))
TEAMS: Final = ((0, 2), (1, 3))


@dataclass(frozen=True, slots=True)
class KozelDetail:
    """What Kozel keeps beyond the common state."""

    opened: tuple[bool, ...]  # per seat: has its score sheet opened (partners share one)
    goats: tuple[int, ...]  # seats at or over the target once the match is over
    forced_lead: Tile | None  # the tile this deal opens with, when the first-deal rule applies


KozelState = State[KozelDetail]
Outcome = tuple[KozelState, tuple[Event, ...]]


class Kozel:
    name = "kozel"
    title = "Kozel (the goat)"
    aliases = ("goat", "козёл", "козел", "kozyol")
    min_players = 2
    max_players = 4
    option_specs = (
        OptionSpec("double_move", "on", "two doubles on both ends in one move", ("on", "off")),
        OptionSpec(
            "blank_double",
            "always",
            "[0|0] left in hand counts 25: always, or only when it is the last tile",
            ("always", "alone"),
        ),
        OptionSpec("teams", "off", "4 players: partners opposite share a sheet", ("on", "off")),
        OptionSpec("target", 101, "the total that makes a goat", low=11, high=1001),
    )

    def check_options(self, players: int, options: Mapping[str, OptionValue]) -> None:
        if options["teams"] == "on" and players != 4:
            raise BadOption(
                f"option teams=on needs 4 players, not {players}",
                option="teams",
                value="on",
                players=players,
            )

    # -- dealing ---------------------------------------------------------------

    def new_match(
        self,
        players: int,
        options: Mapping[str, OptionValue],
        seed: int,
        fixture: Fixture | None = None,
    ) -> KozelState:
        dealt = deal_tiles(players, seed, 1, fixture)
        leader, lead = first_deal_leader(dealt.hands)
        return State(
            variant=self.name,
            players=players,
            options=options,
            seed=seed,
            deal_number=1,
            hands=dealt.hands,
            boneyard=dealt.boneyard,
            line=(),
            ends=None,
            turn=leader,
            leader=leader,
            counter=0,
            last_player=None,
            match_scores=(0,) * players,
            result=None,
            deal_over=False,
            match_over=False,
            winners=(),
            dealt=dealt,
            detail=KozelDetail((False,) * players, (), lead),
        )

    def next_deal(self, state: State[Any], fixture: Fixture | None = None) -> KozelState:
        if state.match_over:
            raise GameOver("match")
        if not state.deal_over:
            raise IllegalMove("the deal is still being played", "deal_not_over")
        dealt = deal_tiles(state.players, state.seed, state.deal_number + 1, fixture)
        leader = state.result.winner if state.result is not None else None
        lead = None
        if leader is None:  # a fish with a tie for fewest points
            leader, lead = first_deal_leader(dealt.hands)
        return state.but(
            deal_number=state.deal_number + 1,
            hands=dealt.hands,
            boneyard=dealt.boneyard,
            line=(),
            ends=None,
            turn=leader,
            leader=leader,
            last_player=None,
            deal_over=False,
            dealt=dealt,
            detail=KozelDetail(state.detail.opened, (), lead),
        )

    # -- moves -----------------------------------------------------------------

    def legal_moves(self, state: State[Any]) -> tuple[Move, ...]:
        seat = state.turn
        if seat is None:
            return ()
        hand: tuple[Tile, ...] = state.hands[seat]
        if state.ends is None:
            lead = state.detail.forced_lead
            return (Move.lead(lead),) if lead is not None else tuple(Move.lead(t) for t in hand)
        left, right = state.ends
        moves = [Move.play(t, "L") for t in hand if t.has(left)]
        moves += [Move.play(t, "R") for t in hand if t.has(right)]
        if not moves:
            return (DRAW,) if state.boneyard else (PASS,)
        if left != right and state.options["double_move"] == "on":
            on_left = [t for t in hand if t.is_double and t.hi == left]
            on_right = [t for t in hand if t.is_double and t.hi == right]
            moves += [Move.double(a, b) for a in on_left for b in on_right]
        return tuple(moves)

    def apply(self, state: State[Any], move: Move) -> Outcome:
        seat = state.turn
        if seat is None:
            raise GameOver("match" if state.match_over else "deal")
        kind = move.kind
        if kind is Kind.PLAY and not move.across:
            return self._play(state, seat, move)
        if kind is Kind.DOUBLE:
            return self._double(state, seat, move)
        if kind is Kind.DRAW:
            return self._draw(state, seat)
        if kind is Kind.PASS:
            return self._pass(state, seat)
        raise IllegalMove(f"{move} is not a move in {self.title}", "wrong_kind", move=str(move))

    def _play(self, state: KozelState, seat: int, move: Move) -> Outcome:
        tile = move.tile
        assert tile is not None
        hand = state.hands[seat]
        require_in_hand(hand, tile)
        if state.ends is None:
            lead = state.detail.forced_lead
            if lead is not None and tile is not lead:
                why = "the highest double leads" if lead.is_double else "the highest tile leads"
                raise IllegalMove(
                    f"this deal opens with {lead}: {why}", "forced_lead", tile=str(lead)
                )
            line, ends = dealing.lay_first(tile, move.flip)
        else:
            end = fitting_end(tile, move.end, state.ends)
            line, ends = dealing.lay_matching(state.line, state.ends, tile, end)
        hands = dealing.replace_hand(state.hands, seat, dealing.without(hand, tile))
        return self._placed(state, seat, move, hands, line, ends)

    def _double(self, state: KozelState, seat: int, move: Move) -> Outcome:
        left, right = move.tile, move.second
        assert left is not None and right is not None
        if state.options["double_move"] != "on":
            raise IllegalMove("the double move is off in this game", "double_move_off")
        hand = state.hands[seat]
        require_in_hand(hand, left)
        require_in_hand(hand, right)
        ends = state.ends
        if ends is None or not (
            left.is_double
            and right.is_double
            and left is not right
            and left.hi == ends[0]
            and right.hi == ends[1]
        ):
            shown = "an empty line" if ends is None else f"L ({ends[0]}) and R ({ends[1]})"
            raise IllegalMove(f"{move} does not fit {shown}", "does_not_fit", move=str(move))
        line, ends = dealing.lay_matching(state.line, ends, left, "L")
        line, ends = dealing.lay_matching(line, ends, right, "R")
        rest = dealing.without(dealing.without(hand, left), right)
        return self._placed(
            state, seat, move, dealing.replace_hand(state.hands, seat, rest), line, ends
        )

    def _draw(self, state: KozelState, seat: int) -> Outcome:
        hand = state.hands[seat]
        require_nothing_to_play(hand, state.ends, "draw")
        if not state.boneyard:
            raise IllegalMove("the boneyard is empty: pass", "boneyard_empty")
        tile = state.boneyard[0]
        # A draw never ends the turn: the same seat plays the tile, draws again or passes.
        drawn = state.but(
            hands=dealing.replace_hand(state.hands, seat, hand + (tile,)),
            boneyard=state.boneyard[1:],
            counter=state.counter + 1,
        )
        events = (Event("move", seat, DRAW), Event("draw", seat, DRAW, tile))
        if nobody_can_move(drawn):
            return self._finish(drawn, DealEnd.BLOCK, events)
        return drawn, events

    def _pass(self, state: KozelState, seat: int) -> Outcome:
        require_nothing_to_play(state.hands[seat], state.ends, "pass")
        if state.boneyard:
            raise IllegalMove("the boneyard still has tiles: draw", "must_draw")
        # Nothing changes on the table, so a pass can never start a fish.
        passed = state.but(turn=dealing.next_seat(seat, state.players), counter=state.counter + 1)
        return passed, (Event("move", seat, PASS),)

    def _placed(
        self,
        state: KozelState,
        seat: int,
        move: Move,
        hands: Hands,
        line: tuple[Placed, ...],
        ends: tuple[int, int],
    ) -> Outcome:
        """The state after ``seat`` put tiles down: play on, domino, or fish."""
        played = state.but(
            hands=hands,
            line=line,
            ends=ends,
            turn=dealing.next_seat(seat, state.players),
            counter=state.counter + 1,
            last_player=seat,
        )
        events = (Event("move", seat, move),)
        if not hands[seat]:
            return self._finish(played, DealEnd.DOMINO, events, seat)
        if nobody_can_move(played):
            return self._finish(played, DealEnd.BLOCK, events)
        return played, events

    def _finish(
        self,
        state: KozelState,
        end: DealEnd,
        events: tuple[Event, ...],
        domino: int | None = None,
    ) -> Outcome:
        """Score a finished deal and see whether the match is over."""
        points = hand_points(state.hands, state.options)
        winner = domino if domino is not None else fewest_points(points)
        teams = state.options["teams"] == "on"
        written, opened = write_scores(points, state.detail.opened, teams)
        totals = tuple(a + b for a, b in zip(state.match_scores, written, strict=True))
        target = int(state.options["target"])
        goats = tuple(seat for seat, total in enumerate(totals) if total >= target)
        # Everyone below the target has less than any goat, so the lowest total
        # wins (ties share); if every seat is a goat, the lowest of them still wins.
        winners = fewest_seats(totals) if goats else ()
        events += (
            Event(
                "deal_over",
                winner,
                info=(("end", end.value), ("winner", winner), ("scores", written)),
            ),
        )
        if goats:
            events += (Event("match_over", info=(("winners", winners),)),)
        over = state.but(
            turn=None,
            match_scores=totals,
            result=DealResult(end, winner, written),
            deal_over=True,
            match_over=bool(goats),
            winners=winners,
            detail=KozelDetail(opened, goats, state.detail.forced_lead),
        )
        return over, events

    # -- seeing ----------------------------------------------------------------

    def view(self, state: State[Any], seat: int) -> View:
        legal = self.legal_moves(state) if state.turn == seat else ()
        return seat_view(state, seat, legal, self.public_details(state))

    def public_details(self, state: State[Any]) -> dict[str, Any]:
        # The forced lead stays out: until it is played, it is the leader's secret.
        detail: KozelDetail = state.detail
        details: dict[str, Any] = {
            "opened": list(detail.opened),
            "goats": list(detail.goats),
        }
        if state.options["teams"] == "on":
            details["teams"] = [list(team) for team in TEAMS]
        return details


# -- the rules as plain functions -----------------------------------------------


def deal_tiles(players: int, seed: int, deal_number: int, fixture: Fixture | None) -> Fixture:
    """A deal from the fixture, or shuffled from the seed (Kozel never reshuffles)."""
    hand_size = 7 if players == 2 else 5
    if fixture is None:
        return dealing.shuffle_deal(DOUBLE_SIX, players, hand_size, seed, deal_number, 0)
    if fixture.leader is not None:
        raise BadFixture("in kozel the rules pick the leader; leave 'leader' out")
    dealing.check_fixture(fixture, DOUBLE_SIX, players, hand_size)
    return fixture


def first_deal_leader(hands: Hands) -> tuple[int, Tile]:
    """The seat holding the highest double, or else the highest tile, and that tile."""
    holder = {t: seat for seat, hand in enumerate(hands) for t in hand}
    for double in DOUBLES_DOWN:
        if double in holder:
            return holder[double], double
    top = max(holder, key=rank)
    return holder[top], top


def require_in_hand(hand: tuple[Tile, ...], tile: Tile) -> None:
    if tile not in hand:
        raise IllegalMove(f"{tile} is not in your hand", "not_in_hand", tile=str(tile))


def fitting_end(tile: Tile, end: End | None, ends: tuple[int, int]) -> End:
    """Check that ``tile`` goes on ``end`` and return that end."""
    fits_left, fits_right = tile.has(ends[0]), tile.has(ends[1])
    if not (fits_left or fits_right):
        text = dealing.fit_error_text(tile, ends)
        raise IllegalMove(text, "does_not_fit", tile=str(tile), left=ends[0], right=ends[1])
    if end is None:
        # engine.api.resolve fills in a missing end; a move without one is never legal.
        raise IllegalMove(f"say which end: {tile}@L or {tile}@R", "no_end", tile=str(tile))
    if not (fits_left if end == "L" else fits_right):
        value = ends[0] if end == "L" else ends[1]
        raise IllegalMove(
            f"{tile} does not fit {end} ({value})", "does_not_fit", tile=str(tile), end=end
        )
    return end


def can_play(hand: tuple[Tile, ...], ends: tuple[int, int] | None) -> bool:
    if ends is None:
        return bool(hand)
    left, right = ends
    return any(t.has(left) or t.has(right) for t in hand)


def require_nothing_to_play(
    hand: tuple[Tile, ...], ends: tuple[int, int] | None, what: str
) -> None:
    if can_play(hand, ends):
        raise IllegalMove(f"you hold a playable tile: you may not {what}", "must_play", move=what)


def nobody_can_move(state: State[Any]) -> bool:
    """A fish: nothing left to draw and no tile in any hand fits."""
    return not state.boneyard and not any(can_play(hand, state.ends) for hand in state.hands)


def hand_points(hands: Hands, options: Mapping[str, OptionValue]) -> tuple[int, ...]:
    """Each seat's points in hand as a deal counts them, before the 13 rule."""
    always = options["blank_double"] == "always"
    points = []
    for hand in hands:
        pips = sum(t.pips for t in hand)
        if BLANK_DOUBLE in hand and (always or len(hand) == 1):
            pips += BLANK_DOUBLE_POINTS
        points.append(pips)
    return tuple(points)


def fewest_seats(points: tuple[int, ...]) -> tuple[int, ...]:
    low = min(points)
    return tuple(seat for seat, p in enumerate(points) if p == low)


def fewest_points(points: tuple[int, ...]) -> int | None:
    """The seat with the fewest points after a fish; ``None`` on a tie."""
    fewest = fewest_seats(points)
    return fewest[0] if len(fewest) == 1 else None


def write_scores(
    points: tuple[int, ...], opened: tuple[bool, ...], teams: bool
) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    """What each seat's sheet gets for a deal, and which sheets are open after it.

    With teams, partners share a sheet: it gets their sum, shown at both seats.
    """
    if teams:
        sums = [points[a] + points[b] for a, b in TEAMS]
        points = tuple(sums[seat % 2] for seat in range(len(points)))
    is_open = tuple(was or p >= OPENING_POINTS for was, p in zip(opened, points, strict=True))
    written = tuple(p if o else 0 for p, o in zip(points, is_open, strict=True))
    return written, is_open


register(Kozel())
