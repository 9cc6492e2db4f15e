"""The slash commands as Discord shows them: help in Discord's own terms, and
suggestions for a game's options while ``/domino new`` is typed."""

from __future__ import annotations

from typing import Any

import redis.asyncio as aredis

from adapters.discord.autocomplete import option_suggestions
from bot.views import catalog
from tests.adapters.discord.conftest import ALICE
from tests.adapters.discord.fake_api import EPHEMERAL, FakeDiscord
from tests.adapters.discord.harness import Bot
from tests.adapters.discord.matches import plain_text


def test_suggestions_are_the_chosen_games_options_with_their_values() -> None:
    kozel = {o.name for o in catalog.variant("kozel").options}
    suggested = option_suggestions("kozel", "")
    assert {value.split("=")[0] for _shown, value in suggested} == kozel
    assert ("teams=on" in {v for _s, v in suggested}) and all(
        " — " in shown for shown, _v in suggested
    )
    three_guns = {o.name for o in catalog.variant("three_guns").options}
    assert {v.split("=")[0] for _s, v in option_suggestions("three_guns", "")} == three_guns


def test_a_suggestion_keeps_what_was_typed_and_skips_options_already_given() -> None:
    suggested = [value for _shown, value in option_suggestions("kozel", "target=51 te")]
    assert suggested == ["target=51 teams=on", "target=51 teams=off"]
    again = [value for _shown, value in option_suggestions("kozel", "teams=on ")]
    assert again and all(v.startswith("teams=on ") and v.count("teams=") == 1 for v in again)


async def test_the_options_of_new_are_suggested_as_they_are_typed(bot: Bot) -> None:
    (group,) = bot.fake.commands["global"]
    new = next(o for o in group["options"] if o["name"] == "new")
    options = next(o for o in new["options"] if o["name"] == "options")
    assert options.get("autocomplete") is True


async def test_help_shows_each_command_with_the_options_discord_offers(
    bot: Bot, fake: FakeDiscord, redis_client: aredis.Redis
) -> None:
    record = await bot.command(ALICE, "help")
    reply = bot.reply_to(record)
    text = plain_text(reply)
    assert reply["flags"] & EPHEMERAL
    assert "/domino new variant:… [options:…]" in text
    assert "/domino rules [variant:…]" in text
    usage = catalog.commands()[0].usage  # how other platforms write what follows a command
    assert usage and usage not in text


def _texts_shown(option: dict[str, Any]) -> list[str]:
    """Every text Discord shows for a synced command or option: its description, its
    choices' names and those of what is under it, in English and in each language."""
    shown = [
        option.get("description", ""),
        *(option.get("description_localizations") or {}).values(),
    ]
    for choice in option.get("choices", []):
        shown += [choice["name"], *(choice.get("name_localizations") or {}).values()]
    for child in option.get("options", []):
        shown += _texts_shown(child)
    return shown


async def test_game_options_are_offered_in_words_not_by_their_codes(bot: Bot) -> None:
    (group,) = bot.fake.commands["global"]
    new = next(o for o in group["options"] if o["name"] == "new")
    opening = next(o for o in new["options"] if o["name"] == "opening")
    highest = next(c for c in opening["choices"] if c["value"] == "highest_double")
    assert highest["name"] == "the highest double"
    assert highest["name_localizations"]["ru"] == "старшим дублем"
    codes = {code for option in new["options"] for code in _choice_values(option) if "_" in code}
    assert "highest_double" in codes
    assert not [text for text in _texts_shown(group) if any(code in text for code in codes)]


def _choice_values(option: dict[str, Any]) -> list[str]:
    return [str(choice["value"]) for choice in option.get("choices", [])]
