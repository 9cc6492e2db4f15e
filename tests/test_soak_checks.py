"""The soak's own checks find what they look for: a lost press, a move nobody pressed,
a refused press stored anyway, the busiest minute of a group, and a person caught in
the middle of his turn."""

from __future__ import annotations

import asyncio
import random
import time
from types import SimpleNamespace
from typing import Any

import fakeredis

from bench.soak.group import Group, mid_turn
from bench.soak.presses import Press, Tally
from bench.soak.scale import _busiest_minute, _busiest_second
from bot.model.contract import ChatRef
from bot.storage import keys
from bot.storage.store import Store
from bot.table.match_steps import Tempo
from bot.table.runner import Runner
from bot.table.updates import _still_acting
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import Call
from tests.adapters.telegram.players import table_slot
from tests.bot.driver import make_table, user

OK: dict[str, Any] = {"show_alert": False}
REFUSED: dict[str, Any] = {"show_alert": True, "text": "unavailable"}


def _group() -> tuple[Group, Tally]:
    tally = Tally()
    redis = fakeredis.FakeAsyncRedis()
    group = Group(FakeBotApi(), None, redis, -5, 0, tally, asyncio.Event())  # type: ignore[arg-type]
    return group, tally


def _doc(*moves: tuple[int, str], timed_out: tuple[int, ...] = (), away: str | None = None) -> Any:
    person = SimpleNamespace(user=SimpleNamespace(user_id="1"), away=away)
    computer = SimpleNamespace(user=None, away=None)
    return SimpleNamespace(id="g", moves=moves, seats=[person, computer], timed_out=timed_out)


def test_every_press_matching_the_store_is_no_problem() -> None:
    group, tally = _group()
    group.presses["g"] = [Press("g", 0, 0, "6-6", OK), Press("g", 2, 0, "6-5@L", None)]
    group._check_moves(_doc((0, "6-6"), (1, "5-5@R"), (0, "6-5@L")))
    assert tally.problems == []
    assert tally.moves_checked == 2  # the computer's move is not a person's


def test_an_acknowledged_press_missing_from_the_store_is_lost() -> None:
    group, tally = _group()
    group.presses["g"] = [Press("g", 0, 0, "6-6", OK), Press("g", 2, 0, "6-5@L", OK)]
    group._check_moves(_doc((0, "6-6"), (1, "5-5@R")))
    assert tally.problems == ["game g: acknowledged move (2, 0, '6-5@L') lost"]


def test_a_stored_tile_nobody_pressed_is_found_but_a_forced_draw_is_not() -> None:
    group, tally = _group()
    group.presses["g"] = []
    group._check_moves(_doc((0, "draw"), (0, "6-6"), (0, "6-4@L"), timed_out=(2,)))
    assert tally.problems == ["game g: move (1, 0, '6-6') stored, never pressed"]


def test_a_computer_playing_a_seat_taken_over_after_timeouts_pressed_nothing() -> None:
    group, tally = _group()
    group.presses["g"] = [Press("g", 0, 0, "6-6", OK)]
    moves = ((0, "6-6"), (1, "5-5@R"), (0, "6-5@L"), (1, "5-1@R"), (0, "1-1@R"), (1, "4-4@L"))
    group._check_moves(_doc(*moves, timed_out=(2,), away="timed out"))
    assert tally.problems == []
    assert (tally.moves_checked, tally.timer_moves) == (1, 2)


def test_a_seat_not_taken_over_still_needs_a_press_after_a_timeout() -> None:
    group, tally = _group()
    group.presses["g"] = [Press("g", 0, 0, "6-6", OK)]
    group._check_moves(_doc((0, "6-6"), (1, "5-5@R"), (0, "6-5@L"), (0, "5-1@R"), timed_out=(2,)))
    assert tally.problems == ["game g: move (3, 0, '5-1@R') stored, never pressed"]


