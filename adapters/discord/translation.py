"""Slash commands in each user's language: discord.py asks this translator for
every command, option and choice text when it syncs the commands, and Discord
shows each user the ones for his client's language.

Descriptions and choice names come from the core's catalogs (their English text
is the catalog's message id); command and option names stay as typed in every
language, since they are also the words of the commands written out
(``/domino new kozel``). Discord offers no Catalan client, so Catalan players
see the English menu; the bot's messages still speak Catalan after ``lang ca``.
"""

from __future__ import annotations

from typing import Final

import discord
from discord import app_commands

from bot.i18n import available_languages, translator

#: The Discord locales our catalogs speak (every English variant reads the source).
LOCALES: Final = {
    discord.Locale.russian: "ru",
    discord.Locale.ukrainian: "uk",
    discord.Locale.polish: "pl",
}
_NAMES: Final = frozenset(
    {
        app_commands.TranslationContextLocation.command_name,
        app_commands.TranslationContextLocation.group_name,
        app_commands.TranslationContextLocation.parameter_name,
    }
)


class CatalogTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext,
    ) -> str | None:
        lang = LOCALES.get(locale)
        if lang is None or lang not in available_languages() or context.location in _NAMES:
            return None
        translated = translator(lang)(string.message)
        return translated if translated != string.message else None
