"""A player's turn ping: it names the game, its table and the time his turn runs out."""

from __future__ import annotations

from dataclasses import replace

from bot.model.contract import Deadline
from bot.views.hand import ping_screen
from bot.views.i18n import translator
from tests.bot.test_render import doc_for, short_deal


def test_a_turn_ping_names_its_game_and_its_own_deadline() -> None:
    _ = translator("en")
    doc = doc_for(short_deal())
    timed, later = ping_screen(_, doc, 100.0), ping_screen(_, doc, 160.0)
    assert timed.lines == (
        ("Your turn at Tyaga (Draw) · table abcdefgh.",),
        ("Time runs out ", Deadline(100.0)),
    )
    assert later.lines[1] == ("Time runs out ", Deadline(160.0))
    untimed = ping_screen(_, replace(doc, id="zyxwvuts", chat_title="Room"), None)
    assert untimed.lines == (("Your turn at Tyaga (Draw) in Room · table zyxwvuts.",),)
