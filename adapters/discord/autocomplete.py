"""Suggestions while a command is typed: the options of the game being opened.

``/domino new`` takes a free ``options`` string of ``key=value`` words; as it is
typed, Discord asks for suggestions and gets, for the game chosen in ``variant``
(every game's while none is), the options not given yet, each with its values and
what it means. The words already typed are kept in front, so a suggestion picked
is the whole string.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

import discord
from discord import app_commands

from bot.views import catalog
from bot.views.i18n import DEFAULT_LANG, pick_language
from engine import UnknownVariant

SUGGESTIONS: Final = 25  # Discord shows at most 25
TEXT_LIMIT: Final = 100  # a suggestion's name and value


def option_suggestions(
    variant: str | None, typed: str, lang: str = DEFAULT_LANG
) -> list[tuple[str, str]]:
    """``(shown, value)`` pairs for the options string ``typed`` so far."""
    words = typed.split()
    done, prefix = (words, "") if not words or typed.endswith(" ") else (words[:-1], words[-1])
    given = {word.split("=", 1)[0] for word in done}
    found: list[tuple[str, str]] = []
    for option in _options_of(variant, lang):
        if option.name in given:
            continue
        for value in _values_of(option):
            word = f"{option.name}={value}"
            if not word.startswith(prefix):
                continue
            whole = " ".join([*done, word])
            shown = f"{whole} — {option.description}"
            if len(whole) <= TEXT_LIMIT:
                found.append((_short(shown), whole))
    return found[:SUGGESTIONS]


def _options_of(variant: str | None, lang: str) -> Iterator[catalog.OptionInfo]:
    try:
        games = (catalog.variant(variant, lang),) if variant else catalog.variants(lang)
    except UnknownVariant:
        games = catalog.variants(lang)
    seen: set[str] = set()
    for game in games:
        for option in game.options:
            if option.name not in seen:
                seen.add(option.name)
                yield option


def _values_of(option: catalog.OptionInfo) -> tuple[str, ...]:
    """The values worth suggesting: every named choice, or a number's default and ends."""
    if option.choices:
        return option.choices
    numbers = [option.default]
    if option.low is not None and option.high is not None:
        numbers += [str(option.low), str(option.high)]
    return tuple(dict.fromkeys(n for n in numbers if n))


def _short(text: str) -> str:
    return text if len(text) <= TEXT_LIMIT else text[: TEXT_LIMIT - 1] + "…"


async def new_options(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """Discord's autocomplete callback for ``/domino new options:``."""
    variant = getattr(interaction.namespace, "variant", None)
    lang = pick_language(str(interaction.locale), DEFAULT_LANG)
    return [
        app_commands.Choice(name=shown, value=value)
        for shown, value in option_suggestions(variant if variant else None, current, lang)
    ]
