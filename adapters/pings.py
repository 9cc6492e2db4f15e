"""The turn ping's policy, the same on Telegram and Discord, and where held pings wait.

An edit of the table notifies nobody, so the player to move is pinged (a message that
mentions him); but most players move within moments of their turn coming, and a ping
sent then only costs messages. So, on both platforms:

- a ping is held back for :data:`PING_HOLD` seconds, or half the time left on the turn
  when that is sooner (:func:`falls_due`), and dropped if its player moves meanwhile:
  his turn then costs no ping at all;
- a ping sent is deleted once its player has moved (:func:`outlived`): it has done its
  work, and the chat is kept clean.

One exception, on Discord only, for Discord's rules: a player's hand there is an
ephemeral message its interaction token may edit for fifteen minutes and no longer. A
ping whose player's hand can no longer be edited is told so ("press My tiles") and goes
out at once (``at_once``), since that hand will not show him his turn. On Telegram a
hand lives in the player's private chat and is always editable, so this never applies.

Held pings wait in Redis, so that whichever process handles the player's move drops
his ping, and whichever runs the next timer round sends one that fell due: a process
that stops takes none along. Each platform's pings are spread over
:data:`bot.storage.keys.PING_BUCKETS` sorted sets scored by the moment each falls due (a
chat's always in the same one, so no one key is hot on a cluster); a hash beside each
set, in its cluster slot, names the member held for each chat's slot, so a drop needs
nothing but the chat and the slot. Holding, dropping and claiming are each one script
on those two keys (one round trip, and none can come between the steps of another):
taking a due ping out of its set is the claim, and only one process wins it.

A ping claimed just before its player moves is still sent: the claim and the drop do
not interleave, but the send comes after the claim, and the move may come between. The
move's deletion is then carried out as of the move's version, so the ping does not
stay: on Telegram the ping that reaches its chat after it is not shown (see
:meth:`.telegram.carry.Carrier.delete`); on Discord the move leaves its version where
the sent ping would be recorded, and the ping sent after it is deleted at once (see
:mod:`.discord.pings`).
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Final

import redis.asyncio as aredis

from bot.model.contract import ChatRef, Deadline, Show
from bot.storage import keys
from bot.storage.timers import REPLACE_MEMBER
from bot.storage.values import text

BATCH: Final = 50  # pings claimed from each set per round
PING_HOLD: Final = 20.0  # seconds a turn ping waits for its player to move before it is sent


def falls_due(show: Show, now: float, *, at_once: bool = False) -> float:
    """When ``show`` (a turn ping held at ``now``) falls due: :data:`PING_HOLD` seconds
    on, or half the time left on its turn when that is sooner; ``now`` with
    ``at_once`` (Discord's stale hand, see the module's text)."""
    if at_once:
        return now
    wait = PING_HOLD
    deadline = turn_deadline(show)
    if deadline is not None:
        wait = min(wait, (deadline - now) / 2)
    return now + max(wait, 0.0)


def outlived(ping_version: int, moved_version: int) -> bool:
    """Whether a ping sent of ``ping_version`` (the game's version when its turn came) is
    to be deleted, its player having made the move of ``moved_version``: every move of
    his after the ping was drawn ends it; a move older than the ping (of an earlier turn)
    does not."""
    return moved_version > ping_version


def turn_deadline(show: Show) -> float | None:
    """When the turn a ping is about runs out (the screen's deadline), if it does."""
    for line in show.screen.lines:
        for segment in line:
            if isinstance(segment, Deadline):
                return segment.at
    return None


@dataclass(frozen=True, slots=True)
class HeldPing:
    """A ping waiting in Redis: the chat whose hash names it, the ping's slot, whom it
    names, what the platform sends when it falls due, and the game's version it was
    drawn for (0 where the platform does not need it)."""

    chat: ChatRef
    slot: str
    user_id: str
    content: str
    version: int = 0

    def member(self, nonce: float) -> str:
        body: dict[str, str | int] = {"c": self.chat.key, "s": self.slot, "u": self.user_id}
        body["x"] = self.content
        if self.version:
            body["v"] = self.version
        return json.dumps({**body, "n": nonce}, sort_keys=True)

    @classmethod
    def from_member(cls, member: str) -> HeldPing:
        data = json.loads(member)
        return cls(
            ChatRef.from_key(data["c"]), data["s"], data["u"], data["x"], int(data.get("v", 0))
        )


# KEYS: held set, names hash. ARGV: the slot's field.
_DROP = """
local previous = redis.call('HGET', KEYS[2], ARGV[1])
if not previous then return 0 end
redis.call('HDEL', KEYS[2], ARGV[1])
return redis.call('ZREM', KEYS[1], previous)
"""

# KEYS: held set, names hash. ARGV: now, limit. The claimed members.
_CLAIM = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
for _, member in ipairs(due) do
  redis.call('ZREM', KEYS[1], member)
  local ok, ping = pcall(cjson.decode, member)
  if ok and type(ping) == 'table' and ping.c and ping.s then
    local field = ping.c .. '|' .. ping.s
    if redis.call('HGET', KEYS[2], field) == member then redis.call('HDEL', KEYS[2], field) end
  end
end
return due
"""


class HeldPings:
    """One platform's held-back pings in Redis (see the module's text)."""

    def __init__(self, redis: aredis.Redis, platform: str) -> None:
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

    async def drop(self, chat: ChatRef, slot_key: str) -> bool:
        """Forget the ping held for the slot, if any (its player has moved); whether one
        was held (and so never claimed)."""
        field = keys.held_ping_field(chat, slot_key)
        return bool(await self._drop(keys=self._keys(keys.ping_bucket(chat)), args=[field]))

    async def claim_due(self, now: float) -> list[HeldPing]:
        """The held pings due by ``now`` that this process won (only one does)."""
        limit: list[str | int] = [repr(float(now)), BATCH]
        replies: list[list[str]] = await asyncio.gather(
            *(self._claim(keys=self._keys(b), args=limit) for b in range(keys.PING_BUCKETS))
        )
        return [HeldPing.from_member(text(m)) for reply in replies for m in reply]

    def _keys(self, bucket: int) -> list[str]:
        return [
            keys.held_pings(self._platform, bucket),
            keys.held_ping_names(self._platform, bucket),
        ]
