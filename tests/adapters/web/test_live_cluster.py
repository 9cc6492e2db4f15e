"""The web table's pages kept live on a real Redis Cluster of three masters on loopback
(one cluster for the module): a game's write publishes its version on the chat's sharded
channel, in the chat's slot, and a worker's pages hear it there, for chats whose slots
live on different masters; the worker leaves a channel with its chat's last page, and
pages opening at once are not held up by its listening."""

from __future__ import annotations

import asyncio
import uuid
from typing import cast

import pytest
import redis.asyncio as aredis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.crc import key_slot

from adapters.web import frames
from adapters.web.local import PLATFORM
from bot.model import codec
from bot.model.contract import Answer, ChatRef, Press
from bot.storage import keys
from bot.storage.store import GameWrite, Store, connect
from engine import view
from tests.adapters.web.conftest import PERSON, tables_on, ticket, until_my_turn
from tests.adapters.web.test_live import state_at
from tests.bot.test_store_cluster import cluster_url  # noqa: F401  (one cluster a module)


def master_of(client: aredis.Redis, channel: str) -> ClusterNode:
    node = cast(RedisCluster, client).get_node_from_key(channel)
    assert node is not None
    return node


async def chats_apart(client: aredis.Redis) -> list[ChatRef]:
    """One new chat for each master of the cluster, its slot on that master."""
    cluster = cast(RedisCluster, client)
    await cluster.initialize()
    masters = {node.name for node in cluster.get_primaries()}
    found: dict[str, ChatRef] = {}
    while set(found) != masters:
        chat = ChatRef(PLATFORM, uuid.uuid4().hex)
        found.setdefault(master_of(client, keys.live(chat)).name, chat)
    return list(found.values())


async def test_a_games_write_is_heard_on_its_chats_sharded_channel_on_every_master(
    cluster_url: str,  # noqa: F811
) -> None:
    client = connect(cluster_url, cluster=True)
    store = Store(client)
    await store.tell_pages()
    listener = cast(RedisCluster, connect(cluster_url, cluster=True)).pubsub()
    try:
        chats = await chats_apart(client)
        for chat in chats:
            assert key_slot(keys.live(chat).encode()) == key_slot(keys.game(chat).encode())
            await listener.ssubscribe(keys.live(chat))
        for chat in chats:
            assert (await store.write_game(chat, GameWrite(0, "g1", "{}"))).ok
        heard: dict[str, str] = {}
        async with asyncio.timeout(10):
            while len(heard) < len(chats):
                message = await listener.get_sharded_message(True, timeout=1.0)
                if message is not None:
                    heard[message["channel"]] = message["data"]
        assert heard == {keys.live(chat): "1" for chat in chats}
    finally:
        await listener.aclose()
        await listener.cluster.aclose()
        await store.close()


async def chats_on_one_master(client: aredis.Redis, count: int) -> list[ChatRef]:
    """``count`` new chats whose slots are all on one master."""
    cluster = cast(RedisCluster, client)
    await cluster.initialize()
    master = cluster.get_primaries()[0].name
    found: list[ChatRef] = []
    while len(found) < count:
        chat = ChatRef(PLATFORM, uuid.uuid4().hex)
        if master_of(client, keys.live(chat)).name == master:
            found.append(chat)
    return found


async def listeners(client: aredis.Redis, channel: str) -> int:
    """How many connections listen to ``channel``, asked of the master of its slot."""
    node = master_of(client, channel)
    master = aredis.Redis(host=node.host, port=int(node.port))
    try:
        counted = await master.execute_command("PUBSUB", "SHARDNUMSUB", channel)
    finally:
        await master.aclose()
    return int(counted[1])


async def test_pages_on_a_cluster_hear_a_chats_press_for_chats_on_every_master(
    cluster_url: str,  # noqa: F811
    caplog: pytest.LogCaptureFixture,
) -> None:
    admin = connect(cluster_url, cluster=True)
    async with tables_on(cluster_url, cluster=True) as tables:
        worker = await tables.worker()
        chats = await chats_apart(admin)
        games, pages = [], []
        for chat in chats:
            await tables.open(worker, chat=chat)
            games.append(await until_my_turn(worker, chat))
            pages.append(await worker.page(frames.Hello(ticket=ticket(chat))))
            await state_at(pages[-1], games[-1].version)
        for chat, game in zip(chats, games, strict=True):
            assert game.state is not None
            move = view(game.state, 0).legal[0]
            payload = codec.move_payload(game.doc.id, game.state.counter, move)
            assert (await worker.sessions.handle(Press(chat, PERSON, payload)))[0] == Answer()
        for page, game in zip(pages, games, strict=True):
            assert (await state_at(page, game.version + 1)).version == game.version + 1
            await page.close()
        # Heard on the channels, not read again after a connection lost.
        assert [r.getMessage() for r in caplog.records if r.name == "adapters.web.live"] == []
        # The worker leaves each chat's channel with its last page.
        async with asyncio.timeout(5):
            while [await listeners(admin, keys.live(chat)) for chat in chats] != [0] * len(chats):
                await asyncio.sleep(0.05)
    await admin.aclose()


async def test_pages_of_chats_on_one_master_open_together_not_one_poll_after_another(
    cluster_url: str,  # noqa: F811
) -> None:
    # A chat's channel is subscribed on its master before the page is sent anything, and
    # waits there for the worker's poll under way on that master: pages opening at once
    # must not each wait for a whole poll (with one a second, six took five seconds).
    admin = connect(cluster_url, cluster=True)
    async with tables_on(cluster_url, cluster=True) as tables:
        worker = await tables.worker()
        chats = await chats_on_one_master(admin, 7)
        for chat in chats:
            await tables.open(worker, chat=chat)
        first = await worker.page(frames.Hello(ticket=ticket(chats[0])))
        await first.next()  # the worker now polls that master

        async def welcomed(chat: ChatRef) -> None:
            page = await worker.page(frames.Hello(ticket=ticket(chat)))
            assert isinstance(await page.next(), frames.Welcome)
            await page.close()

        async with asyncio.timeout(2.5):
            await asyncio.gather(*(welcomed(chat) for chat in chats[1:]))
        await first.close()
    await admin.aclose()
