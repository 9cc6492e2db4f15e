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

Held-back pings live in Redis (:class:`adapters.pings.HeldPings`, the channel's hash
also keeping each user's last action), so whichever process runs the next timer round
sends them, and a restart loses none.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Final

import redis.asyncio as aredis

from adapters.pings import HeldPing, HeldPings, hold_for
from bot.model.contract import ChatRef, Mention, Screen, Show, Slot, SlotKind, UserRef
from bot.storage import keys

QUIET_AFTER_ACTION: Final = 60.0  # seconds after a player's last action with no ping
LONG_WAIT: Final = 180.0  # idle this long, a first turn of a deal pings at once
NO_TIMER_WAIT: Final = 180.0  # a turn with no timer pings after this long


class Pings:
    """Held-back pings and players' last actions, in Redis."""

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
        now = self.clock()
        wait = hold_for(show, now, no_timer=NO_TIMER_WAIT)
        if show.first_turn and now - await self.last_action(chat, user) >= LONG_WAIT:
            wait = 0.0
        if at_once:
            wait = 0.0
        await self._held.hold(HeldPing(chat, show.slot.key, user.user_id, content), now + wait)
        return now + wait

    async def drop(self, chat: ChatRef, slot: Slot) -> None:
        """Forget the ping held for ``slot``, if any (its player has moved)."""
        await self._held.drop(chat, slot.key)

    async def claim_due(self) -> list[HeldPing]:
        """The held pings that fell due and that this process won (only one does);
        a player who acted within the last minute has his put off instead."""
        now = self.clock()

        async def quiet_until(held: HeldPing) -> float | None:
            until = await self.last_action(held.chat, held.user_id) + QUIET_AFTER_ACTION
            return until if until > now else None

        return await self._held.claim_due(now, quiet_until)

    async def acted(self, chat: ChatRef, user: UserRef) -> None:
        """Note that ``user`` just pressed or typed something in ``chat``."""
        await self._redis.hset(keys.slot_messages(chat), _acted_field(user.user_id), self.clock())

    async def last_action(self, chat: ChatRef, user: UserRef | str) -> float:
        """When ``user`` last acted in ``chat`` (0 if never, as far as Redis knows)."""
        user_id = user if isinstance(user, str) else user.user_id
        raw = await self._redis.hget(keys.slot_messages(chat), _acted_field(user_id))
        return float(raw) if raw is not None else 0.0


def _acted_field(user_id: str) -> str:
    return f"~acted|dc:{user_id}"


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
