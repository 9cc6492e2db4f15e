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

from engine import dealing, rounds
from engine.errors import BadOption, GameOver, IllegalMove
from engine.moves import DRAW, PASS, End, Kind, Move
from engine.options import OptionSpec
from engine.public import KozelPublic
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
from engine.variants.common import CommonRules, Dealt
from engine.variants.kozel_scoring import (
    BLANK_DOUBLE,
    BLANK_DOUBLE_POINTS,
    TEAMS,
    goats_and_winners,
    hand_points,
    unwritten_points,
    write_scores,
)
from engine.variants.refusals import does_not_fit, not_a_move_in, not_in_hand

#: Doubles from the highest down: the first-deal leader holds the first one dealt.
DOUBLES_DOWN: Final = tuple(Tile(v, v) for v in range(6, -1, -1))


@dataclass(frozen=True, slots=True)
class KozelDetail:
    """What Kozel keeps beyond the common state."""

    opened: tuple[bool, ...]  # per seat: has its score sheet opened (partners share one)
    goats: tuple[int, ...]  # seats at or over the target once the match is over
    forced_lead: Tile | None  # the tile this deal opens with, when the first-deal rule applies


KozelState = State[KozelDetail]
Outcome = tuple[KozelState, tuple[Event, ...]]


class Kozel(CommonRules):
    name = "kozel"
    title = "Kozel (the goat)"
    aliases = ("goat", "козёл", "козел", "kozyol")
    min_players = 2
    max_players = 4
    lower_wins = True  # whoever reaches the target is the goat
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

    def first_dealt(
        self, players: int, options: Mapping[str, OptionValue], seed: int, fixture: Fixture | None
    ) -> Dealt:
        dealt = deal_hands(players, seed, 1, fixture)
        leader, lead = first_deal_leader(dealt.hands)
        return Dealt(dealt, leader, KozelDetail((False,) * players, (), lead))

    def next_dealt(self, state: State[Any], fixture: Fixture | None) -> Dealt:
        dealt = deal_hands(state.players, state.seed, state.deal_number + 1, fixture)
        leader = state.result.winner if state.result is not None else None
        lead = None
        if leader is None:  # a fish with a tie for fewest points
            leader, lead = first_deal_leader(dealt.hands)
        return Dealt(dealt, leader, KozelDetail(state.detail.opened, (), lead))

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
        raise not_a_move_in(self.title, move)

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
        if rounds.nobody_can_move(drawn):
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
        if rounds.nobody_can_move(played):
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
        winner = domino if domino is not None else rounds.sole_lowest(points)
        teams = state.options["teams"] == "on"
        written, opened = write_scores(points, state.detail.opened, teams)
        totals = tuple(a + b for a, b in zip(state.match_scores, written, strict=True))
        goats, winners = goats_and_winners(totals, int(state.options["target"]))
        result = DealResult(end, winner, written)
        detail = KozelDetail(opened, goats, state.detail.forced_lead)
        return rounds.finish_deal(state, events, result, totals, winners, detail)

    # -- seeing ----------------------------------------------------------------

    def public(self, state: State[Any]) -> KozelPublic:
        # The forced lead stays out: until it is played, it is the leader's secret.
        detail: KozelDetail = state.detail
        return KozelPublic(detail.opened, detail.goats, self.teams(state.options))

    def tile_points(self, tile: Tile) -> int:
        return BLANK_DOUBLE_POINTS if tile is BLANK_DOUBLE else tile.pips

    def match_target(self, options: Mapping[str, OptionValue]) -> int | None:
        return int(options["target"])

    def teams(self, options: Mapping[str, OptionValue]) -> tuple[tuple[int, int], ...]:
        return TEAMS if options["teams"] == "on" else ()

    def goats(self, view: View) -> tuple[int, ...]:
        return _kozel_part(view).goats

    def unwritten(self, view: View) -> tuple[int, ...]:
        if view.result is None or view.revealed is None:
            return (0,) * view.players
        opened = _kozel_part(view).opened
        return unwritten_points(view.revealed, view.options, opened, view.result.scores)


# -- the rules as plain functions -----------------------------------------------


def _kozel_part(view: View) -> KozelPublic:
    details = view.details
    if not isinstance(details, KozelPublic):
        raise TypeError(f"a view of {view.variant}, not of kozel")
    return details


def deal_hands(players: int, seed: int, deal_number: int, fixture: Fixture | None) -> Fixture:
    """Seven tiles each for two players, else five: from the fixture, or shuffled
    from the seed (Kozel never reshuffles)."""
    hand_size = 7 if players == 2 else 5
    rule = "in kozel the rules pick the leader"
    return rounds.deal_tiles(
        DOUBLE_SIX, players, hand_size, seed, deal_number, fixture, leader_rule=rule
    )[0]


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
        raise not_in_hand(tile)


def fitting_end(tile: Tile, end: End | None, ends: tuple[int, int]) -> End:
    """Check that ``tile`` goes on ``end`` and return that end."""
    fits_left, fits_right = tile.has(ends[0]), tile.has(ends[1])
    if not (fits_left or fits_right):
        raise does_not_fit(tile, ends)
    if end is None:
        # engine.api.resolve fills in a missing end; a move without one is never legal.
        raise IllegalMove(f"say which end: {tile}@L or {tile}@R", "no_end", tile=str(tile))
    if not (fits_left if end == "L" else fits_right):
        value = ends[0] if end == "L" else ends[1]
        raise IllegalMove(
            f"{tile} does not fit {end} ({value})", "does_not_fit", tile=str(tile), end=end
        )
    return end


def require_nothing_to_play(
    hand: tuple[Tile, ...], ends: tuple[int, int] | None, what: str
) -> None:
    if rounds.can_play(hand, ends):
        raise IllegalMove(f"you hold a playable tile: you may not {what}", "must_play", move=what)


register(Kozel())
