"""The catalog adapters register: commands, games with their options, computer levels."""

from __future__ import annotations

import re

import pytest

from bot.ai import levels
from bot.views import catalog
from bot.views.i18n import available_languages
from bot.views.texts import OPTION_HELP, OPTION_LABELS
from engine import all_variants
from engine.variant import Variant


def test_every_command_has_a_description() -> None:
    infos = catalog.commands("en")
    assert [i.name for i in infos] == list(catalog.COMMAND_NAMES)
    assert all(i.description for i in infos)
    assert {"new", "join", "leave", "start", "stop", "cancel", "settings", "export"} <= set(
        catalog.COMMAND_NAMES
    )


def test_every_game_of_the_engine_is_listed_with_its_options() -> None:
    listed = {v.name: v for v in catalog.variants("en")}
    assert set(listed) == {v.name for v in all_variants()}
    tyaga = listed["tyaga"]
    assert tyaga.title == "Tyaga (Draw)" and (tyaga.min_players, tyaga.max_players) == (2, 6)
    opening = next(o for o in tyaga.options if o.name == "opening")
    assert opening.choices == ("any", "highest_double", "double_six") and opening.default == "any"
    target = next(o for o in tyaga.options if o.name == "target")
    assert (target.low, target.high, target.default) == (10, 1000, "100")
    assert all(o.description for v in listed.values() for o in v.options)


def test_a_game_is_found_by_an_alias() -> None:
    assert catalog.variant("goat").name == "kozel"


def test_the_computer_levels_are_the_ais() -> None:
    assert tuple(level.name for level in catalog.computer_levels()) == levels()


SETTING = re.compile(r"\b([a-z_]+)=([a-z_:0-9]+)")
"""An option set to a value as typed (``opening=highest_double``)."""
CODE = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")
"""An option's name as typed (``no_double``)."""


def _names_only_options_that_exist(variant: Variant, text: str) -> None:
    specs = {spec.name: spec for spec in variant.option_specs}
    for name, value in SETTING.findall(text):
        assert name in specs and value in specs[name].choices, f"{variant.name}: {text!r}"
    for name in CODE.findall(SETTING.sub("", text)):
        assert name in specs, f"{variant.name}: {text!r} names no option of the game"


@pytest.mark.parametrize("variant", all_variants(), ids=lambda v: v.name)
def test_the_engines_option_help_names_only_options_that_exist(variant: Variant) -> None:
    for spec in variant.option_specs:
        _names_only_options_that_exist(variant, spec.help)


@pytest.mark.parametrize("lang", available_languages())
@pytest.mark.parametrize("variant", all_variants(), ids=lambda v: v.name)
def test_the_option_help_people_read_names_only_options_that_exist(
    variant: Variant, lang: str
) -> None:
    """In every language, for every option of every game."""
    for option in catalog.option_infos(variant, lang):
        assert option.description != option.name, f"{option.name} has no help of its own"
        _names_only_options_that_exist(variant, option.description)


def test_the_bots_option_help_is_for_options_that_exist() -> None:
    options = {spec.name for v in all_variants() for spec in v.option_specs}
    assert set(OPTION_HELP) == set(OPTION_LABELS) == options
