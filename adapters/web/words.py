"""The words the web page shows around the table, translated on the server from the same
catalogs as the chats and sent to the page once, in its :class:`~adapters.web.frames.Welcome`
(the page has no catalogs of its own). The keys are the page's names for them."""

from __future__ import annotations

from typing import Final

from bot.views.i18n import N_, Translator

PAGE_WORDS: Final = {
    "draw": N_("Draw"),
    "pass": N_("Pass"),
    "done": N_("End turn"),
    "your_turn": N_("Your turn"),
    "boneyard": N_("Boneyard"),
    "watching": N_("You are watching"),
    "reconnecting": N_("Connection lost, reconnecting…"),
}


def page_words(_: Translator) -> dict[str, str]:
    """Every word of the page, in ``_``'s language."""
    return {key: _(text) for key, text in PAGE_WORDS.items()}
