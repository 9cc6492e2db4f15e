"""Each player's last ephemeral hand, kept in Redis so any process (and a restarted
one) can edit it: Discord lets an ephemeral message be edited only through the
interaction token that showed it, for 15 minutes (the token's lifetime) and no longer.

The token, and a digest of what was last pushed to the hand, live beside the channel's
slot book in its hash (``dom:{chat}:msgs``), under fields of their own (``~hand|user``,
``~handsig|user``); which message shows each channel slot is the slot book's
(:mod:`adapters.delivery.slots`).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, cast

import discord
import redis.asyncio as aredis

from bot.model.contract import ChatRef, UserRef
from bot.storage import keys

TOKEN_LIFETIME = 15 * 60
TOKEN_MARGIN = 60  # stop using a token a minute early: an edit must not race its expiry
KEEP_FOR = 30 * 86400  # a chat untouched this long forgets its messages


@dataclass(frozen=True, slots=True)
class PlacedMessage:
    """A channel message the bot sent (a ping)."""

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


class HandTokens:
    """Hand tokens and hand digests per user, in the chat's hash."""

    def __init__(self, redis: aredis.Redis, *, clock: Callable[[], float] = time.time) -> None:
        self._redis = redis
        self.clock = clock

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
    # A slot's key starts with its kind, never with "~": the two cannot meet.
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
