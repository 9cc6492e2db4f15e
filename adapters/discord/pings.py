"""Discord's side of the turn ping (the policy is :mod:`adapters.pings`, the same as
Telegram's): a held mention in Redis, and the record of a mention sent, so that it is
deleted once its player has moved.

On Discord the table's "@X to move" line is the usual signal: an edit notifies nobody.
A mention in the channel is held back as :func:`adapters.pings.falls_due` says, dropped
when the player moves first, and deleted once he has moved when it was sent (the bot may
always delete its own messages). The one exception is Discord's: a ping whose player's
ephemeral hand can no longer be edited goes out at once (see :mod:`adapters.pings`).

A mention sent is recorded in the channel's ``msgs`` hash, under ``~ping|{slot key}``,
with the version it was drawn for; a move of its player replaces that record by the
move's version and deletes the mention. A mention claimed just before the move and sent
after it finds the move's version there instead, and is deleted at once: whichever
process sends it and whichever handles the move, it does not stay. Each record is
changed by a script that replaces it only if it is still what was read (else it is read
again), so the two cannot overwrite each other, on one server or a cluster. A move that
finds its player's ping still held and drops it needs no record: none was sent.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from typing import Any

import redis.asyncio as aredis

from adapters.discord.messages import KEEP_FOR, PlacedMessage
from adapters.pings import HeldPing, HeldPings, falls_due, outlived
from bot.model.contract import ChatRef, Mention, Screen, Show, Slot, SlotKind
from bot.storage import keys
from bot.storage.values import text

Record = dict[str, Any]  # {"c", "m", "v"}: a mention sent; {"moved": version}: a move

# KEYS: the chat's msgs hash. ARGV: the field, the value it was read with ("": none), the
# value to put in its place ("": none), the hash's time to live. 1 if it was still the
# value read, and is replaced; else 0.
_SWAP = """
if (redis.call('HGET', KEYS[1], ARGV[1]) or '') ~= ARGV[2] then return 0 end
if ARGV[3] == '' then
  redis.call('HDEL', KEYS[1], ARGV[1])
else
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
  redis.call('EXPIRE', KEYS[1], ARGV[4])
end
return 1
"""


class Pings:
    """Held-back mentions and the mentions sent, in Redis."""

    def __init__(self, redis: aredis.Redis, *, clock: Callable[[], float] = time.time) -> None:
        self._redis = redis
        self._held = HeldPings(redis, "dc")
        self._swap = redis.register_script(_SWAP)
        self.clock = clock

    async def hold(
        self, show: Show, chat: ChatRef, content: str, *, at_once: bool = False
    ) -> float:
        """Hold ``show`` (a ping for the game in ``chat``) until it falls due (with
        ``at_once``, at the next round); the moment it will. A ping already held for
        the same slot is replaced."""
        user = show.slot.user
        assert user is not None
        due = falls_due(show, self.clock(), at_once=at_once)
        held = HeldPing(chat, show.slot.key, user.user_id, content, show.version)
        await self._held.hold(held, due)
        return due

    async def drop(self, chat: ChatRef, slot: Slot) -> bool:
        """Forget the ping held for ``slot``, if any (its player has moved); whether one
        was: then none was claimed, and none of this turn can have been sent."""
        return await self._held.drop(chat, slot.key)

    async def claim_due(self) -> list[HeldPing]:
        """The held pings that fell due and that this process won (only one does)."""
        return await self._held.claim_due(self.clock())

    async def sent(self, held: HeldPing, placed: PlacedMessage) -> bool:
        """Record ``placed`` as the mention sent for ``held``; ``False`` (and nothing
        recorded) when its player has moved since it was drawn: it is to be deleted."""

        def too_late(record: Record | None) -> bool:
            return (
                record is not None
                and "moved" in record
                and outlived(held.version, int(record["moved"]))
            )

        def record(before: Record | None) -> Record | None:
            if too_late(before):
                return before
            return {"c": str(placed.channel_id), "m": str(placed.message_id), "v": held.version}

        return not too_late(await self._change(held.chat, held.slot, record))

    async def moved(self, chat: ChatRef, slot: Slot, version: int | None) -> PlacedMessage | None:
        """Note that ``slot``'s player made the move of ``version``: the mention sent for
        him before it, if any, is to be deleted (returned). Without a version, any
        mention sent is, and nothing is noted."""

        def record(before: Record | None) -> Record | None:
            if version is None:
                return None
            if before is not None and "m" in before and not outlived(int(before["v"]), version):
                return before  # a mention drawn after this move (a late deletion)
            return {"moved": version}

        before = await self._change(chat, slot.key, record)
        if before is None or "m" not in before:
            return None
        if version is not None and not outlived(int(before["v"]), version):
            return None
        return PlacedMessage(int(before["c"]), int(before["m"]))

    async def _change(
        self, chat: ChatRef, slot_key: str, change: Callable[[Record | None], Record | None]
    ) -> Record | None:
        """Replace the slot's record by ``change`` of it, read again and changed again
        should another write come between; the record it replaced."""
        key, field = keys.slot_messages(chat), f"~ping|{slot_key}"
        while True:
            raw = await self._redis.hget(key, field)
            found = text(raw) if raw is not None else ""
            before: Record | None = json.loads(found) if found else None
            after = change(before)
            if after == before:
                return before
            replaced = await self._swap(
                keys=[key], args=[field, found, json.dumps(after) if after else "", KEEP_FOR]
            )
            if replaced:
                return before


def addressed(show: Show) -> Screen:
    """The screen as shown in the channel. A ping was written for a private chat; in
    the game's channel it starts with a mention of the player, which notifies him."""
    user = show.slot.user
    if show.slot.kind is not SlotKind.PING or user is None:
        return show.screen
    mentioned = any(isinstance(s, Mention) and s.user.key == user.key for s in _segments(show))
    if mentioned:
        return show.screen
    first, *rest = show.screen.lines or ((),)
    return Screen(((Mention(user), " ", *first), *rest), show.screen.buttons)


def _segments(show: Show) -> Iterable[object]:
    return (segment for line in show.screen.lines for segment in line)
