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
changed in a transaction that watches the hash, so the two cannot overwrite each other.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from typing import Any

import redis.asyncio as aredis
from redis.exceptions import WatchError

from adapters.discord.messages import KEEP_FOR, PlacedMessage
from adapters.pings import HeldPing, HeldPings, falls_due, outlived
from bot.model.contract import ChatRef, Mention, Screen, Show, Slot, SlotKind
from bot.storage import keys

Record = dict[str, Any]  # {"c", "m", "v"}: a mention sent; {"moved": version}: a move


class Pings:
    """Held-back mentions and the mentions sent, in Redis."""

    def __init__(self, redis: aredis.Redis, *, clock: Callable[[], float] = time.time) -> None:
        self._redis = redis
        self._held = HeldPings(redis, "dc")
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

    async def drop(self, chat: ChatRef, slot: Slot) -> None:
        """Forget the ping held for ``slot``, if any (its player has moved)."""
        await self._held.drop(chat, slot.key)

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
        """Replace the slot's record by ``change`` of it, watching the hash so that no
        other write comes between; the record it replaced."""
        key, field = keys.slot_messages(chat), f"~ping|{slot_key}"
        async with self._redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    await pipe.watch(key)
                    raw = await pipe.hget(key, field)
                    before: Record | None = json.loads(raw) if raw is not None else None
                    after = change(before)
                    pipe.multi()
                    if after is None:
                        pipe.hdel(key, field)
                    else:
                        pipe.hset(key, field, json.dumps(after))
                        pipe.expire(key, KEEP_FOR)
                    await pipe.execute()
                    return before
                except WatchError:
                    continue


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
