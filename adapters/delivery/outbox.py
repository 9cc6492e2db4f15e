"""One-off messages (responses to commands, notices, files) queued and not yet sent, kept
in Redis so that a killed process does not take them along.

Each is noted in its chat's hash (:func:`bot.storage.keys.outbox`) under an entry named
``<process>.<number>``, the process that queued it and its place in that process's order,
and struck off once sent (or given up on): as soon as the platform has taken it, before
anything else is done for it (the tidying of an older response waits on the chat's
budget, and a process killed meanwhile would leave it to be sent again). The chat goes
into the index of chats to look at (:mod:`.pending`). Looking at the chat
(:mod:`.catchup`), a process takes over the entries of a process that is gone
(:mod:`.liveness`) — a script moves each to it, so only one process gets it — and sends
them in the order they were queued. Only a message whose process was killed between
the platform's answer and that one write is sent again: a message sent twice is the lesser
harm than one never sent.

A message is written as data, never as code: ``<time>|<JSON>``, the message of
:mod:`bot.model.contract` inside an envelope that names its kind (``notice``, ``response``,
``document``, ``show``), written and read by pydantic models over the contract's own
dataclasses (:class:`Queued`): strict types, no field the contract does not have, bytes
(pictures, files) in base 64. An entry that does not validate is not sent: it is logged
in one line and moved aside, whole, to the chat's set-aside hash
(:func:`bot.storage.keys.outbox_aside`) for a person to look at. A held turn ping is kept the same
way (see :mod:`adapters.pings`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from adapters.delivery.liveness import ALIVE_SECONDS, Liveness
from adapters.delivery.pending import GRACE_SECONDS, INDEX_SECONDS
from bot.model.contract import ChatRef, Document, Notice, Response, Show
from bot.storage import keys
from bot.storage.deal_snapshot import one_line
from bot.storage.store import SET_ASIDE_TTL
from bot.storage.values import text

log = logging.getLogger(__name__)

Once = Notice | Response | Document
Message = Show | Notice | Response | Document  # what is kept in Redis as text
KEEP_SECONDS = 3600.0  # a message queued longer than this is not worth sending late
RECHECK_SECONDS = ALIVE_SECONDS + 1.0  # another process's entries: look again when it may be gone


@dataclass(frozen=True, slots=True)
class Entry:
    """A message queued by a process, under its name in the chat's hash."""

    name: str
    at: float  # wall-clock seconds when it was queued
    message: Once


@dataclass(frozen=True, slots=True)
class Taken:
    """What looking at a chat's outbox found: the entries taken over, in the order they
    were queued, and when to look again (``None``: nothing left waiting)."""

    entries: tuple[Entry, ...]
    look_again: float | None


class _Envelope(BaseModel):
    model_config = ConfigDict(
        strict=True, frozen=True, extra="forbid", ser_json_bytes="base64", val_json_bytes="base64"
    )


class _Notice(_Envelope):
    kind: Literal["notice"] = "notice"
    message: Notice


class _Response(_Envelope):
    kind: Literal["response"] = "response"
    message: Response


class _Document(_Envelope):
    kind: Literal["document"] = "document"
    message: Document


class _Show(_Envelope):
    kind: Literal["show"] = "show"
    message: Show


Queued = Annotated[_Notice | _Response | _Document | _Show, Field(discriminator="kind")]
_QUEUED: TypeAdapter[Queued] = TypeAdapter(Queued)
_ENVELOPES: dict[type, type[_Envelope]] = {
    Notice: _Notice,
    Response: _Response,
    Document: _Document,
    Show: _Show,
}


class Unreadable(ValueError):
    """A stored message that does not validate; its text is one line."""


def encode(message: Message) -> str:
    """A message of :mod:`bot.model.contract` as JSON text in its envelope."""
    envelope = _ENVELOPES[type(message)]
    return envelope.model_validate({"message": message}).model_dump_json()


def decode(data: str) -> Message:
    """The message :func:`encode` wrote; raises :class:`Unreadable` for anything else."""
    try:
        return _QUEUED.validate_json(data).message
    except ValidationError as err:
        raise Unreadable(one_line(err)) from None


def dump(message: Once, at: float) -> str:
    """``at|JSON``."""
    return f"{at!r}|" + encode(message)


