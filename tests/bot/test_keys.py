"""Key layout: one chat's keys share a Redis Cluster slot, and so do one user's."""

from __future__ import annotations

import pytest
from redis.crc import key_slot

from bot.model.contract import ChatRef, UserRef
from bot.storage import keys

GROUP = ChatRef("tg", "-100123")
TOPIC = ChatRef("tg", "-100123", "77")
USER = UserRef("tg", "42", "Anna")


def slot(key: str) -> int:
    return int(key_slot(key.encode()))


def chat_keys(chat: ChatRef) -> list[str]:
    return [
        keys.game(chat),
        keys.last_game(chat),
        keys.moves(chat),
        keys.deals(chat),
        keys.scores(chat, "kozel"),
        keys.players(chat, "kozel"),
        keys.rating_queue(chat),
        keys.history(chat),
        keys.settings(chat),
        keys.slot_messages(chat),
        keys.sent(chat),
    ]


@pytest.mark.parametrize("chat", [GROUP, TOPIC, ChatRef("dc", "998877"), ChatRef("con", "local")])
def test_all_keys_of_a_chat_share_one_cluster_slot(chat: ChatRef) -> None:
    assert len({slot(key) for key in chat_keys(chat)}) == 1


def test_all_keys_of_a_user_share_one_cluster_slot() -> None:
    user_keys = [keys.user_stats(USER), keys.user_match(USER, "g1"), keys.user_lang(USER)]
    assert len({slot(key) for key in user_keys}) == 1


def test_each_timer_bucket_and_its_current_member_hash_share_one_slot() -> None:
    for bucket in range(keys.TIMER_BUCKETS):
        due, current = keys.timers(bucket)
        assert slot(due) == slot(current)


def test_the_timer_buckets_are_spread_over_slots() -> None:
    slots = {slot(keys.timers(bucket)[0]) for bucket in range(keys.TIMER_BUCKETS)}
    assert len(slots) == keys.TIMER_BUCKETS


def test_a_chat_key_carries_the_chat_as_its_hash_tag() -> None:
    assert keys.game(GROUP) == "dom:{tg:-100123}:game"
    assert keys.scores(GROUP, "kozel") == "dom:{tg:-100123}:scores:kozel"


def test_a_forum_topic_is_a_chat_of_its_own() -> None:
    assert set(chat_keys(GROUP)).isdisjoint(chat_keys(TOPIC))


def test_a_reference_with_braces_is_refused() -> None:
    with pytest.raises(ValueError, match="braces"):
        keys.game(ChatRef("tg", "1}{2"))


def test_each_game_has_a_board_of_its_own() -> None:
    assert keys.scores(GROUP, "kozel") != keys.scores(GROUP, "tyaga")


def test_a_timer_member_reads_back_as_chat_game_and_counter() -> None:
    member = keys.timer_member(TOPIC, "g1", 12)
    assert member == "tg:-100123:77|g1|12"
    assert keys.parse_timer_member(member) == (TOPIC, "g1", 12)


@pytest.mark.parametrize("member", ["", "tg:1|g1", "tg:1|g1|x", "tg:1|g|1|2", "nocolon|g1|3"])
def test_a_malformed_timer_member_reads_as_none(member: str) -> None:
    assert keys.parse_timer_member(member) is None


def test_a_game_id_with_the_member_separator_is_refused() -> None:
    with pytest.raises(ValueError):
        keys.timer_member(GROUP, "a|b", 1)


def test_a_chat_key_moves_to_another_chat_with_its_suffix() -> None:
    moved = keys.rename_chat_key(keys.scores(GROUP, "kozel"), GROUP, ChatRef("tg", "-100999"))
    assert moved == keys.scores(ChatRef("tg", "-100999"), "kozel")


def test_the_chat_pattern_matches_only_that_chat_s_keys() -> None:
    assert keys.chat_pattern(GROUP) == "dom:{tg:-100123}:*"
