"""Tiles, the move notation, and finding games by name."""

from __future__ import annotations

import pytest

from engine import (
    DOUBLE_SIX,
    THREE_GUNS_SET,
    BadMoveText,
    BadTile,
    Kind,
    Move,
    Tile,
    UnknownVariant,
    format_move,
    get_variant,
    parse_move,
)


def test_tiles_are_interned_and_unordered() -> None:
    assert Tile(4, 6) is Tile(6, 4) is Tile.parse("4-6") is Tile.parse("6|4")
    assert str(Tile(4, 6)) == "6-4" and repr(Tile(4, 6)) == "Tile(6, 4)"
    assert Tile(3, 3).is_double and Tile(6, 4).pips == 10


def test_the_two_sets() -> None:
    assert len(DOUBLE_SIX) == 28 and len(set(DOUBLE_SIX)) == 28
    assert len(THREE_GUNS_SET) == 22 and Tile(6, 6) in THREE_GUNS_SET
    assert not any(t.hi == 6 and t.lo < 6 for t in THREE_GUNS_SET)


@pytest.mark.parametrize(
    "text", ["7-1", "6|", "", "6", "a-b", "6-4-2", "-1-2", "66-4", "²-1", "6-١", "６-4"]
)
def test_malformed_tile_text_is_refused_by_name(text: str) -> None:
    with pytest.raises(BadTile) as error:
        Tile.parse(text)
    assert repr(text) in str(error.value)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("6-4@L", "6-4@L"),
        ("4-6@r", "6-4@R"),
        ("6-4", "6-4"),
        ("4-6", "4-6"),
        ("1-5x@R", "5-1x@R"),
        ("5-5@L+3-3@R", "5-5@L+3-3@R"),
        ("3-3@R+5-5@L", "5-5@L+3-3@R"),
        ("draw", "draw"),
        (" PASS ", "pass"),
        ("done", "done"),
        ("steal 1-5", "steal 5-1"),
        ("recover 1-1 5-5", "recover 5-5 1-1"),
    ],
)
def test_notation_is_written_back_canonically(text: str, canonical: str) -> None:
    move = parse_move(text)
    assert format_move(move) == canonical
    assert parse_move(canonical) == move


def test_a_lead_keeps_the_orientation_it_was_written_in() -> None:
    assert parse_move("4-6") == Move.lead(Tile(6, 4), flip=True)
    assert parse_move("6-4") == Move.lead(Tile(6, 4))
    assert parse_move("3-3") == Move.lead(Tile(3, 3))
    assert parse_move("4-6").unflipped() == Move(Kind.PLAY, Tile(6, 4))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "6-4@X",
        "1-5x",
        "recover 5-5",
        "5-5@L+5-5@R",
        "5-4@L+3-3@R",
        "5-5@L+3-3@L",
        "jump",
        "7-1",
        "²-1@L",
        "steal ５-1",
    ],
)
def test_malformed_moves_are_refused_with_the_text(text: str) -> None:
    with pytest.raises(BadMoveText) as error:
        parse_move(text)
    assert error.value.code == "bad_move_text"


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("draw", "tyaga"),
        ("block", "tyaga"),
        ("goat", "kozel"),
        ("козёл", "kozel"),
        ("thief", "baghdad"),
        ("zlodziej", "baghdad"),
        ("musketeers", "three_guns"),
        ("muszkieterowie", "three_guns"),
        ("Kozel", "kozel"),
    ],
)
def test_games_are_found_by_name_or_alias(alias: str, name: str) -> None:
    assert get_variant(alias).name == name


def test_an_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(UnknownVariant, match=r"'poker'.*kozel"):
        get_variant("poker")
