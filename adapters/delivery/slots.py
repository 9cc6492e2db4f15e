"""Which message shows each slot, and the newest version shown there.

A slot's message is edited in place, so its id must outlive the process; and since
several workers may render the same table, the version shown is kept beside it so
that an older screen never replaces a newer one. A worker showing a slot holds it
until its edit is done, so that two edits of one message never cross on the way; one
whose edit is kept waiting (a flood wait) holds it again before it writes, and gives up
if a newer version was claimed while its hold had run out. A hold names its process, and
one left by a process that is gone (see :mod:`.liveness`) is taken over at once.
In Redis, one hash per chat holds ``slot key -> "message_id:version"`` (``message_id``
empty until one is sent) and ``lock|slot key -> held until|process``.

The same book remembers the bot's last response on each topic in a chat
(``reply|topic -> "message_id:sent at"``), so the next one may tidy it away; the
table pinned last and a refused pin are kept the same way (see :mod:`.pins`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from adapters.delivery.liveness import Liveness
from bot.model.contract import ChatRef, Slot, SlotKind
from bot.storage.values import text

log = logging.getLogger(__name__)

KEEP_SECONDS = 14 * 24 * 3600  # a chat's slot book outlives any game in it
# How long a claim holds its slot if its worker never releases it: longer than an edit
# takes. A killed process's hold is taken over as soon as its key has expired.
HOLD_SECONDS = 8.0


@dataclass(frozen=True, slots=True)
class Claim:
    """The outcome of claiming a slot for a version."""

    fresh: bool  # the version is not older than the one shown
    message_id: int | None  # the slot's message, if one was sent
    busy: bool = False  # another worker is showing this slot: ask again shortly


@dataclass(frozen=True, slots=True)
class Earlier:
    """A response the bot sent before on the same topic, and when."""

    message_id: int
    at: float


class SlotBook(Protocol):
    async def claim(self, slot: Slot, version: int, now: float) -> Claim:
        """Record ``version`` as shown in ``slot``, and hold the slot, unless a newer
        version was shown or another worker holds it."""
        ...

    async def release(self, slot: Slot) -> None:
        """The edit is done: others may show the slot."""
        ...

    async def hold(self, slot: Slot, version: int, now: float) -> bool:
        """Hold the slot a while longer for ``version``, claimed before: ``False`` if a
        newer version was claimed meanwhile (the hold ran out), and then nothing held."""
        ...

    async def place(self, slot: Slot, message_id: int, version: int) -> None:
        """The slot's message is now ``message_id``."""
        ...

    async def vacate(self, slot: Slot, version: int) -> None:
        """The slot's message is gone as of ``version``: none is recorded, a screen older
        than ``version`` is not fresh, and the slot, claimed before, is released."""
        ...

    async def message_of(self, slot: Slot) -> int | None: ...

    async def slot_showing(self, chat: ChatRef, message_id: int) -> str | None:
        """The key of the chat's slot whose message is ``message_id``, if any."""
        ...

    async def version_of(self, slot: Slot) -> int | None:
        """The newest version claimed for the slot (``None``: never shown)."""
        ...

    async def forget(self, slot: Slot) -> None: ...

    async def forget_chat(self, chat: ChatRef) -> None:
        """Every message of the chat is gone (it became another chat)."""
        ...

    async def swap_response(
        self, chat: ChatRef, topic: str, message_id: int, at: float
    ) -> Earlier | None:
        """Remember ``message_id`` as the chat's newest response on ``topic``; the one
        it replaces, if any."""
        ...

    async def response_on(self, chat: ChatRef, topic: str) -> Earlier | None:
        """The chat's newest response on ``topic``, if any."""
        ...


