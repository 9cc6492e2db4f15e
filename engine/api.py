"""The public entry points: start a match, list and apply moves, see a seat's view."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from engine.errors import BadOption, GameOver, IllegalMove, NotYourTurn
from engine.moves import Kind, Move, parse_move
from engine.options import resolve_options
from engine.seatview import seat_view
from engine.state import DealEnd, Event, Fixture, OptionValue, State, View
from engine.tiles import Tile
from engine.variant import Variant, get_variant

# A member read through its Enum class goes through the class's attribute
# lookup every time; the move path reads it from a global instead.
_PLAY, _DOUBLE = Kind.PLAY, Kind.DOUBLE


def new_match(
    variant: str | Variant,
    players: int,
    options: Mapping[str, OptionValue] | None = None,
    seed: int = 0,
    fixture: Fixture | None = None,
) -> State[Any]:
    """Check the table and options, then deal the first deal."""
    game = get_variant(variant) if isinstance(variant, str) else variant
    if not game.min_players <= players <= game.max_players:
        span = (
            f"{game.min_players}"
            if game.min_players == game.max_players
            else f"{game.min_players} to {game.max_players}"
        )
        raise BadOption(
            f"{game.name} is played by {span} players, not {players}",
            option="players",
            value=players,
            variant=game.name,
        )
    resolved = resolve_options(game.option_specs, players, options, game.name)
    game.check_options(players, resolved)
    return game.new_match(players, resolved, seed, fixture)


def variant_of(state: State[Any]) -> Variant:
    return get_variant(state.variant)


def legal_moves(state: State[Any]) -> tuple[Move, ...]:
    return get_variant(state.variant).legal_moves(state)


def apply(
    state: State[Any], move: Move | str, seat: int | None = None
) -> tuple[State[Any], tuple[Event, ...]]:
    """Apply ``move`` (a :class:`Move` or its text) for ``seat`` (default: the
    seat to move). Raises an :class:`IllegalMove` subclass and changes nothing
    when the move is not legal now."""
    if state.deal_over:  # a match is over only once its last deal is
        raise GameOver("match" if state.match_over else "deal")
    if seat is not None and seat != state.turn:
        raise NotYourTurn(seat, state.turn)
    game = get_variant(state.variant)
    if isinstance(move, Move) and move.end is not None and move.kind is _PLAY and state.line:
        return game.apply(state, move)  # a play on a named end: nothing to resolve
    return game.apply(state, resolve(state, move))


def next_deal(state: State[Any], fixture: Fixture | None = None) -> State[Any]:
    if state.match_over:
        raise GameOver("match")
    if not state.deal_over:
        raise IllegalMove("the deal is still being played", "deal_not_over")
    return get_variant(state.variant).next_deal(state, fixture)


def view(state: State[Any], seat: int) -> View:
    if not 0 <= seat < state.players:
        raise IllegalMove(f"there is no seat {seat}", "no_such_seat", seat=seat)
    return get_variant(state.variant).view(state, seat)


class OwnHand(NamedTuple):
    """What a seat sees of its own hand: its tiles in the order held, and its legal
    moves (none off its turn). They are its :func:`view`'s ``hand`` and ``legal``, read
    without the rest of the view (the line, the counts, the game's public parts), which
    a hand drawn on every move does not need."""

    tiles: tuple[Tile, ...]
    legal: tuple[Move, ...]


def own_hand(state: State[Any], seat: int) -> OwnHand:
    """``seat``'s own hand and legal moves, as its :func:`view` shows them."""
    if not 0 <= seat < state.players:
        raise IllegalMove(f"there is no seat {seat}", "no_such_seat", seat=seat)
    return OwnHand(state.hands[seat], legal_moves(state) if state.turn == seat else ())


def public_view(state: State[Any]) -> View:
    """What the whole table sees, and a spectator: the line, the counts of tiles, the
    scores and the public details; no hand until the deal is over."""
    return seat_view(state, None, (), get_variant(state.variant).public(state))


def went_out(state: State[Any] | View) -> int | None:
    """The seat that emptied its hand, if the deal ended so. In Thief of Baghdad
    that player need not be the one who takes the deal."""
    result = state.result
    if result is None or result.end is not DealEnd.DOMINO:
        return None
    counts = state.hand_counts if isinstance(state, View) else [len(h) for h in state.hands]
    empty = [seat for seat, count in enumerate(counts) if not count]
    return empty[0] if len(empty) == 1 else result.winner


def resolve(state: State[Any], move: Move | str) -> Move:
    """Fill in the end of a play written without one, when exactly one end fits.

    A tile that fits both ends is refused as ambiguous; anything else is left
    for the variant's ``apply`` to accept or explain.
    """
    if isinstance(move, str):
        move = parse_move(move)
    kind = move.kind
    if kind is _DOUBLE:
        legal = legal_moves(state)
        swapped = Move.double(move.second, move.tile) if move.second and move.tile else move
        return swapped if move not in legal and swapped in legal else move
    if kind is not _PLAY:
        return move
    if not state.line:
        # the first tile has no end: one written on it is ignored
        return Move.lead(move.tile, flip=move.flip) if move.tile and not move.across else move
    if move.end is not None:
        return move
    ends = sorted(
        {
            m.end
            for m in legal_moves(state)
            if m.kind is _PLAY
            and m.tile is move.tile
            and m.across == move.across
            and m.end is not None
        }
    )
    if len(ends) == 2:
        raise IllegalMove(
            f"{move.tile} fits both ends: write {move.tile}@L or {move.tile}@R",
            "ambiguous",
            tile=str(move.tile),
        )
    if len(ends) == 1:
        return Move.play(move.tile, ends[0], across=move.across) if move.tile else move
    return move
