"""The catalog adapters register: commands, games with their options, computer levels."""

from __future__ import annotations

from bot import catalog
from bot.ai import levels
from engine import all_variants


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
