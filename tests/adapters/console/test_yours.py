"""With one person at the keyboard, what the table says about him is said to him,
in every language: "You won." for a match he won, and his draws name the tiles."""

from __future__ import annotations

import pytest

from adapters.console.yours import named_draws, own_draws, said_to_you
from bot.views.i18n import translator

LANGUAGES = ["en", "ru", "uk", "pl", "ca"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_match_the_player_won_is_told_to_him_as_his_win(lang: str) -> None:
    _ = translator(lang)
    you = _("You")
    core_said = _("The match is over. Won by %(names)s.", names=you)
    told = said_to_you(_, you, core_said)
    assert told == _("The match is over. You won.") != core_said
    if lang == "en":
        assert told == "The match is over. You won."


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_win_with_a_partner_names_the_partner_only(lang: str) -> None:
    _ = translator(lang)
    you, partner = _("You"), _("Computer %(n)d", n=2)
    core_said = _("The match is over. Won by %(names)s.", names=f"{you}, {partner}")
    told = said_to_you(_, you, core_said)
    assert told == _("The match is over. You won, with %(names)s.", names=partner) != core_said


def test_other_winners_and_other_lines_are_left_as_the_core_wrote_them() -> None:
    _ = translator("en")
    for line in ("The match is over. Won by Computer 1.", "Deal 1 is over.", "You to move"):
        assert said_to_you(_, "You", line) == line


def test_the_players_draw_names_the_tile_his_hand_gained() -> None:
    _ = translator("en")
    moves = ["Computer 1 drew a tile", "You drew a tile", "You played [5|2] on the left"]
    assert named_draws(_, "You", moves, ["[6|1]"]) == [
        "Computer 1 drew a tile",
        "You drew [6|1]",
        "You played [5|2] on the left",
    ]


def test_several_draws_at_once_are_one_sentence_listing_the_tiles() -> None:
    _ = translator("ru")
    you = _("You")
    hidden = _("%(name)s drew a tile", name=you)
    told = named_draws(_, you, [hidden, hidden], ["[6|1]", "[3|0]"])
    assert told == [_("You drew %(tiles)s", tiles="[6|1] [3|0]")]
    assert told[0] != hidden and "[6|1] [3|0]" in told[0]


def test_draws_that_do_not_tally_with_the_hand_are_not_named() -> None:
    _ = translator("en")
    moves = ["You drew a tile", "You drew a tile"]
    assert named_draws(_, "You", moves, ["[6|1]"]) == moves


def test_a_hand_of_another_deal_gained_nothing_by_drawing() -> None:
    _ = translator("en")
    before = ["Your tiles, deal 1:", "[6|6]"]
    now = ["Your tiles, deal 2:", "[6|6] [2|1]"]
    assert own_draws(_, "You", ["You drew a tile"], now, before) == ["You drew a tile"]
    later = ["Your tiles, deal 1:", "[6|6] [2|1]"]
    assert own_draws(_, "You", ["You drew a tile"], later, before) == ["You drew [2|1]"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_deal_the_player_took_is_told_to_him_as_his(lang: str) -> None:
    _ = translator(lang)
    you = _("You")
    core_said = _("The deal goes to %(name)s.", name=you)
    assert said_to_you(_, you, core_said) == _("You take the deal.") != core_said
    other = _("The deal goes to %(name)s.", name="Computer 1")
    assert said_to_you(_, you, other) == other


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_player_as_the_goat_is_told_so(lang: str) -> None:
    _ = translator(lang)
    you = _("You")
    core_said = _.ngettext("The goat: %(names)s.", "The goats: %(names)s.", 1, names=you)
    assert said_to_you(_, you, core_said) == _("You are the goat.") != core_said
    other = _.ngettext("The goat: %(names)s.", "The goats: %(names)s.", 1, names="Computer 1")
    assert said_to_you(_, you, other) == other


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_caravan_the_player_stole_or_recovered_is_told_to_him(lang: str) -> None:
    _ = translator(lang)
    you, other = _("You"), _("Computer %(n)d", n=1)
    parts = {"thief": "[6|0]", "tiles": "[6|2][2|0]"}
    for core, told in (
        ("Stolen by %(name)s with %(thief)s: %(tiles)s", "Stolen by you with %(thief)s: %(tiles)s"),
        ("Recovered by %(name)s: %(tiles)s", "Recovered by you: %(tiles)s"),
    ):
        core_said = _(core, name=you, **parts)
        assert said_to_you(_, you, core_said) == _(told, **parts) != core_said
        someone_else = _(core, name=other, **parts)
        assert said_to_you(_, you, someone_else) == someone_else
    if lang == "en":
        stolen = _("Stolen by %(name)s with %(thief)s: %(tiles)s", name=you, **parts)
        assert said_to_you(_, you, stolen) == "Stolen by you with [6|0]: [6|2][2|0]"
