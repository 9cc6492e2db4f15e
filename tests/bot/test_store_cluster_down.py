"""A Redis Cluster none of whose nodes answers: the cluster client says so with a
``RedisClusterException`` ("cannot be connected"), which is no ``RedisError``; the store
reports it as unavailable like any lost connection, and a press is answered that the table
is unavailable instead of failing."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app.failures import plain_failure
from bot.model.contract import Answer, ChatRef
from bot.storage.store import Store, StoreUnavailable, connect
from tests.bot.driver import make_table, move_buttons, user
from tests.bot.test_store_cluster import running_cluster
from tests.bot.test_store_unavailable import CALLS

ANNA, BORIS = user(1, "Anna"), user(2, "Boris")
CHAT = ChatRef("tg", "-100535353")


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
async def unreachable_cluster() -> AsyncIterator[Store]:
    """A store for a cluster whose one known node refuses every connection."""
    store = Store(connect(f"redis://127.0.0.1:{_closed_port()}/0", timeout=1.0, cluster=True))
    try:
        yield store
    finally:
        await store.close()


@pytest.mark.parametrize("name", sorted(CALLS))
async def test_every_call_to_a_cluster_that_cannot_be_reached_raises_store_unavailable(
    unreachable_cluster: Store, name: str
) -> None:
    with pytest.raises(StoreUnavailable, match="cannot be connected"):
        await CALLS[name](unreachable_cluster)


async def test_an_unreachable_cluster_is_told_as_a_redis_that_does_not_answer(
    unreachable_cluster: Store,
) -> None:
    with pytest.raises(StoreUnavailable) as raised:
        await unreachable_cluster.ping()
    cause = raised.value.__cause__
    assert cause is not None
    said = plain_failure(cause, "the cluster")
    assert said is not None and said.startswith("Redis at the cluster does not answer")


async def test_a_press_while_every_node_of_the_cluster_is_down_is_told_the_table_is_unavailable(
    tmp_path: Path,
) -> None:
    with running_cluster(tmp_path) as (url, servers):
        store = Store(connect(url, timeout=1.0, cluster=True))
        try:
            table = make_table(store, CHAT)
            await table.start_match("tyaga", [ANNA, BORIS], "target=30")
            person = ANNA if move_buttons(table.hand(ANNA)) else BORIS
            buttons = move_buttons(table.hand(person))
            assert buttons
            for server in servers.values():
                server.terminate()
                server.wait()
            for _ in range(3):  # the first loses its connection, the next find no node
                out = await table.press(person, buttons[0].payload)
                assert isinstance(out[0], Answer)
                assert "unavailable" in out[0].text
        finally:
            await store.close()