def test_a_refused_press_that_was_stored_anyway_is_found() -> None:
    group, tally = _group()
    group.presses["g"] = [Press("g", 0, 0, "6-6", REFUSED)]
    group._check_moves(_doc((0, "6-6")))
    assert tally.problems == ["game g: refused move (0, 0, '6-6') stored anyway"]


def test_the_busiest_minute_counts_one_groups_writes_within_sixty_seconds() -> None:
    fake = FakeBotApi()
    for at in (0.0, 10.0, 59.0, 61.0, 62.0, 200.0):
        fake.calls.append(Call("editMessageText", {"chat_id": -7, "text": "x"}, at))
    fake.calls.append(Call("sendMessage", {"chat_id": 42, "text": "x"}, 1.0))  # a private chat
    fake.calls.append(Call("answerCallbackQuery", {"chat_id": -7}, 11.0))  # not a write
    assert _busiest_minute(fake) == 4  # 10, 59, 61 and 62


def test_the_busiest_second_counts_the_whole_bots_writes_to_every_chat() -> None:
    fake = FakeBotApi()
    for at, chat in ((5.0, -7), (5.2, 42), (5.9, -8), (6.1, -7), (9.0, 42)):
        fake.calls.append(Call("sendMessage", {"chat_id": chat, "text": "x"}, at))
    fake.calls.append(Call("answerCallbackQuery", {"chat_id": -7}, 5.5))  # not a write
    assert _busiest_second(fake) == 3  # 5.0 to 5.9, or 5.2 to 6.1


async def test_a_person_is_mid_turn_whenever_the_core_holds_the_table_back() -> None:
    """The scale run lets a person caught mid-turn end it before it waits for the tables,
    because the core edits a table only once its mover's turn has passed: in every game,
    each write the core holds the table back for leaves its mover mid-turn."""
    store = Store(fakeredis.FakeAsyncRedis(decode_responses=True))
    people = [user(1, "Anna"), user(2, "Boris")]
    seen: dict[bool, int] = {True: 0, False: 0}
    try:
        for n, (variant, computers) in enumerate(
            (("baghdad", 0), ("tyaga", 0), ("kozel", 1), ("three_guns", 1))
        ):
            chat = ChatRef("tg", str(-700 - n))
            table = make_table(store, chat, seed=n)
            await table.start_match(variant, people, computers=computers)
            rng = random.Random(n)
            for _ in range(150):
                runner = Runner(store, Tempo(0, 0, 3), time.time, "en")
                before = await runner.load(chat)
                await table.step(people, rng)
                after = await Runner(store, Tempo(0, 0, 3), time.time, "en").load(chat)
                if before is None or after is None or before.doc.id != after.doc.id:
                    break
                if after.version != before.version and before.state is not None:
                    held = _still_acting(before, after)
                    assert mid_turn(after) or not held, (variant, after.doc.moves[-3:])
                    seen[held] += 1
    finally:
        await store.close()
    assert seen[True] and seen[False]


async def test_a_table_is_compared_with_the_version_its_ended_game_ended_at() -> None:
    """Once a match has ended and no other is open, the table must show the match's last
    table, the version the store keeps with the chat's last game."""
    redis = fakeredis.FakeAsyncRedis(decode_responses=True)
    store = Store(redis)
    group = Group(FakeBotApi(), store, redis, -800, 0, Tally(), asyncio.Event())
    people = [user(1, "Anna"), user(2, "Boris")]
    try:
        table = make_table(store, group.chat)
        await table.start_match("tyaga", people, "target=10")
        await table.play_out(people, random.Random(8))
        last = await table.last_doc()
        assert last is not None
        slot = table_slot(group.chat, last.id)
        final = table.slots[slot.key].version  # the match's last table, as the core drew it
        assert await group.stored() == (last.id, final)
        assert not await group.table_shows_store()
        await redis.hset(keys.slot_messages(group.chat), slot.key, f"7:{final - 1}")
        assert not await group.table_shows_store()
        await redis.hset(keys.slot_messages(group.chat), slot.key, f"7:{final}")
        assert await group.table_shows_store()
    finally:
        await store.close()
