"""Telegram's send rules: what a group and a private chat allow."""

from __future__ import annotations

from adapters.delivery.limiter import Rule
from adapters.telegram.budget import GROUP_RULES, PRIVATE_RULES, TELEGRAM, rules_for
from bot.model.contract import ChatRef


def test_groups_allow_twenty_a_minute_and_one_a_second() -> None:
    assert Rule(20, 60.0) in GROUP_RULES
    assert Rule(1, 1.0) in GROUP_RULES
    assert rules_for(ChatRef("tg", "-100123")) == GROUP_RULES
    assert rules_for(ChatRef("tg", "-100123", "7")) == GROUP_RULES


def test_private_chats_allow_one_a_second() -> None:
    assert rules_for(ChatRef("tg", "42")) == PRIVATE_RULES == (Rule(1, 1.0),)


def test_the_bot_writes_thirty_a_second_over_all_its_chats() -> None:
    assert TELEGRAM.bot_wide == (Rule(30, 1.0),)
    assert TELEGRAM.for_chat(ChatRef("tg", "-100123")) == GROUP_RULES