def load(name: str, value: str) -> Entry:
    at, _, data = value.partition("|")
    message = decode(data)
    if not isinstance(message, Once):
        raise Unreadable(f"not a one-off message: {type(message).__name__}")
    try:
        return Entry(name, float(at), message)
    except ValueError:
        raise Unreadable(f"no time it was queued: {at[:40]!r}") from None


def process_of(name: str) -> str:
    return name.partition(".")[0]


# KEYS[1]: the chat's outbox. ARGV: this process, then the processes gone. Moves every
# entry of a process gone to ``<this process>.<its name>`` and returns those, name and value.
_TAKE = """
local gone = {}
for i = 2, #ARGV do gone[ARGV[i]] = true end
local taken = {}
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  local name, value = all[i], all[i + 1]
  if gone[string.match(name, '^([^.]*)')] then
    local mine = ARGV[1] .. '.' .. name
    redis.call('HDEL', KEYS[1], name)
    redis.call('HSET', KEYS[1], mine, value)
    taken[#taken + 1] = mine
    taken[#taken + 1] = value
  end
end
return taken
"""


class RedisOutbox:
    """The one-off messages of one platform's chats in Redis, noted by ``liveness.me``."""

    def __init__(
        self,
        redis: Any,
        platform: str,
        liveness: Liveness,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self._redis = redis
        self._liveness = liveness
        self._wall = wall
        self._index = keys.tables_to_check(platform)
        self._take = redis.register_script(_TAKE)

    async def _set_aside(self, chat: ChatRef, unreadable: dict[str, str]) -> None:
        """Move entries that cannot be read out of the chat's outbox, kept whole."""
        key, aside = keys.outbox(chat), keys.outbox_aside(chat)
        async with self._redis.pipeline(transaction=False) as pipe:  # one slot: the chat's
            pipe.hset(aside, mapping=unreadable)
            pipe.expire(aside, SET_ASIDE_TTL)
            pipe.hdel(key, *unreadable)
            await pipe.execute()

    def name(self, number: int) -> str:
        """This process's name for its ``number``-th message."""
        return f"{self._liveness.me}.{number:012d}"

    async def note(self, chat: ChatRef, entries: Sequence[tuple[str, Once]]) -> None:
        """The messages are queued for ``chat`` (a chat, without a topic)."""
        if not entries:
            return
        now = self._wall()
        key = keys.outbox(chat)
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.hset(key, mapping={name: dump(message, now) for name, message in entries})
            pipe.expire(key, int(KEEP_SECONDS))
            pipe.zadd(self._index, {chat.key: now + GRACE_SECONDS}, lt=True)
            pipe.expire(self._index, INDEX_SECONDS)
            await pipe.execute()

    async def strike_off(self, chat: ChatRef, name: str) -> None:
        """The message was sent, or given up on."""
        await self._redis.hdel(keys.outbox(chat), name)

    async def take_over(self, chat: ChatRef) -> Taken:
        """Take the chat's messages queued by processes that are gone."""
        chat = ChatRef(chat.platform, chat.chat_id)
        key = keys.outbox(chat)
        names = [text(name) for name in await self._redis.hkeys(key)]
        others = {process_of(name) for name in names} - {self._liveness.me}
        gone = [process for process in sorted(others) if await self._liveness.gone(process)]
        raw = await self._take(keys=[key], args=[self._liveness.me, *gone]) if gone else []
        entries: list[Entry] = []
        dropped: list[str] = []
        unreadable: dict[str, str] = {}
        now = self._wall()
        for name, value in zip(raw[::2], raw[1::2], strict=True):
            try:
                entry = load(text(name), text(value))
            except Unreadable as err:
                unreadable[text(name)] = text(value)
                log.error(
                    "the queued message %s of %s cannot be read (%s); set aside under %s",
                    text(name),
                    key,
                    err,
                    keys.outbox_aside(chat),
                )
                continue
            if entry.at < now - KEEP_SECONDS:
                dropped.append(entry.name)
            else:
                entries.append(entry)
        if unreadable:
            await self._set_aside(chat, unreadable)
        if dropped:
            await self._redis.hdel(key, *dropped)
        entries.sort(key=lambda entry: (entry.at, entry.name))
        left = len(names) - len(raw) // 2
        if others - set(gone):
            look_again: float | None = RECHECK_SECONDS
        else:
            look_again = GRACE_SECONDS if left or entries else None
        return Taken(tuple(entries), look_again)
