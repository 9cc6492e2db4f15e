"""Presses on a steady hand (see :mod:`bot.views.steady_hand`): a tile, a draw at will, and the
way back from a choice of ends.

A tile is played at once when it has one move, or several that come to the same
(both ends of the line show the same, so either end gives the same line); when its
moves differ, the hand is redrawn to ask which, and nothing is written. Out of turn,
the press says whose turn it is; a tile that fits nowhere says why.
"""

from __future__ import annotations

from typing import Any

import engine
from bot.model.contract import Show, UserRef
from bot.model.decision import Decision, Game
from bot.model.hand import hand_view
from bot.table.match_steps import Tempo
from bot.table.play import out_of_date, play_checked, seated, tile_refused, to_move
from bot.table.updates import hand_of, hand_slot, linked_hand
from bot.views.i18n import Translator
from bot.views.steady_hand import TILE_KINDS, choice_screen, hand_version
from bot.views.web_links import WebLinks
from engine import Move, State, Tile


def press_hand(
    game: Game | None,
    game_id: str,
    user: UserRef,
    hand: int,
    tile: Tile | None,
    move: Move | None,
    *,
    translator: Translator,
    now: float,
    tempo: Tempo,
) -> Decision:
    """A steady hand's tile (or draw) pressed at hand version ``hand``."""
    _ = translator
    found = to_move(game, game_id, user, _)
    if isinstance(found, Decision):
        return found
    assert game is not None
    doc, state, seat = found
    if hand != hand_version(state, seat):
        return out_of_date(_)
    if tile is None:
        assert move is not None
        return play_checked(doc, state, seat, move, translator=_, now=now, tempo=tempo)
    choices = distinct_moves(state, tile)
    if not choices:
        return tile_refused(_, state, seat, tile)
    if len(choices) == 1:
        return play_checked(doc, state, seat, choices[0], translator=_, now=now, tempo=tempo)
    screen = choice_screen(_, doc, hand_view(doc, state, seat), tile, choices, doc.chat)
    return Decision(extra=(Show(hand_slot(doc, seat), screen, game.version),))


def hand_again(
    game: Game | None,
    game_id: str,
    user: UserRef,
    *,
    translator: Translator,
    steady: bool,
    web: WebLinks | None = None,
) -> Decision:
    """The presser's hand shown again as it is (``steady``: as a steady hand; ``web``:
    offering the web table); nothing is written."""
    found = seated(game, game_id, user, translator)
    if isinstance(found, Decision):
        return found
    assert game is not None
    doc, state, seat = found
    screen = linked_hand(doc, seat, hand_of(doc, state, seat, steady), web)
    return Decision(extra=(Show(hand_slot(doc, seat), screen, game.version),))


def distinct_moves(state: State[Any], tile: Tile) -> tuple[Move, ...]:
    """The legal moves with ``tile``, one for each different result, in the order of
    their ends."""
    mirrored = _symmetric(state)
    found: dict[object, Move] = {}
    moves = [
        m for m in engine.legal_moves(state) if m.kind in TILE_KINDS and tile in (m.tile, m.second)
    ]
    for move in sorted(moves, key=lambda m: (m.kind.value, m.end or "", m.across, m.flip)):
        key = (move.kind, frozenset((move.tile, move.second)), move.across) if mirrored else move
        found.setdefault(key, move)
    return tuple(found.values())


def _symmetric(state: State[Any]) -> bool:
    """The line's two ends are alike (or there is no line yet): a move on one end and
    its mirror on the other leave the same ends to play on."""
    ends = state.ends
    if ends is not None and ends[0] != ends[1]:
        return False
    details = engine.variant_of(state).public(state)
    if isinstance(details, engine.GunsPublic):
        return sorted(details.accepts[0]) == sorted(details.accepts[1])
    return True
