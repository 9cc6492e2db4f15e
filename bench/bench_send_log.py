"""Redis time of the shared send log's scripts while many turns are queued in the bot's
whole budget, as when a thousand groups wait for their turn in its thirty writes a second.

Every write reserves a turn in the bot-wide log and claims its place when it leaves; both
run as scripts on the one Redis node that holds the log, so their cost is paid by every
command on that node. It starts its own ``redis-server`` on a free loopback port, queues
``N`` turns in the bot-wide log, then reserves and claims 200 more one after another and
prints the server's own time per call (``INFO commandstats``: time inside the script,
which does not depend on the client's speed; the server shares the machine, so the load
is printed too).

Run: ``.venv/bin/python bench/bench_send_log.py``.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import redis.asyncio as aredis

sys.path.insert(0, str(Path(__file__).resolve().parent))

from press_path.server import redis_server

from adapters.delivery.sharedlog import RedisSendLog
from adapters.telegram.budget import BOT_RULES, EVERY_CHAT

QUEUED = (0, 1000, 3000)
CALLS = 200
KEY = "bench:{tg:bot}:sent"


async def _script_usec(client: aredis.Redis) -> float:
    stats = await client.info("commandstats")
    evalsha = stats.get("cmdstat_evalsha", {})
    return float(evalsha.get("usec_per_call", 0.0))


async def measure(url: str, queued: int) -> tuple[float, float]:
    """Microseconds per reserve and per claim with ``queued`` turns waiting."""
    client = aredis.Redis.from_url(url, decode_responses=True)
    try:
        await client.delete(KEY)
        log = RedisSendLog(client, lambda chat: KEY)
        now = time.time()
        for _ in range(queued):
            await log.reserve(EVERY_CHAT, BOT_RULES, now)
        await client.config_resetstat()
        mine = [await log.reserve(EVERY_CHAT, BOT_RULES, now) for _ in range(CALLS)]
        reserve = await _script_usec(client)
        await client.config_resetstat()
        for reservation in mine:
            await log.claim(reservation, BOT_RULES, now)
        claim = await _script_usec(client)
        return reserve, claim
    finally:
        await client.aclose()


async def main() -> None:
    with redis_server() as url:
        print(f"load average {os.getloadavg()[0]:.1f}")
        print(f"{'turns queued':>12} {'reserve, µs':>12} {'claim, µs':>10}")
        for queued in QUEUED:
            reserve, claim = await measure(url, queued)
            print(f"{queued:>12} {reserve:>12.0f} {claim:>10.0f}")


if __name__ == "__main__":
    asyncio.run(main())
