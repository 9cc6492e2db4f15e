"""Screens become Telegram HTML and inline keyboards."""

from __future__ import annotations

import pytest
from telegram.constants import KeyboardButtonStyle

from adapters.telegram.render import (
    ALERT_LIMIT,
    INERT_DATA,
    TEXT_LIMIT,
    Renderer,
    alert_text,
    time_left,
)
from bot.model.contract import Button, CommandRef, Deadline, Mention, Screen, Style, UserRef
from tests.adapters.telegram.htmlcheck import links, plain_text, times

NOW = 1_700_000_000.0


def renderer() -> Renderer:
    return Renderer("domino_test_bot", wall=lambda: NOW)


def test_tiles_and_markup_characters_are_escaped_so_telegram_accepts_them() -> None:
    screen = Screen(lines=(("Line: [6|4][4|1] <b>&</b> 5-5.",),))
    text = renderer().render(screen).text
    assert plain_text(text) == "Line: [6|4][4|1] <b>&</b> 5-5."


def test_a_mention_links_to_the_user_and_escapes_his_name() -> None:
    user = UserRef("tg", "42", "Ann <&> Lee")
    text = renderer().text(((Mention(user), " to move"),))
    assert links(text) == ["tg://user?id=42"]
    assert plain_text(text) == "\u2068Ann <&> Lee\u2069 to move"  # isolated, as every name


def test_a_mention_of_a_seat_with_no_telegram_id_is_just_the_name() -> None:
    text = renderer().text(((Mention(UserRef("ai", "greedy-1", "Robot")),),))
    assert links(text) == []
    assert plain_text(text) == "\u2068Robot\u2069"


def test_a_deadline_shows_the_seconds_left_when_rendered() -> None:
    text = renderer().text((("time left: ", Deadline(NOW + 45)),))
    assert plain_text(text) == "time left: 45s"


def test_a_deadline_is_also_a_live_time_for_clients_that_show_one() -> None:
    text = renderer().text(((Deadline(NOW + 45.7),),))
    assert times(text) == [int(NOW) + 45]


def test_a_command_is_written_as_people_type_it_in_telegram() -> None:
    text = renderer().text((("Send ", CommandRef("new", "tyaga"), " or ", CommandRef("start")),))
    assert plain_text(text) == "Send /newgame tyaga or /startgame"


def test_a_passed_deadline_shows_no_time_left() -> None:
    assert time_left(-3.0) == "0s"


def test_long_waits_show_minutes_and_seconds() -> None:
    assert time_left(125.0) == "2m05s"


def test_a_payload_button_carries_the_payload_as_callback_data() -> None:
    button = renderer().button(Button("[6|4]", payload="g1.7.p6-4"))
    assert button.callback_data == "g1.7.p6-4"
    assert button.text == "[6|4]"


def test_a_payload_over_64_bytes_is_refused() -> None:
    with pytest.raises(ValueError, match="64"):
        renderer().button(Button("x", payload="ж" * 33))


def test_a_deep_link_button_opens_the_private_chat_with_its_payload() -> None:
    button = renderer().button(Button("Open my hand", deep_link="h_g1"))
    assert button.url == "https://t.me/domino_test_bot?start=h_g1"


def test_a_deep_link_payload_telegram_would_drop_is_refused() -> None:
    with pytest.raises(ValueError, match="deep-link"):
        renderer().deep_link("has space")


def test_playable_and_dangerous_buttons_are_styled() -> None:
    r = renderer()
    assert r.button(Button("6|4", payload="p", style=Style.PRIMARY)).style == (
        KeyboardButtonStyle.PRIMARY
    )
    assert r.button(Button("Stop", payload="s", style=Style.DANGER)).style == (
        KeyboardButtonStyle.DANGER
    )
    assert r.button(Button("6|4", payload="p", style=Style.PRIMARY, enabled=False)).style is None


def test_a_button_leading_nowhere_gets_inert_callback_data() -> None:
    assert renderer().button(Button("—")).callback_data == INERT_DATA


def test_rows_become_an_inline_keyboard_and_empty_rows_are_dropped() -> None:
    rows = (
        (Button("a", payload="1"), Button("b", payload="2")),
        (),
        (Button("c", url="https://x"),),
    )
    markup = renderer().keyboard(rows)
    assert markup is not None
    assert [[b.text for b in row] for row in markup.inline_keyboard] == [["a", "b"], ["c"]]


def test_a_screen_with_no_buttons_has_no_keyboard() -> None:
    assert renderer().render(Screen(lines=(("hi",),))).markup is None


def test_a_text_over_telegrams_limit_is_cut_at_a_whole_line() -> None:
    lines = tuple((f"line {i:04d} [6|6] " + "x" * 80,) for i in range(200))
    text = plain_text(renderer().text(lines))
    assert len(text) <= TEXT_LIMIT
    assert text.endswith("\n…")
    assert all(line.startswith("line ") for line in text.split("\n")[:-1])


def test_a_callback_answer_is_cut_to_what_telegram_shows() -> None:
    assert len(alert_text("x" * 500)) == ALERT_LIMIT
    assert alert_text("short") == "short"
