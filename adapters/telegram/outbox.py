"""One-off messages (responses to commands, notices, files) queued and not yet sent, kept
in Redis so that a killed process does not take them along.

Each is noted in its Telegram chat's hash (:func:`bot.keys.outbox`) under an entry named
``<process>.<number>``, the process that queued it and its place in that process's order,
and struck off once sent (or given up on): as soon as Telegram has taken it, before
anything else is done for it (the tidying of an older response waits on the chat's
budget, and a process killed meanwhile would leave it to be sent again). The chat goes
into the index of chats to look at (:mod:`.pending`). Looking at the chat
(:mod:`.catchup`), a process takes over the entries of a process that is gone
(:mod:`.liveness`) — a script moves each to it, so only one process gets it — and sends
them in the order they were queued. Only a message whose process was killed between
Telegram's answer and that one write is sent again: a message sent twice is the lesser
harm than one never sent.

A message is written with :mod:`pickle` rather than a JSON form of our own: a screen is
lines of several kinds of segments, rows of buttons, perhaps a card and a picture, and a
hand-written codec would have to follow every change of :mod:`bot.contract`. Reading
admits only the classes of :mod:`bot.contract` and plain builtins, so an entry written by
anyone else cannot call anything; one this version cannot read is dropped and logged.
A held turn ping is kept the same way (see :mod:`.heldpings`).
"""

from __future__ import annotations

import base64
import io
import logging
import pickle
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from adapters.telegram.liveness import ALIVE_SECONDS, Liveness
from adapters.telegram.pending import GRACE_SECONDS, INDEX_SECONDS
from bot import keys
from bot.contract import ChatRef, Document, Notice, Response, Show
from bot.store_types import text

log = logging.getLogger(__name__)

Once = Notice | Response | Document
Message = Show | Notice | Response | Document  # what is kept in Redis as text
KEEP_SECONDS = 3600.0  # a message queued longer than this is not worth sending late
RECHECK_SECONDS = ALIVE_SECONDS + 1.0  # another process's entries: look again when it may be gone
_BUILTINS = frozenset({"tuple", "list", "dict", "int", "float", "str", "bytes", "bool"})


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


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        allowed = (
            module == "bot.contract"
            or (module == "builtins" and name in _BUILTINS)
            or (module == "copyreg" and name in {"_reconstructor", "__newobj__"})
        )
        if not allowed:
            raise pickle.UnpicklingError(f"{module}.{name} is not a message's part")
        return super().find_class(module, name)


def encode(message: Message) -> str:
    """A message of :mod:`bot.contract` as text (base64 pickle), as the store's client
    decodes every reply."""
    return base64.b64encode(pickle.dumps(message, protocol=5)).decode()


def decode(data: str) -> Message:
    """The message :func:`encode` wrote; only :mod:`bot.contract`'s classes are read."""
    message = _Unpickler(io.BytesIO(base64.b64decode(data))).load()
    if not isinstance(message, Message):
        raise pickle.UnpicklingError(f"not a message: {type(message).__name__}")
    return message


def dump(message: Once, at: float) -> str:
    """``at|base64 pickle``."""
    return f"{at!r}|" + encode(message)


def load(name: str, value: str) -> Entry:
    at, _, data = value.partition("|")
    message = decode(data)
    if not isinstance(message, Once):
        raise pickle.UnpicklingError(f"not a one-off message: {type(message).__name__}")
    return Entry(name, float(at), message)


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

    def name(self, number: int) -> str:
        """This process's name for its ``number``-th message."""
        return f"{self._liveness.me}.{number:012d}"

    async def note(self, chat: ChatRef, entries: Sequence[tuple[str, Once]]) -> None:
        """The messages are queued for ``chat`` (a Telegram chat, without a topic)."""
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

    async def settle(self, chat: ChatRef, name: str) -> None:
        """The message was sent, or given up on."""
        await self._redis.hdel(keys.outbox(chat), name)

    async def take_over(self, chat: ChatRef) -> Taken:
        """Take the chat's messages queued by processes that are gone."""
        key = keys.outbox(ChatRef(chat.platform, chat.chat_id))
        names = [text(name) for name in await self._redis.hkeys(key)]
        others = {process_of(name) for name in names} - {self._liveness.me}
        gone = [process for process in sorted(others) if await self._liveness.gone(process)]
        raw = await self._take(keys=[key], args=[self._liveness.me, *gone]) if gone else []
        entries: list[Entry] = []
        dropped: list[str] = []
        now = self._wall()
        for name, value in zip(raw[::2], raw[1::2], strict=True):
            try:
                entry = load(text(name), text(value))
            except Exception as err:
                log.warning("dropping the queued message %s of %s: %s", text(name), key, err)
                dropped.append(text(name))
                continue
            if entry.at < now - KEEP_SECONDS:
                dropped.append(entry.name)
            else:
                entries.append(entry)
        if dropped:
            await self._redis.hdel(key, *dropped)
        entries.sort(key=lambda entry: (entry.at, entry.name))
        left = len(names) - len(raw) // 2
        if others - set(gone):
            look_again: float | None = RECHECK_SECONDS
        else:
            look_again = GRACE_SECONDS if left or entries else None
        return Taken(tuple(entries), look_again)
