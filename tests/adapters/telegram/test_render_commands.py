"""A command the core names is written by its Telegram name."""

from __future__ import annotations

from adapters.telegram.render import Renderer
from bot.model.contract import CommandRef
from tests.adapters.telegram.htmlcheck import plain_text


def test_a_command_is_written_with_its_telegram_name_and_slash() -> None:
    renderer = Renderer("domino_test_bot", wall=lambda: 0.0)
    text = renderer.text(
        (("Open one with ", CommandRef("new", "tyaga"), " or ", CommandRef("join")),)
    )
    assert plain_text(text) == "Open one with /newgame tyaga or /join"
