"""A button that opens the web table, as Telegram is sent it: never without the table's
address, and inside Telegram only in a private chat and over HTTPS."""

from __future__ import annotations

from adapters.telegram.render import Renderer
from adapters.web_address import WebAddress
from bot.model.contract import Button, ChatRef, Screen

PRIVATE, GROUP = ChatRef("tg", "42"), ChatRef("tg", "-100500", "7")
SCREEN = Screen((("Deal 1",),), ((Button("Tiles", "1t_x"), Button("Open", web="a.b.c.d")),))


def kinds(renderer: Renderer, chat: ChatRef) -> list[list[str]]:
    markup = renderer.render(SCREEN, chat).markup
    assert markup is not None
    return [
        [next(k for k in ("callback_data", "url", "web_app") if k in b) for b in row]
        for row in markup.to_dict()["inline_keyboard"]
    ]


def test_without_the_tables_address_a_web_button_is_left_out() -> None:
    assert kinds(Renderer("domino_test_bot"), PRIVATE) == [["callback_data"]]


def test_a_private_chat_opens_it_inside_telegram_a_forum_topic_by_a_link() -> None:
    renderer = Renderer("domino_test_bot", web=WebAddress("https://domino.example", "table"))
    assert kinds(renderer, PRIVATE) == [["callback_data", "web_app"]]
    assert kinds(renderer, GROUP) == [["callback_data", "url"]]
    markup = renderer.render(SCREEN, GROUP).markup
    assert markup is not None
    (row,) = markup.to_dict()["inline_keyboard"]
    assert row[1]["url"].startswith("https://t.me/domino_test_bot/table?startapp=")


def test_a_page_over_plain_http_is_a_link_even_in_a_private_chat() -> None:
    renderer = Renderer("domino_test_bot", web=WebAddress("http://127.0.0.1:8090"))
    assert kinds(renderer, PRIVATE) == [["callback_data", "url"]]
    markup = renderer.render(SCREEN, PRIVATE).markup
    assert markup is not None
    assert markup.to_dict()["inline_keyboard"][0][1]["url"] == "http://127.0.0.1:8090/?pass=a.b.c.d"
