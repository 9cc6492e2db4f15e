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
:data:`bot.storage.keys.PING_BUCKETS` sorted sets scored by the moment each falls due (a
chat's always in the same one, so no one key is hot on a cluster); a hash beside each
set, in its cluster slot, names the member held for each chat's slot, so a drop needs
nothing but the chat and the slot. Holding, dropping and claiming are each one script
on those two keys (one round trip, and none can come between the steps of another):
taking a due ping out of its set is the claim, and only one process wins it. A ping
that is put off (see :meth:`HeldPings.claim_due`) is held again in the same script
that would have claimed it, and only if it is still held: one its player's move dropped
meanwhile stays dropped.

A ping claimed just before its player moves is still sent: the claim and the drop do
not interleave, but the send comes after the claim, and the move may come between. On
Telegram the move's deletion of the ping is carried out as of the move's version, so a
ping that reaches its chat after it is not shown (see :meth:`.telegram.carry.Carrier.delete`);
on Discord, where a sent mention is never deleted, it goes out.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final

import redis.asyncio as aredis

from bot.model.contract import ChatRef, Deadline, Show
from bot.storage import keys
from bot.storage.timers import REPLACE_MEMBER
from bot.storage.values import text

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


# KEYS: held set, names hash. ARGV: the slot's field.
_DROP = """
local previous = redis.call('HGET', KEYS[2], ARGV[1])
if not previous then return 0 end
redis.call('HDEL', KEYS[2], ARGV[1])
return redis.call('ZREM', KEYS[1], previous)
"""

# KEYS: held set, names hash. ARGV: now, limit; then, to decide each due member apart,
# pairs of a member and when to hold it until instead (0: claim it), of which only those
# still held and due are acted on. The claimed members.
_CLAIM = """
local claimed = {}
local function claim(member)
  redis.call('ZREM', KEYS[1], member)
  claimed[#claimed + 1] = member
  local ok, ping = pcall(cjson.decode, member)
  if ok and type(ping) == 'table' and ping.c and ping.s then
    local field = ping.c .. '|' .. ping.s
    if redis.call('HGET', KEYS[2], field) == member then redis.call('HDEL', KEYS[2], field) end
  end
end
if #ARGV == 2 then
  local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
  for _, member in ipairs(due) do claim(member) end
  return claimed
end
for i = 3, #ARGV, 2 do
  local member, later = ARGV[i], tonumber(ARGV[i + 1])
  local due = redis.call('ZSCORE', KEYS[1], member)
  if due and tonumber(due) <= tonumber(ARGV[1]) then
    if later > 0 then redis.call('ZADD', KEYS[1], later, member) else claim(member) end
  end
end
return claimed
"""


class HeldPings:
    """One platform's held-back pings in Redis (see the module's text)."""

    def __init__(self, redis: aredis.Redis, platform: str) -> None:
        self._redis = redis
        self._platform = platform
        self._hold = redis.register_script(REPLACE_MEMBER)  # the slot's ping replaced
        self._drop = redis.register_script(_DROP)
        self._claim = redis.register_script(_CLAIM)

    async def hold(self, held: HeldPing, due: float) -> None:
        """Hold ``held`` until ``due``; a ping held for the same slot is replaced."""
        field = keys.held_ping_field(held.chat, held.slot)
        await self._hold(
            keys=self._keys(keys.ping_bucket(held.chat)),
            args=[field, held.member(due), repr(float(due))],
        )

    async def drop(self, chat: ChatRef, slot_key: str) -> None:
        """Forget the ping held for the slot, if any (its player has moved)."""
        field = keys.held_ping_field(chat, slot_key)
        await self._drop(keys=self._keys(keys.ping_bucket(chat)), args=[field])

    async def claim_due(self, now: float, put_off: PutOff | None = None) -> list[HeldPing]:
        """The held pings due by ``now`` that this process won (only one does); one that
        ``put_off`` names a later moment for is held until then instead."""
        sets = [self._keys(b) for b in range(keys.PING_BUCKETS)]
        limit: list[str | int] = [repr(float(now)), BATCH]
        replies: list[list[str]]
        if put_off is None:
            replies = await asyncio.gather(*(self._claim(keys=k, args=limit) for k in sets))
        else:
            pages = await asyncio.gather(
                *(self._redis.zrangebyscore(k[0], "-inf", now, 0, BATCH) for k in sets)
            )
            replies = []
            for bucket, page in zip(sets, pages, strict=True):
                if page:
                    decided = [await _decide(str(m), put_off) for m in page]
                    pairs = [part for pair in decided for part in pair]
                    replies.append(await self._claim(keys=bucket, args=[*limit, *pairs]))
        return [HeldPing.from_member(text(m)) for reply in replies for m in reply]

    def _keys(self, bucket: int) -> list[str]:
        return [
            keys.held_pings(self._platform, bucket),
            keys.held_ping_names(self._platform, bucket),
        ]


async def _decide(member: str, put_off: PutOff) -> tuple[str, str]:
    """A due member and when to hold it until instead ("0": claim it)."""
    later = await put_off(HeldPing.from_member(member))
    return member, repr(float(later)) if later is not None else "0"
