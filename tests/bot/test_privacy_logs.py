"""Logs name people and chats by their ids, never by their names: a whole match, with a
command that fails on a broken key on the way, is logged without a name."""

from __future__ import annotations

import logging
import random

import pytest
import redis.asyncio as aredis

from bot.model.contract import ChatRef, Command
from bot.storage import keys
from bot.storage.store import Store
from tests.bot.driver import make_table, user

ANNA, BORIS = user(1, "Anna Zyx"), user(2, "Boris Qwv")
GROUP = ChatRef("tg", "-100")


@pytest.mark.logs_exception
async def test_the_logs_of_a_whole_match_hold_ids_not_names(
    store: Store, redis_client: aredis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    table = make_table(store, GROUP)
    await table.start_match("kozel", [ANNA, BORIS], "target=11", computers=1)
    # A key of the wrong type (left by hand, or by another program on the same Redis)
    # makes one of Anna's commands fail with a traceback in the log.
    await redis_client.hset(keys.user_lang(ANNA), "x", "y")
    await table.send(Command(GROUP, ANNA, "scores", chat_title="Anna Zyx's table"))
    await redis_client.delete(keys.user_lang(ANNA))
    await table.play_out([ANNA, BORIS], random.Random(4))
    assert (await table.last_doc()).status == "finished"  # type: ignore[union-attr]
    failures = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert failures, "the broken key failed nothing"
    logged = caplog.text
    assert "tg:1" in failures[0].getMessage() and "tg:-100" in failures[0].getMessage()
    for name in ("Anna", "Zyx", "Boris", "Qwv"):
        assert name not in logged, name
