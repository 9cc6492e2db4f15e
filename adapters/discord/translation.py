"""Slash commands in each user's language: discord.py asks this translator for
every command, option and choice text when it syncs the commands, and Discord
shows each user the ones for his client's language.

Descriptions and choice names come from the core's catalogs (their English text
is the catalog's message id). Command and option names are translated too, under
the catalogs' ``discord name`` context (a name such as ``table`` or ``rules`` means
something else as a plain word); Discord still sends the English name with every
interaction, so the commands reach the core as typed in English. A name Discord
would refuse (see :func:`valid_name`) is left English rather than fail the sync.

Discord offers no Catalan client, so Catalan players see the English menu; the
bot's messages still speak Catalan after ``lang ca``.
"""

from __future__ import annotations

import unicodedata
from typing import Final

import discord
from discord import app_commands

from bot.views.i18n import NC_, available_languages, translator

#: The Discord locales our catalogs speak (every English variant reads the source).
LOCALES: Final = {
    discord.Locale.russian: "ru",
    discord.Locale.ukrainian: "uk",
    discord.Locale.polish: "pl",
}
NAME_CONTEXT: Final = "discord name"
NAME_LIMIT: Final = 32
_NAMES: Final = frozenset(
    {
        app_commands.TranslationContextLocation.command_name,
        app_commands.TranslationContextLocation.group_name,
        app_commands.TranslationContextLocation.parameter_name,
    }
)

#: Every command and option name, for the catalogs: the group, its subcommands,
#: their options and every game's options (``new`` offers them all).
COMMAND_NAMES: Final = (
    NC_("discord name", "domino"),
    NC_("discord name", "new"),
    NC_("discord name", "join"),
    NC_("discord name", "leave"),
    NC_("discord name", "add_computer"),
    NC_("discord name", "remove_computer"),
    NC_("discord name", "start"),
    NC_("discord name", "cancel"),
    NC_("discord name", "stop"),
    NC_("discord name", "settings"),
    NC_("discord name", "rules"),
    NC_("discord name", "scores"),
    NC_("discord name", "table"),
    NC_("discord name", "watch"),
    NC_("discord name", "hand_picture"),
    NC_("discord name", "top"),
    NC_("discord name", "stats"),
    NC_("discord name", "lang"),
    NC_("discord name", "export"),
    NC_("discord name", "mydata"),
    NC_("discord name", "forget"),
    NC_("discord name", "history"),
    NC_("discord name", "review"),
    NC_("discord name", "help"),
    NC_("discord name", "variant"),
    NC_("discord name", "level"),
    NC_("discord name", "state"),
    NC_("discord name", "everywhere"),
    NC_("discord name", "whole_chat"),
    NC_("discord name", "language"),
    NC_("discord name", "options"),
    NC_("discord name", "change"),
    NC_("discord name", "match"),
    NC_("discord name", "double_move"),
    NC_("discord name", "blank_double"),
    NC_("discord name", "teams"),
    NC_("discord name", "target"),
    NC_("discord name", "hand_size"),
    NC_("discord name", "opening"),
    NC_("discord name", "no_double"),
)


class CatalogTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext,
    ) -> str | None:
        lang = LOCALES.get(locale)
        if lang is None or lang not in available_languages():
            return None
        if context.location in _NAMES:
            name = localized_name(string.message, lang)
            return name if name != string.message else None
        translated = translator(lang)(string.message)
        return translated if translated != string.message else None


def localized_name(name: str, lang: str) -> str:
    """A command's or option's name as ``lang`` reads it, or the English name when
    the catalog has none that Discord would take."""
    translated = translator(lang).pgettext(NAME_CONTEXT, name)
    return translated if valid_name(translated) else name


def valid_name(name: str) -> bool:
    """Whether Discord takes ``name`` for a command or an option: 1 to 32 letters,
    digits, ``-`` and ``_``, nothing with an upper case (the rule is the pattern
    ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``; Devanagari and Thai marks
    are not letters, and no catalog of ours writes them)."""
    return (
        0 < len(name) <= NAME_LIMIT
        and name == name.lower()
        and all(c in "-_" or unicodedata.category(c)[0] in "LN" for c in name)
    )
