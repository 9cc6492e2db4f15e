"""The Telegram lobby names each option and its value in words, in the chat's
language: never a row of raw codes (``hand_size=7 opening=any``) nor an option's
name to type."""

from __future__ import annotations

from typing import Any

import pytest

from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.tables import message_text, open_table

pytestmark = pytest.mark.slow

# What a Tyaga lobby for two says of its options with the defaults, per language.
WORDS = {
    "en": [
        "• Tiles dealt to each player: 7",
        "• First tile: any tile",
        "• Points that end the match: 100",
    ],
    "ru": [
        "• Фишек каждому игроку: 7",
        "• Первый ход: любой фишкой",
        "• Очки, на которых кончается игра: 100",
    ],
    "uk": ["• Фішок кожному гравцеві: 7", "• Перший хід: будь-якою фішкою"],
    "pl": ["• Kamieni dla każdego gracza: 7", "• Pierwszy ruch: dowolnym kamieniem"],
    "ca": ["• Fitxes per a cada jugador: 7", "• Primera jugada: amb qualsevol fitxa"],
}


@pytest.mark.parametrize("lang", sorted(WORDS))
async def test_the_lobby_names_its_options_in_words_in_the_chats_language(
    make_driver: Any, people: dict[str, FakeUser], lang: str
) -> None:
    ann, bob = people["ann"], people["bob"]
    ann.language_code = lang
    d = make_driver()
    game_id = await open_table(d, ann, "/newgame tyaga", bob)
    text = message_text(await d.table(game_id))
    for words in WORDS[lang]:
        assert words in text
    assert "=" not in text, "an option is still shown as a code"
    assert "hand_size" not in text and "opening" not in text, "an option's name leaked"
