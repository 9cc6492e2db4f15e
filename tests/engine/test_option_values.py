"""Every option value of every game is read in ASCII: accepted with the meaning an
ASCII reading gives it, or refused with the option's own error; never a crash, whatever
script it is written in."""

from __future__ import annotations

import re
from typing import Final

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import BadOption, api, get_variant
from engine.options import OptionSpec, ascii_number, resolve_options
from engine.variants.baghdad_scoring import MAX_DEALS, MAX_TARGET

SPACE: Final = " \t\n\r\x0b\x0c"
GAMES: Final = ("tyaga", "kozel", "baghdad", "three_guns")
OPTIONS: Final = [(game, spec) for game in GAMES for spec in get_variant(game).option_specs]


def read_number(text: str) -> int | None:
    """The whole number an ASCII reading finds in ``text``."""
    found = re.fullmatch(r"[ \t\n\r\x0b\x0c]*(-?)([0-9]+)[ \t\n\r\x0b\x0c]*", text)
    if found is None:
        return None
    digits = found[2].lstrip("0") or "0"
    number = int(digits) if len(digits) < 12 else 10**12
    return -number if found[1] else number


def read_match(text: str) -> str | None:
    """``deals:N`` or ``target:N`` as an ASCII reading finds it (spaces anywhere)."""
    if not text.isascii():
        return None
    found = re.fullmatch(
        r"(deals|target)(?::([0-9]*))?", text.replace(" ", "").strip(SPACE).lower()
    )
    if found is None:
        return None
    kind = found[1]
    number = read_number(found[2] or ("6" if kind == "deals" else "100"))
    assert number is not None
    if kind == "deals" and (2 <= number <= MAX_DEALS and number % 2 == 0):
        return f"deals:{number}"
    if kind == "target" and 1 <= number <= MAX_TARGET:
        return f"target:{number}"
    return None


def meaning(spec: OptionSpec, text: str) -> str | int | None:
    """What ``text`` means for ``spec`` read in ASCII, or ``None``: it is to be refused."""
    if spec.is_int:
        assert spec.low is not None and spec.high is not None
        number = read_number(text)
        return number if number is not None and spec.low <= number <= spec.high else None
    if spec.parse is not None:
        return read_match(text)
    word = text.strip(SPACE).lower() if text.isascii() else None
    return word if word in spec.choices else None


def near_misses(spec: OptionSpec) -> st.SearchStrategy[str]:
    """Values an ASCII reading accepts, with anything at all around or inside them."""
    sound = [*spec.choices, "50", "12", "deals:6", "target:80", "Deals : 4", "0010", "-5"]
    return st.builds(
        lambda before, word, after: before + word + after,
        st.text(max_size=2),
        st.sampled_from(sound),
        st.text(max_size=2),
    )


@pytest.mark.parametrize(("game", "spec"), OPTIONS, ids=[f"{g}-{s.name}" for g, s in OPTIONS])
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_an_option_value_in_any_script_is_read_in_ascii_or_refused(
    game: str, spec: OptionSpec, data: st.DataObject
) -> None:
    text = data.draw(st.text() | near_misses(spec), label="value")
    specs = get_variant(game).option_specs
    players = get_variant(game).min_players
    wanted = meaning(spec, text)
    try:
        resolved = resolve_options(specs, players, {spec.name: text}, game)
    except BadOption as refused:
        assert wanted is None, f"{text!r} means {wanted!r} in ASCII"
        assert refused.params["option"] == spec.name
        return
    assert resolved[spec.name] == wanted


@pytest.mark.parametrize(
    ("game", "options", "names"),
    [
        ("baghdad", {"match": "deals:²"}, "match"),
        ("baghdad", {"match": "target:١٢"}, "match"),
        ("baghdad", {"match": "deals:" + "9" * 5000}, "match"),
        ("tyaga", {"target": "١٢"}, "target"),
        ("tyaga", {"target": "１２"}, "target"),  # fullwidth digits
        ("tyaga", {"target": "²"}, "target"),
        ("tyaga", {"target": "1_00"}, "target"),
        ("tyaga", {"target": "9" * 5000}, "target"),
        ("tyaga", {"opening": "ａny"}, "opening"),  # a fullwidth letter
        ("tyaga", {"opening": "any\u00a0"}, "opening"),  # a space outside ASCII
        ("kozel", {"double_move": "\u212a"}, "double_move"),  # the Kelvin sign lowers to k
        ("kozel", {"target": "１０１"}, "target"),
    ],
)
def test_digits_and_letters_of_other_scripts_are_refused_with_the_options_error(
    game: str, options: dict[str, str], names: str
) -> None:
    with pytest.raises(BadOption) as refused:
        api.new_match(game, get_variant(game).min_players, options)
    assert refused.value.params["option"] == names
    assert names in str(refused.value)


def test_a_number_too_long_for_any_range_is_never_converted() -> None:
    assert ascii_number("9" * 100_000) == 10**9
    assert ascii_number("-" + "0" * 100_000 + "7") == -7
