"""The Telegram lobby says what each option means and its value in words, in the
chat's language, under the option's name to type: never a row of raw codes
(``hand_size=7 opening=any``)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.tables import message_text, open_table

pytestmark = pytest.mark.slow

# What a Tyaga lobby for two says of its options with the defaults, per language.
WORDS = {
    "en": [
        "• tiles dealt to each player (hand_size): 7",
        "• who leads: any tile, the highest double, or the 6-6 (opening): any tile",
        "• points that end the match (target): 100",
    ],
    "ru": [
        "• сколько фишек раздают каждому (hand_size): 7",
        "• кто ходит первым: любой фишкой, старшим дублем или 6-6 (opening): любой фишкой",
        "• очки, на которых кончается игра (target): 100",
    ],
    "uk": ["• скільки фішок роздають кожному (hand_size): 7", "(opening): будь-якою фішкою"],
    "pl": ["• ile kamieni dostaje każdy gracz (hand_size): 7", "(opening): dowolnym kamieniem"],
    "ca": ["• fitxes que rep cada jugador (hand_size): 7", "(opening): amb qualsevol fitxa"],
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
