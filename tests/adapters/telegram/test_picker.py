"""A bare /newgame gets a button per game under the core's reply."""

from __future__ import annotations

from adapters.telegram.picker import offer_games, picked_game
from adapters.telegram.render import CALLBACK_DATA_LIMIT
from bot import catalog
from bot.contract import ChatRef, Screen, Show, Slot, SlotKind

INFO = Slot(SlotKind.INFO, ChatRef("tg", "-1"))
NAMES = [v.name for v in catalog.variants()]


def info(text: str) -> Show:
    return Show(INFO, Screen(((text,),)), 1)


def test_the_reply_naming_every_game_gets_a_button_for_each() -> None:
    (offered,) = offer_games([info("Say which game. Games: " + ", ".join(NAMES))])
    assert isinstance(offered, Show)
    payloads = [b.payload for row in offered.screen.buttons for b in row]
    assert [picked_game(p or "") for p in payloads] == NAMES
    assert all(len((p or "").encode()) <= CALLBACK_DATA_LIMIT for p in payloads)


def test_a_reply_about_one_open_game_gets_no_buttons() -> None:
    reply = info("A game is already open here: Kozel (the goat), table abc.")
    assert offer_games([reply]) == [reply]


def test_only_the_picker_prefix_with_a_known_game_is_a_pick() -> None:
    assert picked_game("n_kozel") == "kozel"
    assert picked_game("n_chess") is None
    assert picked_game("1j_abcdefgh") is None
