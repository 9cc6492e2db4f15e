"""Where each slot's message lives, kept in Redis so any process (and a restarted
one) edits the message a slot already has instead of sending another.

Per chat, one hash: a slot's key maps to the message shown for it, and a user's key
maps to the interaction token of his last ephemeral hand, which can edit that hand
for 15 minutes (Discord's token lifetime) and no longer.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Final, cast

import discord
import redis.asyncio as aredis
from redis.exceptions import LockError

from bot.model.contract import ChatRef, Slot, UserRef
from bot.storage import keys

log = logging.getLogger(__name__)

TOKEN_LIFETIME = 15 * 60
TOKEN_MARGIN = 60  # stop using a token a minute early: an edit must not race its expiry
KEEP_FOR = 30 * 86400  # a chat untouched this long forgets its messages


@dataclass(frozen=True, slots=True)
class PlacedMessage:
    """A channel message shown for a slot."""

    channel_id: int
    message_id: int


@dataclass(frozen=True, slots=True)
class HandToken:
    """What can edit a user's last ephemeral hand: the interaction's token, and the
    hand's message id when it is a follow-up (``None``: the interaction's original)."""

    application_id: int
    token: str
    issued: float
    message_id: int | None = None
    shown: int | None = None  # the id of the message the hand is on, when known


LOCK_TTL = 10.0  # seconds a crashed holder keeps a channel's edit lock
LOCK_WAIT = 5.0  # seconds to wait for it before editing all the same


class SlotMessages:
    """Message ids per slot and hand tokens per user, in one Redis hash per chat."""

    def __init__(self, redis: aredis.Redis, *, clock: Callable[[], float] = time.time) -> None:
        self._redis = redis
        self.clock = clock

    @contextlib.asynccontextmanager
    async def serialised(self, chat: ChatRef) -> AsyncIterator[None]:
        """Hold the chat's edit lock in Redis, so that across processes a version is
        claimed and shown before the next one is: without it, an older edit that one
        process claimed first could land after a newer one from another process. If the
        lock cannot be had in time (its holder hangs), the edit goes ahead unlocked."""
        lock = self._redis.lock(keys.edit_lock(chat), timeout=LOCK_TTL, sleep=0.01)
        held = False
        try:
            held = await lock.acquire(blocking_timeout=LOCK_WAIT)
        except LockError:
            held = False
        if not held:
            log.warning("editing %s without its lock", chat.key)
        try:
            yield
        finally:
            if held:
                with contextlib.suppress(LockError):
                    await lock.release()

    async def message(self, slot: Slot) -> PlacedMessage | None:
        raw = await self._redis.hget(keys.slot_messages(slot.chat), slot.key)
        if raw is None:
            return None
        data = json.loads(raw)
        return PlacedMessage(int(data["c"]), int(data["m"]))

    async def slot_holding(self, chat: ChatRef, message_id: int) -> str | None:
        """The key of the slot whose message in ``chat`` is ``message_id``, if any."""
        held = await self._redis.hgetall(keys.slot_messages(chat))
        for field, raw in held.items():
            if not str(field).startswith("~") and json.loads(raw)["m"] == str(message_id):
                return str(field)
        return None

    async def remember(self, slot: Slot, placed: PlacedMessage) -> None:
        value = json.dumps({"c": str(placed.channel_id), "m": str(placed.message_id)})
        await self._write(slot.chat, slot.key, value)

    async def forget(self, slot: Slot) -> None:
        await self._redis.hdel(keys.slot_messages(slot.chat), slot.key)

    async def hand_token(self, chat: ChatRef, user: UserRef) -> HandToken | None:
        """The user's last hand token in ``chat`` if it is still good for an edit."""
        raw = await self._redis.hget(keys.slot_messages(chat), _token_field(user))
        if raw is None:
            return None
        data = json.loads(raw)
        message_id = int(data["m"]) if data.get("m") else None
        shown = int(data["s"]) if data.get("s") else None
        token = HandToken(int(data["a"]), str(data["t"]), float(data["i"]), message_id, shown)
        if self.clock() - token.issued > TOKEN_LIFETIME - TOKEN_MARGIN:
            return None
        return token

    async def hand_is_stale(self, chat: ChatRef, user: UserRef) -> bool:
        """Whether the user's last hand in ``chat`` can no longer be edited: its token
        is too old (an ephemeral message has no other way in)."""
        raw = await self._redis.hget(keys.slot_messages(chat), _token_field(user))
        if raw is None:
            return False
        return self.clock() - float(json.loads(raw)["i"]) > TOKEN_LIFETIME - TOKEN_MARGIN

    async def remember_hand(self, chat: ChatRef, user: UserRef, token: HandToken) -> None:
        value = json.dumps(
            {
                "a": str(token.application_id),
                "t": token.token,
                "i": token.issued,
                "m": str(token.message_id or ""),
                "s": str(token.shown or ""),
            }
        )
        await self._write(chat, _token_field(user), value)
        await self._redis.hdel(keys.slot_messages(chat), _sign_field(user))

    async def forget_hand(self, chat: ChatRef, user: UserRef) -> None:
        await self._redis.hdel(keys.slot_messages(chat), _token_field(user), _sign_field(user))

    async def hand_signature(self, chat: ChatRef, user: UserRef) -> str | None:
        """The digest of what was last pushed to the user's hand (see ``Delivery``)."""
        raw = await self._redis.hget(keys.slot_messages(chat), _sign_field(user))
        return str(raw) if raw is not None else None

    async def remember_hand_signature(self, chat: ChatRef, user: UserRef, signature: str) -> None:
        await self._write(chat, _sign_field(user), signature)

    async def _write(self, chat: ChatRef, field: str, value: str) -> None:
        key = keys.slot_messages(chat)
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.hset(key, field, value)
            pipe.expire(key, KEEP_FOR)
            await pipe.execute()


def _sign_field(user: UserRef) -> str:
    return f"~handsig|{user.key}"


def _token_field(user: UserRef) -> str:
    # Slot keys contain "|", user keys never start with "~": the two cannot meet.
    return f"~hand|{user.key}"


def hand_signature_of(token: HandToken, payload: object, picture: bytes | None) -> str:
    """What a hand edit would show, through which token, as a short digest."""
    shown = json.dumps(payload, sort_keys=True, default=str).encode()
    digest = hashlib.sha256(shown + (picture or b""))
    digest.update(f"{token.token}|{token.message_id}".encode())
    return digest.hexdigest()


ORIGINAL: Final = "@original"  # an interaction's own response, in its webhook's routes


def hand_webhook(client: discord.Client, token: HandToken) -> discord.Webhook:
    """The webhook of the interaction that showed a hand. Its requests go through
    discord.py's webhook adapter, limited per token as Discord limits them, and never
    wait for the bot's global rate limit, which Discord does not apply to interactions:
    a hand is not held up by a channel's edits."""
    return discord.Webhook.partial(token.application_id, token.token, client=client)


def hand_message_id(token: HandToken) -> int:
    """The id of the hand's message for its webhook's routes: a follow-up's own id, or
    ``@original`` for the interaction's response, which Discord takes in its place."""
    if token.message_id is not None:
        return token.message_id
    return cast(int, ORIGINAL)
