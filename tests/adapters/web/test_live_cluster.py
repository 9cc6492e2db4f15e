"""The web table's pages kept live on a real Redis Cluster of three masters on loopback
(one cluster for the module): a game's write publishes its version on the chat's sharded
channel, in the chat's slot, for chats whose slots live on different masters."""

from __future__ import annotations

import asyncio
import uuid
from typing import cast

import redis.asyncio as aredis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.crc import key_slot

from adapters.web.local import PLATFORM
from bot.model.contract import ChatRef
from bot.storage import keys
from bot.storage.store import GameWrite, Store, connect
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
