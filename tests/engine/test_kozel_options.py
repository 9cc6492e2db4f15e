"""Kozel: options, aliases and fixtures."""

from __future__ import annotations

import pytest

from engine import api
from engine.errors import BadFixture, BadOption
from engine.state import Fixture, OptionValue
from engine.variant import get_variant
from tests.engine.kozel_deals import CHAIN_1, deal, start


def test_options_default_to_the_classic_rules() -> None:
    state = api.new_match("goat", 3, seed=1)
    assert dict(state.options) == {
        "double_move": "on",
        "blank_double": "always",
        "teams": "off",
        "target": 101,
    }
    assert [len(h) for h in state.hands] == [5, 5, 5]
    assert [len(h) for h in api.new_match("kozel", 2).hands] == [7, 7]


def test_aliases_find_kozel() -> None:
    assert get_variant("козёл").name == get_variant("goat").name == "kozel"


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (3, {"teams": "on"}),
        (2, {"teams": "on"}),
        (3, {"goat": "on"}),
        (3, {"target": 10}),
        (3, {"target": 1002}),
        (3, {"blank_double": "never"}),
        (5, {}),
        (1, {}),
    ],
)
def test_bad_options_are_refused(players: int, options: dict[str, OptionValue]) -> None:
    with pytest.raises(BadOption):
        api.new_match("kozel", players, options)


def test_fixture_may_not_name_the_leader() -> None:
    fixture = Fixture(CHAIN_1.hands, CHAIN_1.boneyard, leader=1)
    with pytest.raises(BadFixture):
        start(fixture)


def test_fixture_hands_follow_the_hand_size() -> None:
    with pytest.raises(BadFixture):
        start(deal("6-6 5-4 3-3 2-1 4-0 4-1", "6-5 4-4 3-2 1-1 3-1", "5-5 4-3 2-2 1-0 0-0"))


def test_seeded_deals_repeat() -> None:
    one = api.new_match("kozel", 4, seed=11)
    two = api.new_match("kozel", 4, seed=11)
    assert one.hands == two.hands and one.boneyard == two.boneyard
    assert one.hands != api.new_match("kozel", 4, seed=12).hands
