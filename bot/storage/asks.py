"""What people asked the bot to send on demand (a picture of the table, a scoreboard, the
rules): counted per person and per chat in the current minute, and the version of a
picture last sent to each person, so that a flood of requests neither costs a message
each nor reaches the chat."""

from __future__ import annotations

import redis.asyncio as aredis

from bot.model.contract import ChatRef, UserRef
from bot.storage import keys
from bot.storage.values import text

ASK_WINDOW = 60
"""Seconds over which a person's and a chat's lookups are counted."""

ASKED_TTL = 3600
"""How long the version of a picture sent to a person is remembered."""


class AskBook:
    def __init__(self, redis: aredis.Redis) -> None:
        self._redis = redis

    async def count(self, chat: ChatRef, user: UserRef) -> tuple[int, int]:
        """Count one more lookup by ``user`` in ``chat``: how many he and the chat have
        asked for in the current window, this one included. The counters live in Redis,
        so every process of the bot counts the same."""
        in_chat, of_user = keys.asks_in_chat(chat), keys.user_asks(user)
        async with self._redis.pipeline(transaction=False) as pipe:
            # The first request of a window starts the counter with its expiry (INCR keeps
            # it); Redis before 7 has no EXPIRE … NX to say "only if it has none".
            for key in (in_chat, of_user):
                pipe.set(key, 0, ex=ASK_WINDOW, nx=True)
                pipe.incr(key)
            _, chat_count, _, user_count = await pipe.execute()
        return int(user_count), int(chat_count)

    async def first_ask(self, chat: ChatRef, user: UserRef, what: str, version: str) -> bool:
        """Note that ``user`` is sent ``version`` of ``what``: ``False`` when he was sent
        that very version already (the new request is the same as the last)."""
        before: str | bytes | None = await self._redis.set(
            keys.asked(chat, user, what), version, ex=ASKED_TTL, get=True
        )  # type: ignore[assignment]  # SET … GET answers with the value it replaced
        return before is None or text(before) != version

    async def forget_ask(self, chat: ChatRef, user: UserRef, what: str) -> None:
        """``user`` was not sent the version of ``what`` last noted: asking again sends it."""
        await self._redis.delete(keys.asked(chat, user, what))
