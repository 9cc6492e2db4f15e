"""What a person is told when the core could not do what he asked: the store was down
(try again in a moment), or something failed that should not have (logged by the caller).
Nothing was written either way."""

from __future__ import annotations

from bot.model.contract import (
    Answer,
    ChatMoved,
    Command,
    Inbound,
    Notice,
    Outbound,
    Press,
    PrivateStart,
    Screen,
)
from bot.table import play
from bot.table.commands import respond
from bot.views.i18n import pick_language, text_line, translator


def apology(inbound: Inbound, default_lang: str, *, unavailable: bool) -> list[Outbound]:
    """The answer to ``inbound`` that says it was not done, where it asked for one: a
    press's alert, a command's reply, a word in the private chat it was opened from."""
    user = None if isinstance(inbound, ChatMoved) else inbound.user
    _ = translator(pick_language(user.lang if user else None, default_lang))
    text = (
        _("The table is unavailable, try again in a moment")
        if unavailable
        else _("Sorry, something went wrong. Please try again.")
    )
    if isinstance(inbound, Press):
        return [Answer(text, alert=True)]
    if isinstance(inbound, Command):
        return [respond(inbound, Screen((text_line(text),)))]
    if isinstance(inbound, PrivateStart):
        return [Notice(play.private_chat(inbound.user), Screen((text_line(text),)))]
    return []
