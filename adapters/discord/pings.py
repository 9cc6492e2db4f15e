"""Turn pings that respect people.

On Discord the table's "@X to move" line is the usual signal: an edit notifies
nobody, and a player who is watching the table needs nothing more. A mention in
the channel is held back and sent only when the turn has waited:

- half the turn timer (or :data:`NO_TIMER_WAIT` when the table has no timer), or
- at once on the player's first turn of a deal when he has not acted for
  :data:`LONG_WAIT` (he may have wandered off between deals);
- never within :data:`QUIET_AFTER_ACTION` of his last press or command in the
  channel: it waits until that minute is over;
- when he moves before it falls due, it is dropped; once sent it is never
  deleted (a deleted mention leaves a notification that points at nothing).

Held-back pings live in Redis (sorted sets by due time, a channel's always in the same
one of :data:`bot.keys.PING_BUCKETS`, so no one key is hot on a cluster; each chat's
message hash names its pings' members, and each user's last action), so whichever
process runs the next timer round sends them, and a restart loses none.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import redis.asyncio as aredis

from adapters.pings import hold_for
from bot import keys
from bot.contract import ChatRef, Show, Slot, UserRef

QUIET_AFTER_ACTION: Final = 60.0  # seconds after a player's last action with no ping
LONG_WAIT: Final = 180.0  # idle this long, a first turn of a deal pings at once
NO_TIMER_WAIT: Final = 180.0  # a turn with no timer pings after this long
BATCH: Final = 50  # pings claimed per round


@dataclass(frozen=True, slots=True)
class HeldPing:
    """A ping waiting in Redis: the channel's chat, the ping's slot, whom it names
    and the text to send."""

    chat: ChatRef
    slot: str
    user_id: str
    content: str

    def member(self, nonce: float) -> str:
        body = {"c": self.chat.key, "s": self.slot, "u": self.user_id, "x": self.content}
        return json.dumps({**body, "n": nonce}, sort_keys=True)

    @classmethod
    def from_member(cls, member: str) -> HeldPing:
        data = json.loads(member)
        return cls(ChatRef.from_key(data["c"]), data["s"], data["u"], data["x"])


class Pings:
    """Held-back pings and players' last actions, in Redis."""

    def __init__(self, redis: aredis.Redis, *, clock: Callable[[], float] = time.time) -> None:
        self._redis = redis
        self.clock = clock

    async def hold(self, show: Show, chat: ChatRef, content: str) -> float:
        """Hold ``show`` (a ping for the game in ``chat``) until it falls due; the
        moment it will. A ping already held for the same slot is replaced."""
        user = show.slot.user
        assert user is not None
        now = self.clock()
        wait = hold_for(show, now, no_timer=NO_TIMER_WAIT)
        if show.first_turn and now - await self.last_action(chat, user) >= LONG_WAIT:
            wait = 0.0
        await self.drop(chat, show.slot)
        held = HeldPing(chat, show.slot.key, user.user_id, content)
        await self._put(held, now + max(wait, 0.0))
        return now + max(wait, 0.0)

    async def drop(self, chat: ChatRef, slot: Slot) -> None:
        """Forget the ping held for ``slot``, if any (its player has moved)."""
        field = _ping_field(slot.key)
        member = await self._redis.hget(keys.slot_messages(chat), field)
        if member is None:
            return
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.zrem(keys.discord_pings(keys.discord_ping_bucket(chat)), member)
            pipe.zrem(keys.LEGACY_DISCORD_PINGS, member)
            pipe.hdel(keys.slot_messages(chat), field)
            await pipe.execute()

    async def claim_due(self) -> list[HeldPing]:
        """The held pings that fell due and that this process won (only one does);
        a player who acted within the last minute has his put off instead."""
        now = self.clock()
        buckets = [keys.discord_pings(b) for b in range(keys.PING_BUCKETS)]
        buckets.append(keys.LEGACY_DISCORD_PINGS)
        pages = await asyncio.gather(
            *(self._redis.zrangebyscore(bucket, "-inf", now, 0, BATCH) for bucket in buckets)
        )
        due = [(b, str(m)) for b, page in zip(buckets, pages, strict=True) for m in page]
        claimed: list[HeldPing] = []
        for bucket, member in due:
            if not await self._redis.zrem(bucket, member):
                continue  # another process took it
            held = HeldPing.from_member(member)
            quiet_until = await self.last_action(held.chat, held.user_id) + QUIET_AFTER_ACTION
            if quiet_until > now:
                await self._put(held, quiet_until)
                continue
            await self._forget_member(held, member)
            claimed.append(held)
        return claimed

    async def acted(self, chat: ChatRef, user: UserRef) -> None:
        """Note that ``user`` just pressed or typed something in ``chat``."""
        await self._redis.hset(keys.slot_messages(chat), _acted_field(user.user_id), self.clock())

    async def last_action(self, chat: ChatRef, user: UserRef | str) -> float:
        """When ``user`` last acted in ``chat`` (0 if never, as far as Redis knows)."""
        user_id = user if isinstance(user, str) else user.user_id
        raw = await self._redis.hget(keys.slot_messages(chat), _acted_field(user_id))
        return float(raw) if raw is not None else 0.0

    async def _put(self, held: HeldPing, due: float) -> None:
        member = held.member(due)
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.zadd(keys.discord_pings(keys.discord_ping_bucket(held.chat)), {member: due})
            pipe.hset(keys.slot_messages(held.chat), _ping_field(held.slot), member)
            await pipe.execute()

    async def _forget_member(self, held: HeldPing, member: str) -> None:
        field = _ping_field(held.slot)
        if await self._redis.hget(keys.slot_messages(held.chat), field) == member:
            await self._redis.hdel(keys.slot_messages(held.chat), field)


def _ping_field(slot_key: str) -> str:
    # Slot keys never start with "~": these fields cannot meet a slot's own.
    return f"~ping|{slot_key}"


def _acted_field(user_id: str) -> str:
    return f"~acted|dc:{user_id}"
