"""A typed move becomes the press of the button that offers it, or a press the core
will refuse with the engine's reason."""

from __future__ import annotations

import pytest

from bot.model import codec
from bot.model.codec import MovePress
from bot.model.contract import Button
from bot.table.typed_moves import NotAMove, offered_moves, typed_press
from bot.views.i18n import translator
from engine import DRAW, Move, Tile

_ = translator("en")
GAME = "k3j9x2ab"
COUNTER = 17


def buttons(*moves: Move) -> list[Button]:
    return [Button(str(m), codec.move_payload(GAME, COUNTER, m)) for m in moves]


def pressed(text: str, *moves: Move) -> Move:
    action = codec.decode(typed_press(_, text, buttons(*moves)))
    assert isinstance(action, MovePress)
    assert (action.game_id, action.counter) == (GAME, COUNTER)
    return action.move


T64, T55, T33, T51 = Tile(6, 4), Tile(5, 5), Tile(3, 3), Tile(5, 1)


def test_a_move_written_as_offered_presses_that_button() -> None:
    assert pressed("6-4@R", Move.play(T64, "L"), Move.play(T64, "R")) == Move.play(T64, "R")


def test_the_halves_of_a_tile_may_be_written_in_either_order() -> None:
    assert pressed("4-6@L", Move.play(T64, "L"), DRAW) == Move.play(T64, "L")


def test_a_tile_without_an_end_takes_the_only_end_offered_for_it() -> None:
    assert pressed("6-4", Move.play(T64, "R"), Move.play(T55, "L")) == Move.play(T64, "R")


def test_a_tile_without_an_end_that_fits_both_is_refused_naming_both() -> None:
    with pytest.raises(NotAMove, match=r"6-4@L, 6-4@R"):
        pressed("6-4", Move.play(T64, "L"), Move.play(T64, "R"))


def test_a_lead_keeps_the_halves_as_written() -> None:
    assert pressed("4-6", Move.lead(T64), Move.lead(T55)) == Move.lead(T64, flip=True)


def test_an_end_written_on_a_lead_is_ignored() -> None:
    assert pressed("6-4@R", Move.lead(T64)) == Move.lead(T64)


def test_words_press_their_buttons() -> None:
    assert pressed("DRAW", Move.play(T64, "L"), DRAW) == DRAW


def test_a_double_move_may_name_its_doubles_in_either_order() -> None:
    offered = Move.double(T55, T33)
    assert pressed("3-3+5-5", offered) == offered


def test_a_move_no_button_offers_is_sent_for_the_core_to_refuse() -> None:
    assert pressed("steal 5-1", Move.play(T64, "L")) == Move.steal(T51)


def test_text_that_is_not_a_move_is_refused_before_pressing() -> None:
    with pytest.raises(NotAMove, match="not a move"):
        pressed("six four", Move.play(T64, "L"))


def test_nothing_is_pressed_without_move_buttons() -> None:
    with pytest.raises(NotAMove):
        typed_press(_, "draw", [Button("Join", codec.lobby_payload(GAME, "join"))])


def test_only_move_buttons_are_offered_moves() -> None:
    mixed = [
        Button("Join", codec.lobby_payload(GAME, "join")),
        Button("site", url="https://example.com"),
        *buttons(DRAW),
    ]
    assert [o.press.move for o in offered_moves(mixed)] == [DRAW]
