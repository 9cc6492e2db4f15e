"""Telegram updates become the core's inbound events."""

from __future__ import annotations

import re
from typing import Any

from telegram import CallbackQuery, Message

from adapters.telegram.conversion import (
    COMMANDS,
    TELEGRAM_NAMES,
    message_to_inbound,
    parse_command,
    query_to_press,
)
from bot.model.contract import ChatRef, Command, Press, PrivateStart, UserRef
from bot.views.catalog import COMMAND_NAMES

BOT = "domino_test_bot"
ANN = {"id": 42, "is_bot": False, "first_name": "Ann", "last_name": "Lee", "language_code": "pl"}
GROUP = {"id": -100123, "type": "supergroup", "title": "Dominoes"}
FORUM = {"id": -100777, "type": "supergroup", "title": "Club", "is_forum": True}
PRIVATE = {"id": 42, "type": "private", "first_name": "Ann"}


def message(text: str, chat: dict[str, Any] = GROUP, **extra: Any) -> Message:
    data = {"message_id": 5, "date": 0, "chat": chat, "from": ANN, "text": text, **extra}
    result = Message.de_json(data, None)
    assert result is not None
    return result


def test_a_group_command_becomes_the_cores_command_with_its_words() -> None:
    inbound = message_to_inbound(message("/newgame kozel target=51"), BOT)
    assert inbound == Command(
        ChatRef("tg", "-100123"),
        UserRef("tg", "42", "Ann Lee", "pl"),
        "new",
        ("kozel", "target=51"),
        chat_title="Dominoes",
        message_id="5",
    )


def test_new_is_taken_as_well_as_newgame() -> None:
    inbound = message_to_inbound(message("/new tyaga"), BOT)
    assert isinstance(inbound, Command) and (inbound.name, inbound.args) == ("new", ("tyaga",))


def test_start_in_a_group_is_not_the_games_start() -> None:
    assert message_to_inbound(message("/start"), BOT) is None


def test_every_core_command_has_a_telegram_name_of_lower_case_letters() -> None:
    for core, tg in TELEGRAM_NAMES.items():
        assert COMMANDS[tg] == core
        assert re.fullmatch(r"[a-z0-9_]{1,32}", tg)
    assert set(TELEGRAM_NAMES) == set(COMMAND_NAMES)


def test_startgame_is_the_cores_start() -> None:
    inbound = message_to_inbound(message("/startgame"), BOT)
    assert isinstance(inbound, Command) and inbound.name == "start"


def test_a_command_addressed_to_this_bot_is_taken_in_any_case() -> None:
    inbound = message_to_inbound(message("/join@Domino_Test_Bot"), BOT)
    assert isinstance(inbound, Command) and inbound.name == "join"


def test_a_command_addressed_to_another_bot_is_ignored() -> None:
    assert message_to_inbound(message("/join@otherbot"), BOT) is None


def test_an_unknown_command_and_plain_text_are_ignored() -> None:
    assert message_to_inbound(message("/frobnicate"), BOT) is None
    assert message_to_inbound(message("hello"), BOT) is None


def test_a_forum_topic_is_a_chat_of_its_own() -> None:
    inbound = message_to_inbound(
        message("/join", FORUM, message_thread_id=9, is_topic_message=True), BOT
    )
    assert isinstance(inbound, Command)
    assert inbound.chat == ChatRef("tg", "-100777", "9")


def test_a_reply_thread_outside_a_forum_is_not_a_topic() -> None:
    inbound = message_to_inbound(message("/join", GROUP, message_thread_id=3), BOT)
    assert isinstance(inbound, Command)
    assert inbound.chat == ChatRef("tg", "-100123")


def test_start_with_a_payload_in_private_is_a_private_start() -> None:
    inbound = message_to_inbound(message("/start h_abc", PRIVATE), BOT)
    assert inbound == PrivateStart(UserRef("tg", "42", "Ann Lee", "pl"), "h_abc")


def test_start_alone_in_private_asks_for_his_tables() -> None:
    inbound = message_to_inbound(message("/start", PRIVATE), BOT)
    assert inbound == PrivateStart(UserRef("tg", "42", "Ann Lee", "pl"), "")


def test_a_person_does_not_speak_as_the_chat() -> None:
    inbound = message_to_inbound(message("/join"), BOT)
    assert isinstance(inbound, Command) and not inbound.as_chat


def test_a_command_in_private_says_so() -> None:
    inbound = message_to_inbound(message("/stats", PRIVATE), BOT)
    assert isinstance(inbound, Command) and inbound.private


def test_a_group_command_names_the_group_and_a_private_one_names_nothing() -> None:
    # A hand in the private chat names the group its table is in.
    group = message_to_inbound(message("/newgame tyaga", FORUM), BOT)
    private = message_to_inbound(message("/stats", PRIVATE), BOT)
    assert isinstance(group, Command) and group.chat_title == "Club"
    assert isinstance(private, Command) and private.chat_title is None


def test_an_anonymous_admin_speaks_as_the_group_and_counts_as_admin() -> None:
    anonymous = {"id": 1087968824, "is_bot": True, "first_name": "Group"}
    inbound = message_to_inbound(
        message("/stop", GROUP, **{"from": anonymous, "sender_chat": GROUP}), BOT
    )
    assert isinstance(inbound, Command)
    assert inbound.is_admin and inbound.as_chat
    assert inbound.user == UserRef("tg", "-100123", "Dominoes")


def test_a_post_from_a_linked_channel_is_ignored() -> None:
    channel = {"id": -100999, "type": "channel", "title": "News"}
    assert message_to_inbound(message("/stop", GROUP, sender_chat=channel), BOT) is None


def test_a_button_press_carries_its_data_and_chat() -> None:
    data = {
        "id": "77",
        "from": ANN,
        "chat_instance": "x",
        "data": "g1.3.j",
        "message": {
            "message_id": 9,
            "date": 0,
            "chat": FORUM,
            "text": "table",
            "message_thread_id": 4,
            "is_topic_message": True,
        },
    }
    query = CallbackQuery.de_json(data, None)
    assert query is not None
    assert query_to_press(query) == Press(
        ChatRef("tg", "-100777", "4"),
        UserRef("tg", "42", "Ann Lee", "pl"),
        "g1.3.j",
        chat_title="Club",
    )


def test_command_words_split_on_any_whitespace() -> None:
    typed = parse_command("/newgame  tyaga\nopening=any", BOT)
    assert typed is not None
    assert (typed.name, typed.args) == ("newgame", ("tyaga", "opening=any"))
