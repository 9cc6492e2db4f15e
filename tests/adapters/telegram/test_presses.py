"""Presses on a real table: what a press changed reaches the chats whatever became of
its answer, nothing slow runs before the answer, and the presser's own hand is redrawn
before anything else."""

from __future__ import annotations

import asyncio
import contextlib
import random
from typing import Any

import pytest

from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.players import data_with, shown_version, table_slot
from tests.adapters.telegram.tables import (
    GROUP_ID,
    MY_TILES,
    WRITES,
    first_mover,
    started_table,
)

pytestmark = pytest.mark.slow

ANSWER_FAULTS = [
    (429, "Too Many Requests: retry after 3"),
    (403, "Forbidden: bot was kicked from the group chat"),
    (500, "Internal Server Error"),
]


@pytest.mark.parametrize(("status", "error"), ANSWER_FAULTS, ids=["429", "403", "500"])
async def test_a_move_whose_answer_telegram_refuses_still_updates_the_table(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser], status: int, error: str
) -> None:
    ann, bob = people["ann"], people["bob"]
    d = make_driver()
    game_id = await started_table(d, ann, "/newgame tyaga", bob)
    before = (await d.table(game_id))["text"]
    user, hand, move = await first_mover(d, game_id)
    fake.inject("answerCallbackQuery", status, error, retry_after=3 if status == 429 else None)
    fake.press(user, hand, move)
    await d.bot.drain()
    assert [c.status for c in fake.calls_to("answerCallbackQuery")][-1] == status
    game = await d.game()
    assert game is not None and len(game.doc.moves) == 1, "the core did not apply the move"
    assert await shown_version(d.redis, table_slot(d.chat, game_id)) == game.version
    assert (await d.table(game_id))["text"] != before, "the table never showed the move"


async def test_joining_looking_at_ones_tiles_and_moving_never_wait_for_an_admin_lookup(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob = people["ann"], people["bob"]
    d = make_driver()
    game_id = await started_table(d, ann, "/newgame tyaga", bob)
    table = await d.table(game_id)
    await d.press(bob, table, data_with(table, MY_TILES)[0])
    movers = set()
    for _ in range(4):
        user, hand, move = await first_mover(d, game_id)
        await d.press(user, hand, move)
        movers.add(user.id)
    assert bob.id in movers
    looked_up = {c.params["user_id"] for c in fake.calls_to("getChatMember")}
    assert bob.id not in looked_up, "a press of Bob's waited for Telegram to say who he is"
    assert looked_up == set(), "the host's Start names him, so nothing here needs to ask"


async def test_a_move_redraws_the_movers_own_hand_before_anything_else_is_sent(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob = people["ann"], people["bob"]
    cy = people["cy"]
    fake.started.add(cy.id)
    d = make_driver()
    game_id = await started_table(d, ann, "/newgame kozel", bob, cy)
    for _ in range(6):
        user, hand, move = await first_mover(d, game_id)
        shown = hand["text"]  # the message is edited in place
        first = len(fake.calls)
        await d.press(user, hand, move)
        sent = [c for c in fake.calls[first:] if c.method in WRITES]
        assert (sent[0].method, sent[0].chat_id) == ("editMessageText", user.id), [
            (c.method, c.chat_id) for c in sent
        ]
        assert sent[0].params["message_id"] == hand["message_id"]
        assert sent[0].params["text"] != shown, "the hand still shows the tile played"
        assert any(c.chat_id == GROUP_ID for c in sent[1:]), "the table did not follow"


async def test_a_turn_ping_never_goes_alone_when_people_play_briskly(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob, cy = people["ann"], people["bob"], people["cy"]
    fake.started.add(cy.id)
    d = make_driver()
    await started_table(d, ann, "/newgame kozel target=31", bob, cy)
    played = await d.play_match(random.Random(1))
    assert played.deals >= 1
    alone = [
        c.params["text"]
        for c in fake.calls_to("sendMessage")
        if c.chat_id in (ann.id, bob.id, cy.id) and c.params["text"].startswith("Your turn at")
    ]
    assert alone == [], "a ping went as a message of its own, beside its player's hand"


SLOW_ANSWER = 12.0  # seconds Telegram takes over answering the press


async def test_a_slow_answer_to_a_press_does_not_hold_back_its_screens(
    fake: FakeBotApi,
    make_driver: Any,
    people: dict[str, FakeUser],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Telegram answers the press only once the table is drawn (or after 12 s): the bot,
    which gives up on a call after 5 s, must have drawn it meanwhile."""
    ann, bob = people["ann"], people["bob"]
    d = make_driver()
    game_id = await started_table(d, ann, "/newgame tyaga", bob)
    user, hand, move = await first_mover(d, game_id)
    drawn, answering = asyncio.Event(), asyncio.Event()
    drawn_while_answering: list[str] = []

    async def slow(call: Any) -> None:
        if call.method in WRITES and answering.is_set() and call.chat_id == GROUP_ID:
            drawn_while_answering.append(call.method)
            drawn.set()
        if call.method == "answerCallbackQuery":
            answering.set()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(drawn.wait(), SLOW_ANSWER)

    fake.watchers["slow answer"] = slow
    fake.press(user, hand, move)
    await d.bot.drain(timeout=60.0)
    assert drawn_while_answering, "the table waited for the press's answer"
    gave_up = [r.getMessage() for r in caplog.records if "could not answer" in r.getMessage()]
    assert gave_up == [], "the table was drawn only once the bot gave up on the answer"
    game = await d.game()
    assert game is not None
    assert await shown_version(d.redis, table_slot(d.chat, game_id)) == game.version
