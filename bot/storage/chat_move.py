"""Moving a chat's keys to another chat id, for a Telegram group that became a supergroup
and so changed its id: the game, the last game, scoreboards and settings follow it, and so
does a pending turn deadline.

Keys are copied with DUMP and RESTORE (with what is left of their expiry), which works
across cluster slots, and the old key is deleted only after its copy exists. A key the new
chat already has is kept as it is. A move cut short by a lost connection completes when
it is run again.
"""

from __future__ import annotations

import redis.asyncio as aredis
import redis.exceptions

from bot.model.contract import ChatRef
from bot.storage import keys
from bot.storage.values import text


async def move_chat_keys(client: aredis.Redis, old: ChatRef, new: ChatRef) -> int:
    """Copy every key of ``old`` to ``new`` and delete it; the number of keys moved."""
    moved = 0
    async for raw_key in client.scan_iter(match=keys.chat_pattern(old), count=200):
        key = text(raw_key)
        if await _copy(client, key, keys.rename_chat_key(key, old, new)):
            moved += 1
        await client.delete(key)
    return moved


async def _copy(client: aredis.Redis, source: str, target: str) -> bool:
    # Not pipelined: redis-py keeps DUMP's binary reply undecoded only outside a pipeline.
    payload = await client.dump(source)
    ttl = await client.pttl(source)
    if payload is None or ttl == -2:  # expired meanwhile
        return False
    try:
        await client.restore(target, max(int(ttl), 0), payload)
    except redis.exceptions.ResponseError as exc:
        if "BUSYKEY" not in str(exc):
            raise
        return False
    return True