class MemorySlotBook:
    def __init__(self) -> None:
        self._chats: dict[str, dict[str, tuple[int | None, int]]] = {}
        self._responses: dict[tuple[str, str], Earlier] = {}

    async def swap_response(
        self, chat: ChatRef, topic: str, message_id: int, at: float
    ) -> Earlier | None:
        key = (chat.key, topic)
        earlier = self._responses.get(key)
        self._responses[key] = Earlier(message_id, at)
        return earlier

    async def response_on(self, chat: ChatRef, topic: str) -> Earlier | None:
        return self._responses.get((chat.key, topic))

    def _book(self, slot: Slot) -> dict[str, tuple[int | None, int]]:
        return self._chats.setdefault(slot.chat.key, {})

    async def claim(self, slot: Slot, version: int, now: float) -> Claim:
        """One process shows each chat's slots one at a time, so none is ever busy."""
        message_id, shown = self._book(slot).get(slot.key, (None, -1))
        if version < shown:
            return Claim(False, message_id)
        self._book(slot)[slot.key] = (message_id, version)
        return Claim(True, message_id)

    async def release(self, slot: Slot) -> None:
        pass

    async def hold(self, slot: Slot, version: int, now: float) -> bool:
        return version >= self._book(slot).get(slot.key, (None, -1))[1]

    async def place(self, slot: Slot, message_id: int, version: int) -> None:
        _, shown = self._book(slot).get(slot.key, (None, -1))
        self._book(slot)[slot.key] = (message_id, max(shown, version))

    async def vacate(self, slot: Slot, version: int) -> None:
        _, shown = self._book(slot).get(slot.key, (None, -1))
        self._book(slot)[slot.key] = (None, max(shown, version))

    async def message_of(self, slot: Slot) -> int | None:
        return self._book(slot).get(slot.key, (None, -1))[0]

    async def slot_showing(self, chat: ChatRef, message_id: int) -> str | None:
        held = self._chats.get(chat.key, {})
        return next((key for key, (shown, _) in held.items() if shown == message_id), None)

    async def version_of(self, slot: Slot) -> int | None:
        shown = self._book(slot).get(slot.key)
        return None if shown is None else shown[1]

    async def forget(self, slot: Slot) -> None:
        self._book(slot).pop(slot.key, None)

    async def forget_chat(self, chat: ChatRef) -> None:
        self._chats.pop(chat.key, None)
        for key in [k for k in self._responses if k[0] == chat.key]:
            del self._responses[key]


# KEYS[1]: the chat's hash. ARGV: slot key, version, ttl seconds, then for CLAIM now,
# how long to hold, this process and a process known to be gone (or ""), for PLACE the
# message id. Both return {outcome, message id or ""}: 1 fresh, 0 older than shown, 2
# held by another worker (then the holder too). A hold is "until|process" (the process
# empty from a book without liveness); one that names the process known to be gone is
# taken over.
_SPLIT = """
local current = redis.call('HGET', KEYS[1], ARGV[1])
local message, shown = '', -1
if current then
  local sep = string.find(current, ':', 1, true)
  message = string.sub(current, 1, sep - 1)
  shown = tonumber(string.sub(current, sep + 1))
end
"""
_CLAIM = (
    _SPLIT
    + """
local lock = 'lock|' .. ARGV[1]
local now = tonumber(ARGV[4])
local held = redis.call('HGET', KEYS[1], lock)
if held then
  local sep = string.find(held, '|', 1, true)
  local held_until, holder = tonumber(string.sub(held, 1, sep - 1)), string.sub(held, sep + 1)
  if held_until > now and (holder == '' or holder ~= ARGV[7]) then
    return {2, message, holder}
  end
end
if tonumber(ARGV[2]) < shown then return {0, message} end
local hold = string.format('%.17g', now + tonumber(ARGV[5])) .. '|' .. ARGV[6]
redis.call('HSET', KEYS[1], ARGV[1], message .. ':' .. ARGV[2], lock, hold)
redis.call('EXPIRE', KEYS[1], ARGV[3])
return {1, message}
"""
)
_PLACE = (
    _SPLIT
    + """
local version = math.max(shown, tonumber(ARGV[2]))
redis.call('HSET', KEYS[1], ARGV[1], ARGV[4] .. ':' .. string.format('%d', version))
redis.call('EXPIRE', KEYS[1], ARGV[3])
return {1, ARGV[4]}
"""
)

# KEYS[1]: the chat's hash. ARGV: slot key, version, ttl seconds. No message, the version
# kept (never lowered), the slot's hold released.
_VACATE = (
    _SPLIT
    + """
local version = math.max(shown, tonumber(ARGV[2]))
redis.call('HSET', KEYS[1], ARGV[1], ':' .. string.format('%d', version))
redis.call('HDEL', KEYS[1], 'lock|' .. ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
"""
)

# KEYS[1]: the chat's hash. ARGV: slot key, version, now, how long to hold, this process.
# Returns 1 held,
# 0 when a newer version was claimed.
_HOLD = (
    _SPLIT
    + """
if tonumber(ARGV[2]) < shown then return 0 end
local until_ = string.format('%.17g', tonumber(ARGV[3]) + tonumber(ARGV[4]))
redis.call('HSET', KEYS[1], 'lock|' .. ARGV[1], until_ .. '|' .. ARGV[5])
return 1
"""
)

