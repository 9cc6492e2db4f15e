"""Turn pings held back, on every platform that holds pings back: for how long, and
where they wait meanwhile.

An edit of the table notifies nobody, so the player to move is pinged; but most
players move within moments of their turn coming, and a ping sent then (and deleted
after the move, where the platform deletes it) only costs messages. A ping is
therefore held back, and dropped if the player moves meanwhile: for half the time
left on his turn when it has a deadline, else for the platform's own wait, and never
longer than the platform allows.

Held pings wait in Redis, so that whichever process handles the player's move drops
his ping, and whichever runs the next timer round sends one that fell due: a process
that stops takes none along. Each platform's pings are spread over
:data:`bot.keys.PING_BUCKETS` sorted sets scored by the moment each falls due (a
chat's always in the same one, so no one key is hot on a cluster); the chat's own
message hash names the member of each of its slots' pings, so a drop needs nothing
but the chat and the slot. Taking a due ping out of its set is the claim: only one
process wins it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Final

import redis.asyncio as aredis

from bot import keys
from bot.contract import ChatRef, Deadline, Show
from bot.store_types import text

BATCH: Final = 50  # pings claimed from each set per round


def turn_deadline(show: Show) -> float | None:
    """When the turn a ping is about runs out (the screen's deadline), if it does."""
    for line in show.screen.lines:
        for segment in line:
            if isinstance(segment, Deadline):
                return segment.at
    return None


def hold_for(show: Show, now: float, *, no_timer: float, longest: float | None = None) -> float:
    """Seconds from ``now`` to hold ``show`` (a turn ping) back: half the time left on
    the turn, or ``no_timer`` for a turn without a deadline; at most ``longest``."""
    deadline = turn_deadline(show)
    wait = (deadline - now) / 2 if deadline is not None else no_timer
    if longest is not None:
        wait = min(wait, longest)
    return max(wait, 0.0)


@dataclass(frozen=True, slots=True)
class HeldPing:
    """A ping waiting in Redis: the chat whose hash names it, the ping's slot, whom it
    names, and what the platform sends when it falls due."""

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


PutOff = Callable[[HeldPing], Awaitable[float | None]]
"""Asked of each ping claimed: a later moment to hold it until instead, or ``None``."""


class HeldPings:
    """One platform's held-back pings in Redis (see the module's text)."""

    def __init__(
        self, redis: aredis.Redis, platform: str, *, also_claim: Sequence[str] = ()
    ) -> None:
        self._redis = redis
        self._platform = platform
        self._also_claim = tuple(also_claim)  # sets of earlier versions: claimed, never written

    async def hold(self, held: HeldPing, due: float) -> None:
        """Hold ``held`` until ``due``; a ping held for the same slot is replaced."""
        await self.drop(held.chat, held.slot)
        await self._put(held, due)

    async def drop(self, chat: ChatRef, slot_key: str) -> None:
        """Forget the ping held for the slot, if any (its player has moved)."""
        field = _ping_field(slot_key)
        member = await self._redis.hget(keys.slot_messages(chat), field)
        if member is None:
            return
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.zrem(self._bucket(chat), member)
            for legacy in self._also_claim:
                pipe.zrem(legacy, member)
            pipe.hdel(keys.slot_messages(chat), field)
            await pipe.execute()

    async def claim_due(self, now: float, put_off: PutOff | None = None) -> list[HeldPing]:
        """The held pings due by ``now`` that this process won (only one does); one that
        ``put_off`` names a later moment for is held until then instead."""
        buckets = [keys.held_pings(self._platform, b) for b in range(keys.PING_BUCKETS)]
        buckets.extend(self._also_claim)
        pages = await asyncio.gather(
            *(self._redis.zrangebyscore(bucket, "-inf", now, 0, BATCH) for bucket in buckets)
        )
        due = [(b, str(m)) for b, page in zip(buckets, pages, strict=True) for m in page]
        claimed: list[HeldPing] = []
        for bucket, member in due:
            if not await self._redis.zrem(bucket, member):
                continue  # another process took it
            held = HeldPing.from_member(member)
            later = await put_off(held) if put_off is not None else None
            if later is not None:
                await self._put(held, later)
                continue
            await self._forget_member(held, member)
            claimed.append(held)
        return claimed

    def _bucket(self, chat: ChatRef) -> str:
        return keys.held_pings(self._platform, keys.ping_bucket(chat))

    async def _put(self, held: HeldPing, due: float) -> None:
        member = held.member(due)
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.zadd(self._bucket(held.chat), {member: due})
            pipe.hset(keys.slot_messages(held.chat), _ping_field(held.slot), member)
            await pipe.execute()

    async def _forget_member(self, held: HeldPing, member: str) -> None:
        field = _ping_field(held.slot)
        named = await self._redis.hget(keys.slot_messages(held.chat), field)
        if named is not None and text(named) == member:
            await self._redis.hdel(keys.slot_messages(held.chat), field)


def _ping_field(slot_key: str) -> str:
    # Slot keys never start with "~": these fields cannot meet a slot's own.
    return f"~ping|{slot_key}"
