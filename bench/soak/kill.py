"""The kill soak: one bot process on a Redis server with AOF, both started here; fake
people in many groups play matches through the fake Bot API while the bot is
SIGKILLed at random moments and started again, and Redis is stopped once for a while.

After every kill the people wait (as they would for a silent bot) until the new
process is up and has had a moment to bring the tables up to date: a table that showed
an older version of its game than the store held when the bot died counts as caught
up once the new process shows the stored version, and as stale if it never does.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.soak.group import HAND_WAIT, Group
from bench.soak.presses import Tally
from bench.soak.procs import BotProcess, RedisServer
from bot.storage.store import Store, connect
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.players import shown_version, table_slot

# How long a restarted bot has to bring a table up to date: to start, and to see that the
# killed process is gone (its key expired) before taking over what it held.
CATCH_UP_WAIT = 45.0
OUTAGE_SECONDS = 10.0


@dataclass
class KillOptions:
    games: int = 100
    groups: int = 10
    minutes: float = 30.0
    kill_every: tuple[float, float] = (3.0, 12.0)  # seconds between kills, drawn evenly
    seed: int = 1
    keep: Path | None = None  # where to leave the logs and Redis files


@dataclass
class KillFigures:
    kills: int = 0
    outages: int = 0
    behind_at_kill: int = 0
    caught_up: int = 0
    catch_up_seconds: list[float] = field(default_factory=list)  # from the restart on
    stale: set[str] = field(default_factory=set)


async def kill_soak(options: KillOptions) -> int:
    workdir = options.keep or Path(tempfile.mkdtemp(prefix="domino-soak-"))
    server = RedisServer(workdir / "redis")
    server.start()
    fake = FakeBotApi()
    await fake.start()
    bot = BotProcess(bot_env(fake, server.url), workdir / "bot.log")
    client = connect(server.url, timeout=2.0)
    store = Store(client)
    tally, figures = Tally(), KillFigures()
    gate = asyncio.Event()
    gate.set()
    groups = [
        Group(fake, store, client, -1_000_000 - n, n, tally, gate) for n in range(options.groups)
    ]
    per_group = -(-options.games // options.groups)
    until = time.monotonic() + options.minutes * 60
    started = time.monotonic()
    bot.start()
    players = asyncio.gather(*(g.play(per_group, until) for g in groups))
    chaos = asyncio.create_task(_chaos(options, bot, server, groups, figures, gate, players))
    try:
        await players
    finally:
        chaos.cancel()
        gate.set()
        if server.proc is None:
            await asyncio.to_thread(server.start)  # stopped for the outage when the run ended
        for group in groups:
            await group.check_scoreboard()
        await asyncio.to_thread(bot.stop)  # the fake server answers its last calls
        await store.close()
        await fake.close()
        server.stop()
    _report(tally, figures, time.monotonic() - started, workdir)
    lost = tally.problems or figures.stale
    return 1 if lost or tally.games < options.games else 0


def bot_env(fake: FakeBotApi, redis_url: str) -> dict[str, str]:
    return {
        "TELEGRAM_TOKEN": fake.token,
        "TELEGRAM_BASE_URL": f"http://127.0.0.1:{fake.port}",
        "REDIS_URL": redis_url,
        "COMPUTER_DELAY": "0",
        "NEXT_DEAL_DELAY": "0.5",
        "TIMER_POLL_INTERVAL": "0.1",
        "TURN_TIMEOUT": "10",  # a hand lost with a killed process: the timer plays it
        "LOG_LEVEL": "WARNING",
        "DISCORD_TOKEN": "",
    }


async def _chaos(
    options: KillOptions,
    bot: BotProcess,
    server: RedisServer,
    groups: list[Group],
    figures: KillFigures,
    gate: asyncio.Event,
    players: asyncio.Future[list[None]],
) -> None:
    """Kill the bot at random moments; stop Redis once, a third of the way in (by games
    or by time, whichever comes first)."""
    rng = random.Random(options.seed)
    outage_after = options.games // 3
    outage_at = time.monotonic() + options.minutes * 60 / 3  # if games go slowly
    while not players.done():
        await asyncio.sleep(rng.uniform(*options.kill_every))
        due = _games(groups) >= outage_after or time.monotonic() >= outage_at
        if figures.outages == 0 and due:
            figures.outages += 1
            await asyncio.to_thread(server.stop)
            await asyncio.sleep(OUTAGE_SECONDS)
            await asyncio.to_thread(server.start)
            continue
        gate.clear()
        behind = await _tables_behind(groups)
        await asyncio.to_thread(bot.kill)
        figures.kills += 1
        bot.start()
        figures.behind_at_kill += len(behind)
        await _catch_ups(groups, behind, figures)
        gate.set()


def _games(groups: list[Group]) -> int:
    return sum(len(g.presses) for g in groups)


async def _tables_behind(groups: list[Group]) -> dict[int, tuple[str, int]]:
    """The groups whose table shows an older version than the store holds."""
    behind = {}
    for group in groups:
        try:
            game = await group.truth.load(group.chat)
            if game is None or game.doc.status != "running":
                continue
            shown = await shown_version(group.redis, table_slot(group.chat, game.doc.id))
        except Exception:
            continue
        if shown is not None and shown < game.version:
            behind[group.chat_id] = (game.doc.id, game.version)
    return behind


async def _catch_ups(
    groups: list[Group], behind: dict[int, tuple[str, int]], figures: KillFigures
) -> None:
    waiting = {g.chat_id: g for g in groups if g.chat_id in behind}
    started = time.monotonic()
    deadline = started + CATCH_UP_WAIT
    while waiting and time.monotonic() < deadline:
        for chat_id, group in list(waiting.items()):
            game_id, version = behind[chat_id]
            shown = await shown_version(group.redis, table_slot(group.chat, game_id))
            if shown is not None and shown >= version:
                figures.caught_up += 1
                figures.catch_up_seconds.append(time.monotonic() - started)
                del waiting[chat_id]
        await asyncio.sleep(0.1)
    for chat_id, (game_id, version) in behind.items():
        if chat_id in waiting:
            figures.stale.add(f"chat {chat_id}: table of {game_id} behind version {version}")
    await asyncio.sleep(0.5)  # the restarted bot gets going a moment before people go on


def _slowest(seconds: list[float]) -> str:
    if not seconds:
        return ""
    ordered = sorted(seconds)
    return (
        f" (median {ordered[len(ordered) // 2]:.1f} s, slowest {ordered[-1]:.1f} s after a restart)"
    )


def _report(tally: Tally, figures: KillFigures, seconds: float, workdir: Path) -> None:
    lines = [
        f"games played         {tally.games}",
        f"kills                {figures.kills}",
        f"redis outages        {figures.outages} ({OUTAGE_SECONDS:.0f} s)",
        f"presses              {tally.presses} ({tally.unanswered} unanswered, "
        f"{tally.refused} refused with a popup)",
        f"moves checked        {tally.moves_checked}",
        f"hands asked for      {tally.hands_asked} (not redrawn within {HAND_WAIT:.0f} s)",
        f"tables behind a kill {figures.behind_at_kill}",
        f"table catch-ups      {figures.caught_up}{_slowest(figures.catch_up_seconds)}",
        f"lost or doubled      {len(tally.problems) + len(figures.stale)}",
        f"took                 {seconds:.0f} s; logs in {workdir}",
    ]
    print("\n".join(lines))
    for problem in tally.problems + sorted(figures.stale):
        print("  " + problem)
