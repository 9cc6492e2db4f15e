"""A move typed in the notation (``6-4@L``, ``draw``) turned into a button press.

Where buttons are awkward (a terminal, a screen reader), a player may type his
move instead. The text is matched against the move buttons the core offered him,
so the typed move means exactly what one of those buttons means. A move that no
button offers is still sent, as a press of a move button nobody was shown: the
core then refuses it with the engine's reason ("[5|5] doesn't fit"), in the
player's language, like any other press.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import engine
from bot.model import codec
from bot.model.codec import BadPayload, MovePress
from bot.model.contract import Button
from bot.views.i18n import Translator
from bot.views.texts import error_text, tile_text
from engine import DominoError, Kind, Move


class NotAMove(ValueError):
    """The text cannot become a press: it does not parse, names an end ambiguously,
    or there is no move to make. The message is in the player's language."""


@dataclass(frozen=True, slots=True)
class Offered:
    """A move button and what it carries."""

    button: Button
    press: MovePress


def offered_moves(buttons: Iterable[Button]) -> list[Offered]:
    """The move buttons among ``buttons``, in order."""
    found = []
    for button in buttons:
        if button.payload is None:
            continue
        try:
            action = codec.decode(button.payload)
        except BadPayload:
            continue
        if isinstance(action, MovePress):
            found.append(Offered(button, action))
    return found


def typed_press(_: Translator, text: str, buttons: Iterable[Button]) -> str:
    """The payload to press for the move ``text`` names, given the player's buttons;
    raises :class:`NotAMove`."""
    offered = offered_moves(buttons)
    if not offered:
        raise NotAMove(_("You have no move to make now."))
    try:
        move = engine.parse_move(text)
    except DominoError as exc:
        raise NotAMove(error_text(_, exc)) from None
    first = offered[0].press
    chosen = _match(_, move, [o.press.move for o in offered])
    return codec.move_payload(first.game_id, first.counter, chosen, first.chat)


def _match(_: Translator, move: Move, legal: list[Move]) -> Move:
    if move in legal:
        return move
    if move.kind is Kind.DOUBLE and move.tile is not None and move.second is not None:
        swapped = Move.double(move.second, move.tile)
        return swapped if swapped in legal else move
    if move.kind is not Kind.PLAY or move.tile is None:
        return move
    leads = [m for m in legal if m.kind is Kind.PLAY and m.end is None and m.tile is move.tile]
    if leads:
        # A first tile has no end: one written on it is ignored, its halves kept as written.
        return move if move.end is None else leads[0]
    if move.end is not None:
        return move
    ends = [m for m in legal if m.kind is Kind.PLAY and m.tile is move.tile and not m.across]
    if len(ends) > 1:
        tile = str(move.tile)
        raise NotAMove(
            _(
                "%(tile)s fits both ends: choose one (%(left)s, %(right)s)",
                tile=tile_text(move.tile),
                left=f"{tile}@L",
                right=f"{tile}@R",
            )
        )
    return ends[0] if ends else move
