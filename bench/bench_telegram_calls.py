"""Bot API calls per accepted move, over whole matches of every game.

Fake people play whole matches through the real Telegram adapter and the real
core, against the fake Bot API of the tests and an embedded Redis of its own
(so no shared server is touched). Every call the bot makes from the start of
the match to its end is counted, group and private chats together, except
``answerCallbackQuery`` (every press gets one) and ``getUpdates`` (polling).

An accepted move is every move the match's record holds: the people's, the
computers', and the draws and passes the core makes for a player who has no
other choice. The calls per press of a move button are printed beside it.

The clock is virtual and every player waits until the bot has sent everything
his last press caused, so no two moves' screens are merged while they wait for
the send budget: the figures are the most a match costs, not what a table where
people think for a few seconds pays. They do not depend on the machine's load.

Run: ``.venv/bin/python bench/bench_telegram_calls.py [--seeds N]``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' fake Bot API

import redis.asyncio as aredis

from bot.embedded import EmbeddedRedis
from bot.gamedoc import from_json
from bot.sessions import Sessions
from bot.store import Store, connect
from tests.adapters.telegram.driver import Driver
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.harness import running, settings_for
from tests.adapters.telegram.players import data_with
from tests.adapters.telegram.tables import ADD_COMPUTER, PACE, open_table, start
from tests.adapters.telegram.vclock import VirtualClock

GROUP_ID = -100500
NOT_COUNTED = frozenset({"answerCallbackQuery", "getUpdates"})


@dataclass(frozen=True)
class Setup:
    name: str
    command: str
    people: int
    computers: int


SETUPS = (
    Setup("tyaga", "/newgame tyaga target=30", 2, 0),
    Setup("tyaga", "/newgame tyaga target=30", 1, 2),
    Setup("kozel", "/newgame kozel target=31", 3, 0),
    Setup("kozel", "/newgame kozel target=31 teams=on", 2, 2),
    Setup("baghdad", "/newgame baghdad match=deals:2", 2, 0),
    Setup("three_guns", "/newgame three_guns", 2, 1),
)


@dataclass
class Measured:
    calls: Counter[str]
    moves: int
    presses: int


async def play(setup: Setup, seed: int, redis_url: str) -> Measured:
    clock = VirtualClock()
    fake = FakeBotApi(clock=clock)
    await fake.start()
    store = Store(connect(redis_url, timeout=30.0))
    client = aredis.Redis.from_url(redis_url, decode_responses=True)
    await client.flushdb()  # the bench's own embedded server
    try:
        fake.add_group(GROUP_ID, "Dominoes")
        people = [fake.add_user(101 + n, name) for n, name in enumerate(("Ann", "Bob", "Cy"))]
        people = people[: setup.people]
        fake.started.update(p.id for p in people)
        fake.admins[GROUP_ID] = {people[0].id}
        sessions = Sessions(store, settings_for(fake, **PACE), rng=random.Random(seed))
        async with running(fake, sessions, clock, redis=client, **PACE) as bot:
            d = Driver(fake, bot, store, client, GROUP_ID)
            d.seat(*people)
            game_id = await open_table(d, people[0], setup.command, *people[1:])
            for _ in range(setup.computers):
                lobby = await d.table(game_id)
                await d.press(people[0], lobby, data_with(lobby, ADD_COMPUTER)[0])
            first = len(fake.calls)
            await start(d, people[0], game_id)
            played = await d.play_match(random.Random(seed), timeout=600.0)
            calls = Counter(c.method for c in fake.calls[first:] if c.method not in NOT_COUNTED)
            last = await store.last_game(d.chat)
            assert last is not None and last["id"] == game_id, "the match was not recorded"
            moves = len(from_json(last).moves)
        return Measured(calls, moves, played.moves)
    finally:
        await client.aclose()
        await store.close()
        await fake.close()


async def main(seeds: int) -> None:
    with tempfile.TemporaryDirectory() as data:
        server = EmbeddedRedis(Path(data))
        url = server.start()
        try:
            print(
                f"{'game':<11} {'people+computers':<17} {'moves':>6} {'presses':>7} "
                f"{'calls':>6} {'per move':>8} {'per press':>9}  calls by method"
            )
            for setup in SETUPS:
                total = Measured(Counter(), 0, 0)
                for seed in range(1, seeds + 1):
                    one = await play(setup, seed, url)
                    total.calls += one.calls
                    total.moves += one.moves
                    total.presses += one.presses
                calls = sum(total.calls.values())
                seats = f"{setup.people}+{setup.computers}"
                methods = ", ".join(f"{m} {n}" for m, n in total.calls.most_common())
                print(
                    f"{setup.name:<11} {seats:<17} {total.moves:>6} {total.presses:>7} "
                    f"{calls:>6} {calls / total.moves:>8.2f} {calls / total.presses:>9.2f}  "
                    f"{methods}"
                )
        finally:
            server.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=2, help="matches per setup")
    asyncio.run(main(parser.parse_args().seeds))
