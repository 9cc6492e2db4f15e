"""Where a platform's delivery keeps its records, and the clocks it reads: the same parts
for every platform, in Redis for a bot that runs as several processes (or restarts), in
memory for one that does not."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from adapters.delivery.clock import Clock, SystemClock
from adapters.delivery.holding import PingHolder
from adapters.delivery.limiter import SendLog
from adapters.delivery.liveness import Liveness
from adapters.delivery.outage import OutageSendLog
from adapters.delivery.outbox import RedisOutbox
from adapters.delivery.pending import PendingBook, RedisPendingBook
from adapters.delivery.sharedlog import RedisSendLog
from adapters.delivery.slots import RedisSlotBook, SlotBook
from bot.model.contract import ChatRef
from bot.storage import keys


@dataclass(frozen=True, slots=True)
class Wiring:
    """Where the adapter keeps its per-slot messages and send budgets, and its clocks."""

    book: SlotBook
    send_log: SendLog
    clock: Clock
    wall: Callable[[], float]
    pending: PendingBook | None = None  # where queued screens outlive the process
    liveness: Liveness | None = None  # this process's key, renewed while it runs
    outbox: RedisOutbox | None = None  # where queued one-off messages outlive the process
    pings: PingHolder | None = None  # where turn pings are held back (else sent at once)


def redis_wiring(
    redis: Any,
    platform: str,
    clock: Clock | None = None,
    wall: Callable[[], float] = time.time,
    pings: PingHolder | None = None,
) -> Wiring:
    """Slot messages, send budgets, what is queued and not yet shown or sent, in Redis,
    shared by every process of the platform, their holds and turns naming this process
    (whose liveness key its runner starts and stops)."""
    liveness = Liveness(redis)
    sent = RedisSendLog(redis, lambda chat: keys.sent(ChatRef.from_key(chat)), liveness)
    return Wiring(
        book=RedisSlotBook(
            redis, lambda chat: keys.slot_messages(ChatRef.from_key(chat)), liveness
        ),
        send_log=OutageSendLog(sent),
        clock=clock or SystemClock(),
        wall=wall,
        pending=RedisPendingBook(redis, platform, wall),
        liveness=liveness,
        outbox=RedisOutbox(redis, platform, liveness, wall),
        pings=pings,
    )
