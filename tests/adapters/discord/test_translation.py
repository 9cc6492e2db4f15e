"""Command and option names in each Discord client's language: every name of the
``/domino`` group has a name in Russian, Ukrainian and Polish that Discord takes,
and no two options of one command share one."""

from __future__ import annotations

import gettext
from typing import Any

import discord
import pytest
from discord import app_commands

from adapters.discord import translation
from adapters.discord.commands import build_group
from adapters.discord.translation import (
    COMMAND_NAMES,
    NAME_CONTEXT,
    CatalogTranslator,
    localized_name,
    valid_name,
)
from bot.views.i18n import Translator, translator
from tests.adapters.discord.fake_wire import name_problems

LANGS = ("ru", "uk", "pl")


async def _ignore(interaction: discord.Interaction[Any], name: str, args: tuple[str, ...]) -> None:
    raise AssertionError("not called")


def named_parts() -> list[tuple[str, list[str]]]:
    """The group's name with its subcommands' names, then each subcommand's name with
    its options' names: every set of siblings that must not share a name."""
    group = build_group(_ignore)
    subs = [c for c in group.commands if isinstance(c, app_commands.Command)]
    siblings = [(group.name, [c.name for c in subs])]
    siblings += [(c.name, [p.name for p in c.parameters]) for c in subs]
    return siblings


def every_name() -> set[str]:
    return {name for owner, names in named_parts() for name in (owner, *names)}


def test_every_command_and_option_name_is_in_the_catalogs() -> None:
    assert every_name() == set(COMMAND_NAMES)


@pytest.mark.parametrize("lang", (*LANGS, "ca"))  # Catalan too, should Discord come to speak it
def test_every_name_has_a_name_in_the_language_that_discord_takes(lang: str) -> None:
    _ = translator(lang)
    for name in every_name():
        assert valid_name(_.pgettext(NAME_CONTEXT, name)), (name, _.pgettext(NAME_CONTEXT, name))
        assert localized_name(name, lang) == _.pgettext(NAME_CONTEXT, name)
    translated = [n for n in every_name() if localized_name(n, lang) != n]
    assert len(translated) > len(every_name()) // 2


@pytest.mark.parametrize("lang", LANGS)
def test_no_two_options_of_a_command_share_a_name(lang: str) -> None:
    for owner, names in named_parts():
        localized = [localized_name(name, lang) for name in names]
        assert len(set(localized)) == len(localized), (owner, localized)


@pytest.mark.parametrize(
    ("name", "valid"),
    [
        ("kamieni_w_ręce", True),
        ("добавить_компьютер", True),
        ("cancel·lar", False),
        ("Nowa", False),
        ("two words", False),
        ("комп’ютер", False),
        ("", False),
        ("x" * 33, False),
        ("x" * 32, True),
    ],
)
def test_a_name_is_valid_as_discord_says(name: str, valid: bool) -> None:
    assert valid_name(name) is valid
    assert (name_problems([{"name": name}]) == []) is valid


async def test_a_client_in_one_of_our_languages_gets_names_in_it_others_english() -> None:
    # The translator reads only the location, so the parameter itself is left out.
    context = app_commands.TranslationContext(  # type: ignore[call-overload]
        app_commands.TranslationContextLocation.parameter_name, None
    )
    named = CatalogTranslator().translate
    teams = app_commands.locale_str("teams")
    assert await named(teams, discord.Locale.russian, context) == "команды"
    assert await named(teams, discord.Locale.polish, context) == "drużyny"
    assert await named(teams, discord.Locale.american_english, context) is None
    assert await named(teams, discord.Locale.spain_spanish, context) is None


class _Shouting(gettext.NullTranslations):
    def pgettext(self, context: str, message: str) -> str:
        return message.upper().replace("_", " ")


def test_a_name_discord_would_refuse_is_left_english(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(translation, "translator", lambda lang: Translator(lang, _Shouting()))
    assert localized_name("hand_size", "ru") == "hand_size"
    assert localized_name("x" * 40, "ru") == "x" * 40
