"""The slash commands as Discord shows them: help in Discord's own terms, and
suggestions for a game's options while ``/domino new`` is typed."""

from __future__ import annotations

import redis.asyncio as aredis

from adapters.discord.autocomplete import option_suggestions
from bot import catalog
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
