"""Bot API calls per accepted move over a whole match, as the calls test and
``bench/bench_telegram_calls.py`` count them.

Fake people play a whole match through the real Telegram adapter and the real core,
against the fake Bot API and a real Redis. Every call the bot makes from the start
of the match to its end is counted, group and private chats together, except
``answerCallbackQuery`` (every press gets one) and ``getUpdates`` (polling).

An accepted move is every move the match's record holds: the people's, the
computers', and the draws and passes the core makes for a player who has no other
choice. The clock is virtual and every player waits until the bot has sent
everything his last press caused, so no two moves' screens are merged while they
wait for the send budget: the figures are the most a match costs. In one setup
someone who is not playing presses the table's Picture button after every step of the
match: the pictures he is sent count with the rest.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from dataclasses import dataclass

import redis.asyncio as aredis

from bot.model.gamedoc import from_json
from bot.storage.store import Store, connect
from bot.table.sessions import Sessions
from tests.adapters.delivery.vclock import VirtualClock
from tests.adapters.telegram.driver import Driver, Played
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.harness import running, settings_for
from tests.adapters.telegram.players import data_with
from tests.adapters.telegram.tables import ADD_COMPUTER, GROUP_ID, PACE, open_table, start

NOT_COUNTED = frozenset({"answerCallbackQuery", "getUpdates"})
LIMIT = 2.0  # calls per accepted move, on average over a match
MATCH_SECONDS = 600.0
PICTURE = "1i_"  # the payload of the table's Picture button starts so


@dataclass(frozen=True)
class Setup:
    name: str
    command: str
    people: int
    computers: int
    # Someone who is not playing presses the table's Picture button after every move.
    pictures: bool = False

    @property
    def seats(self) -> str:
        watcher = "+Picture" if self.pictures else ""
        return f"{self.people}+{self.computers}{watcher}"


SETUPS = (
    Setup("tyaga", "/newgame tyaga target=30", 2, 0),
    Setup("tyaga", "/newgame tyaga target=30", 1, 2),
    Setup("kozel", "/newgame kozel target=31", 3, 0),
    Setup("kozel", "/newgame kozel target=31 teams=on", 2, 2),
    Setup("baghdad", "/newgame baghdad match=deals:2", 2, 0),
    Setup("three_guns", "/newgame three_guns", 2, 1),
    Setup("tyaga", "/newgame tyaga target=30", 2, 0, pictures=True),
)


@dataclass
class Measured:
    calls: Counter[str]
    moves: int
    presses: int

    @property
    def per_move(self) -> float:
        return sum(self.calls.values()) / self.moves

    def add(self, other: Measured) -> None:
        self.calls += other.calls
        self.moves += other.moves
        self.presses += other.presses


async def _play(d: Driver, rng: random.Random, watcher: FakeUser | None) -> Played:
    """The match to its end; ``watcher`` presses the table's Picture button after each
    step of it."""
    played = await d.begin()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + MATCH_SECONDS
    while not await d.step(played, rng):
        assert loop.time() < deadline, f"the match did not end in {MATCH_SECONDS} s"
        if watcher is not None:
            table = await d.table(played.game_id)
            pictures = data_with(table, PICTURE)
            if pictures:
                await d.press(watcher, table, pictures[0])
    await d.finish()
    return played


async def play_counted(setup: Setup, seed: int, redis_url: str) -> Measured:
    """Play one match of ``setup`` on an emptied database at ``redis_url``."""
    clock = VirtualClock()
    fake = FakeBotApi(clock=clock)
    await fake.start()
    store = Store(connect(redis_url, timeout=30.0))
    client = aredis.Redis.from_url(redis_url, decode_responses=True)
    await client.flushdb()
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
            watcher = fake.add_user(110, "Dee")
            fake.started.add(watcher.id)
            played = await _play(d, random.Random(seed), watcher if setup.pictures else None)
            calls = Counter(c.method for c in fake.calls[first:] if c.method not in NOT_COUNTED)
            last = await store.last_game(d.chat)
            assert last is not None and last["id"] == game_id, "the match was not recorded"
            moves = len(from_json(last).moves)
        return Measured(calls, moves, played.moves)
    finally:
        await client.aclose()
        await store.close()
        await fake.close()