# KEYS[1]: the chat's hash. ARGV: field, "message_id:at", ttl seconds. Returns the old value.
_SWAP = """
local old = redis.call('HGET', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return old
"""


class RedisSlotBook:
    """The slot book in Redis; ``key_for(chat key)`` names a chat's hash."""

    def __init__(
        self, redis: Any, key_for: Callable[[str], str], liveness: Liveness | None = None
    ) -> None:
        self._redis = redis
        self._key_for = key_for
        self._liveness = liveness  # without one, holds name no process and run out
        self._me = liveness.me if liveness is not None else ""
        self._claim = redis.register_script(_CLAIM)
        self._place = redis.register_script(_PLACE)
        self._hold = redis.register_script(_HOLD)
        self._swap = redis.register_script(_SWAP)
        self._vacate = redis.register_script(_VACATE)

    async def claim(self, slot: Slot, version: int, now: float) -> Claim:
        claim, holder = await self._claim_once(slot, version, now, gone="")
        if claim.busy and self._liveness is not None and await self._liveness.gone(holder):
            log.info("taking over %s from process %s, which is gone", slot.key, holder)
            claim, _ = await self._claim_once(slot, version, now, gone=holder)
        return claim

    async def _claim_once(
        self, slot: Slot, version: int, now: float, gone: str
    ) -> tuple[Claim, str]:
        outcome, message, *holder = await self._claim(
            keys=[self._key_for(slot.chat.key)],
            args=[
                slot.key, version, KEEP_SECONDS, repr(now), HOLD_SECONDS, self._me, gone
            ],
        )  # fmt: skip
        claim = Claim(int(outcome) == 1, _message_id(message), busy=int(outcome) == 2)
        return claim, text(holder[0]) if holder else ""

    async def release(self, slot: Slot) -> None:
        await self._redis.hdel(self._key_for(slot.chat.key), "lock|" + slot.key)

    async def hold(self, slot: Slot, version: int, now: float) -> bool:
        held = await self._hold(
            keys=[self._key_for(slot.chat.key)],
            args=[slot.key, version, repr(now), HOLD_SECONDS, self._me],
        )
        return bool(int(held))

    async def place(self, slot: Slot, message_id: int, version: int) -> None:
        await self._place(
            keys=[self._key_for(slot.chat.key)],
            args=[slot.key, version, KEEP_SECONDS, message_id],
        )

    async def vacate(self, slot: Slot, version: int) -> None:
        await self._vacate(
            keys=[self._key_for(slot.chat.key)], args=[slot.key, version, KEEP_SECONDS]
        )

    async def message_of(self, slot: Slot) -> int | None:
        value = await self._redis.hget(self._key_for(slot.chat.key), slot.key)
        if value is None:
            return None
        text = value.decode() if isinstance(value, bytes) else str(value)
        return _message_id(text.partition(":")[0])

    async def slot_showing(self, chat: ChatRef, message_id: int) -> str | None:
        held = await self._redis.hgetall(self._key_for(chat.key))
        for field, value in held.items():
            key = text(field)
            if key.partition("|")[0] in _SLOT_KINDS and text(value).partition(":")[0] == str(
                message_id
            ):
                return key
        return None

    async def version_of(self, slot: Slot) -> int | None:
        value = await self._redis.hget(self._key_for(slot.chat.key), slot.key)
        return None if value is None else int(text(value).rpartition(":")[2])

    async def forget(self, slot: Slot) -> None:
        await self._redis.hdel(self._key_for(slot.chat.key), slot.key)

    async def forget_chat(self, chat: ChatRef) -> None:
        await self._redis.delete(self._key_for(chat.key))

    async def swap_response(
        self, chat: ChatRef, topic: str, message_id: int, at: float
    ) -> Earlier | None:
        old = await self._swap(
            keys=[self._key_for(chat.key)],
            args=["reply|" + topic, f"{message_id}:{at!r}", KEEP_SECONDS],
        )
        return _earlier(old)

    async def response_on(self, chat: ChatRef, topic: str) -> Earlier | None:
        return _earlier(await self._redis.hget(self._key_for(chat.key), "reply|" + topic))


# A slot's field starts with its kind; the hash's other fields (holds, responses, and a
# platform's own records beside them) never do.
_SLOT_KINDS = frozenset(kind.value for kind in SlotKind)


def _earlier(value: Any) -> Earlier | None:
    if value is None:
        return None
    message, _, when = text(value).partition(":")
    return Earlier(int(message), float(when))


def _message_id(value: Any) -> int | None:
    said = text(value)
    return int(said) if said else None
