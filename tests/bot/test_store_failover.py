"""A Redis Cluster of three masters with a replica each, on loopback: the master that holds
a chat's game is stopped mid-match, its replica takes over, and the match goes on. Presses
made meanwhile get the unavailable answer; nothing is half written."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from redis.crc import key_slot

from bot.model.contract import Answer, ChatRef
from bot.model.game_state import build_state
from bot.storage import keys
from bot.storage.store import Store, connect
from tests.bot.driver import make_table, move_buttons, user
from tests.bot.test_store_cluster import Servers, running_cluster

ANNA, BORIS = user(1, "Anna"), user(2, "Boris")
CHAT = ChatRef("tg", "-100424242")


@pytest.fixture
def failover_cluster(tmp_path: Path) -> Iterator[tuple[str, Servers]]:
    with running_cluster(tmp_path, replicas=True) as running:
        yield running


def _passed_on(master_port: int) -> bool:
    """Every write the master took has reached its replica. Redis replicates after it
    answers: a write not passed on yet is lost when the replica takes over, which is
    Redis Cluster's own trade-off and not what this test is about."""
    client = redis.Redis("127.0.0.1", master_port, socket_timeout=5)
    try:
        info = client.info("replication")
    finally:
        client.close()
    replicas = [v for k, v in info.items() if k.startswith("slave") and isinstance(v, dict)]
    return bool(replicas) and all(
        r.get("state") == "online" and int(r.get("offset", -1)) >= info["master_repl_offset"]
        for r in replicas
    )


def _master_of(url_port: int, slot: int) -> int:
    client = redis.Redis("127.0.0.1", url_port, socket_timeout=5)
    try:
        for first, last, master, *_replicas in client.execute_command("CLUSTER", "SLOTS"):
            if first <= slot <= last:
                return int(master[1])
    finally:
        client.close()
    raise AssertionError(f"no master holds slot {slot}")


async def test_a_match_goes_on_when_the_master_of_its_chat_fails_over(
    failover_cluster: tuple[str, Servers],
) -> None:
    url, servers = failover_cluster
    store = Store(connect(url, timeout=1.0, cluster=True))
    try:
        table = make_table(store, CHAT)
        await table.start_match("tyaga", [ANNA, BORIS], "target=30")
        rng = random.Random(3)
        for _ in range(10):
            await table.step([ANNA, BORIS], rng)
        doc = await table.doc()
        assert doc is not None and doc.moves
        master = _master_of(
            int(url.rsplit(":", 1)[1].split("/")[0]), key_slot(keys.game(CHAT).encode())
        )
        deadline = time.monotonic() + 30
        while not _passed_on(master):
            assert time.monotonic() < deadline, "the replica never caught up"
            await asyncio.sleep(0.1)
        servers[master].terminate()
        servers[master].wait()

        answers: list[Answer] = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            person = ANNA if move_buttons(table.hand(ANNA)) else BORIS
            buttons = move_buttons(table.hand(person))
            if not buttons:
                break
            out = await table.press(person, buttons[0].payload)
            answers.append(out[0])  # type: ignore[arg-type]
            if isinstance(out[0], Answer) and "unavailable" not in out[0].text:
                break
            await asyncio.sleep(0.5)
        assert any("unavailable" in a.text for a in answers), "the failover went unnoticed"
        assert "unavailable" not in answers[-1].text, "play never came back"

        await table.play_out([ANNA, BORIS], rng)
        last = await table.last_doc()
        assert last is not None and last.status == "finished"
        assert build_state(last).match_over  # every stored move replays: none half written
        board = await store.scoreboard(CHAT, "tyaga")
        assert sorted(r.played for r in board.rows) == [1, 1]
    finally:
        await store.close()
