"""A player's own setting: his hand comes with a picture of his tiles.

Off by default. ``hand_picture on`` (or ``off``), typed in the game's chat,
switches it for his seat at the table there, in the lobby or during the game;
his hand is sent again at once, as it now looks.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from bot.model.contract import UserRef
from bot.model.decision import Decision, Game, refuse
from bot.views.i18n import Translator

COMMAND: Final = "hand_picture"
_ON: Final = frozenset({"on", "yes", "true", "1"})
_OFF: Final = frozenset({"off", "no", "false", "0"})


def hand_pictures(
    game: Game | None, user: UserRef, args: tuple[str, ...], *, translator: Translator
) -> Decision:
    """Turn ``user``'s hand pictures on or off at the chat's table."""
    _ = translator
    word = args[0].lower() if len(args) == 1 else ""
    if word not in _ON | _OFF:
        return refuse(_("%(key)s must be on or off", key=COMMAND))
    if game is None or not game.doc.active:
        return refuse(_("You are not at this table."))
    number = game.doc.seat_of(user)
    if number is None:
        return refuse(_("You are not at this table."))
    wanted = word in _ON
    held = game.doc.seats[number]
    said = (
        _("Your hand will come with a picture of your tiles.")
        if wanted
        else _("Your hand will come as text only.")
    )
    if held.pictures == wanted:
        return Decision(reply=said)
    doc = game.doc.with_seat(number, replace(held, pictures=wanted))
    return Decision(doc=doc, state=game.state, reply=said, hands_for=(user,))
