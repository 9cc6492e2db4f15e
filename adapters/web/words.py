"""The words the web page shows around the table, translated on the server from the same
catalogs as the chats and sent to the page once, in its :class:`~adapters.web.frames.Welcome`
(the page has no catalogs of its own). The keys are the page's names for them: the page
joins a word and a figure itself ("Pool: 3"), so no word holds a placeholder."""

from __future__ import annotations

from typing import Final

from bot.views.i18n import N_, Translator

PAGE_WORDS: Final = {
    "draw": N_("Draw"),
    "pass": N_("Pass"),
    "done": N_("End turn"),
    "steal": N_("Steal"),
    "recover": N_("Recover"),
    "your_turn": N_("Your turn"),
    "boneyard": N_("Boneyard"),
    "watching": N_("You are watching"),
    "reconnecting": N_("Connection lost, reconnecting…"),
    "connecting": N_("Connecting…"),
    "you": N_("You"),
    "deal": N_("Deal"),
    "total": N_("Total"),
    "this_deal": N_("This deal"),
    "held": N_("Tiles in hand"),
    "computer": N_("Computer"),
    "away": N_("A computer plays for this seat"),
    "goat": N_("Goat"),
    "tokens": N_("Tokens"),
    "pool": N_("Pool"),
    "cardinal": N_("Cardinal"),
    "aside": N_("Set aside"),
    "sheet_open": N_("Sheet open"),
    "sheet_closed": N_("Sheet not open yet"),
    "team": N_("Team"),
    "partner": N_("Partner"),
    "caravan_open": N_("Open caravan"),
    "caravan_stolen": N_("Stolen"),
    "caravan_recovered": N_("Recovered"),
    "camels": N_("Camels"),
    "owner": N_("Owner"),
    "thief": N_("Thief"),
    "handcuffs": N_("Handcuffs"),
    "penalties": N_("Penalty points"),
    "line": N_("The line"),
    "hand": N_("Your hand"),
    "left_end": N_("Left end"),
    "right_end": N_("Right end"),
    "start_line": N_("Start the line"),
    "choose_end": N_("Choose an end"),
    "along": N_("Along"),
    "across": N_("Across"),
    "deal_over": N_("Deal over"),
    "match_over": N_("Match over"),
    "blocked": N_("Blocked"),
    "winner": N_("Winner"),
    "no_winner": N_("Nobody takes the deal"),
    "waiting": N_("Waiting for the game to start"),
    "pip0": N_("blank"),
    "pip1": N_("one"),
    "pip2": N_("two"),
    "pip3": N_("three"),
    "pip4": N_("four"),
    "pip5": N_("five"),
    "pip6": N_("six"),
}


def page_words(_: Translator) -> dict[str, str]:
    """Every word of the page, in ``_``'s language."""
    return {key: _(text) for key, text in PAGE_WORDS.items()}
