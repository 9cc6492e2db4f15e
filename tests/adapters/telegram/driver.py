"""Fake people playing a whole match through the fake Telegram.

They act only through what the bot showed them: they type commands, press the
buttons the bot sent (the lobby's, the table's, their hand's) and open the bot
through the deep links it offered. The core's stored game is read only to know
who is to move and what every hand holds: every message the bot writes to the
group is checked as it arrives (see :mod:`tests.adapters.telegram.groupscan`).

A match's game can also vanish because something else emptied the test database
(another test run, or a script, given the same ``REDIS_URL``): the game is then simply
gone, and the checks that notice first would blame the bot. The driver leaves a key of
its own beside a match it plays; a game gone together with that key is reported as the
database emptied under the test.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import parse_qs, urlsplit

from adapters.delivery.slots import RedisSlotBook
from bot.model.contract import ChatRef
from bot.model.decision import Game
from bot.storage import keys
from bot.storage.store import Store
from bot.table.match_steps import Tempo
from bot.table.runner import Runner
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.groupscan import GroupScan
from tests.adapters.telegram.harness import Running
from tests.adapters.telegram.players import (
    buttons,
    data_with,
    hand_presses,
    hand_slot,
    slot_message,
    table_slot,
)

T = TypeVar("T")

MOVE = "1m_"  # the payload of a move button starts so
NEXT_DEAL = "1n_"
COMPUTER_WAIT = 0.02  # seconds between looks while the timer loop plays a computer
SCREEN_WAIT = 20.0  # how long a player waits for the screen he expects
WATCHED_FOR = 3600  # seconds the driver's key outlives the match it watches
EMPTIED = (
    "the test database was emptied by another process during the match: "
    "give each test run (and any script) a database of its own in REDIS_URL"
)


@dataclass
class Played:
    """What happened in a match, for the tests to check."""

    game_id: str
    moves: int = 0
    deals: int = 0


class Driver:
    def __init__(
        self,
        fake: FakeBotApi,
        bot: Running,
        store: Store,
        redis: Any,
        chat_id: int,
        thread: int | None = None,
    ) -> None:
        self.fake = fake
        self.bot = bot
        self.redis = redis
        self.book = RedisSlotBook(redis, lambda chat: keys.slot_messages(ChatRef.from_key(chat)))
        self.chat_id = chat_id
        self.thread = thread
        self.chat = ChatRef("tg", str(chat_id), str(thread) if thread else None)
        self.truth = Runner(store, Tempo(0, 0, 3), time.time, "en")
        self.people: dict[str, FakeUser] = {}
        # One scan per group (or topic): a newer driver for it takes over.
        self.scan = GroupScan(fake, self.truth, self.chat)
        fake.watchers[("group", self.chat.key)] = self.scan
        # People in a hurry move as soon as their own hand lets them, without waiting
        # for the table in the group to catch up.
        self.hurry = False
        self._watching = False  # whether the key beside a match is set

    def seat(self, *users: FakeUser) -> None:
        for user in users:
            self.people[str(user.id)] = user

    @property
    def checks(self) -> int:
        """Messages to the group checked against the hands so far."""
        return self.scan.checked

    def assert_no_hand_in_group(self) -> None:
        """No message the bot wrote to the group showed a tile a hand held."""
        assert self.scan.problems == [], "\n".join(self.scan.problems)

    async def say(self, user: FakeUser | None, text: str, **extra: Any) -> None:
        self.fake.type_text(user, self.chat_id, text, thread=self.thread, **extra)
        await self.bot.drain()

    async def press(self, user: FakeUser, message: dict[str, Any], data: str) -> dict[str, Any]:
        """Press a button and return the answer the bot gave (once the bot has drained,
        or as soon as it answers for people in a hurry)."""
        query = self.fake.press(user, message, data)
        if not self.hurry:
            await self.bot.drain()
            return self.fake.answered[query]

        async def answered() -> dict[str, Any] | None:
            return self.fake.answered.get(query)

        return await self._wait_until(answered, "an answer to a press")

    async def game(self) -> Game | None:
        return await self.truth.load(self.chat)

    async def table(self, game_id: str) -> dict[str, Any]:
        message = await slot_message(self.fake, self.book, table_slot(self.chat, game_id))
        assert message is not None, "the table message is gone"
        return message

    async def hand(self, user: FakeUser, game_id: str) -> dict[str, Any] | None:
        return await slot_message(self.fake, self.book, hand_slot(user.id, game_id))

    def link_offered_to(self, user: FakeUser) -> str | None:
        """The newest deep link the group was shown in a message naming the user."""
        links = [
            button["url"]
            for message in self.fake.bot_messages(self.chat_id, self.thread)
            if user.first_name in message.get("text", "")
            for button in buttons(message)
            if "url" in button
        ]
        return links[-1] if links else None

    async def open_from_deep_link(self, user: FakeUser, url: str) -> None:
        """The user follows a t.me link the bot offered."""
        parts = urlsplit(url)
        assert parts.netloc == "t.me" and parts.path == f"/{self.fake.username}"
        (payload,) = parse_qs(parts.query)["start"]
        self.fake.open_bot(user, payload)
        await self.bot.drain()

    async def play_match(
        self,
        rng: random.Random,
        timeout: float = 120.0,
        until: Callable[[], bool] | None = None,
    ) -> Played:
        """Press moves (and "Next deal") until the match is over and the chat is free, or
        until ``until()`` holds."""
        played = await self.begin()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            if await self.step(played, rng, until):
                await self.finish()
                return played
        raise AssertionError(f"the match did not end in {timeout} s")

    async def begin(self) -> Played:
        """The record of the match now running in the chat."""
        game = await self.game()
        assert game is not None and game.state is not None, "no running game"
        await self.redis.set(self._watch_key, game.doc.id, ex=WATCHED_FOR)
        self._watching = True
        return Played(game.doc.id)

    @property
    def _watch_key(self) -> str:
        """A key nothing but this driver writes: gone only with the whole database."""
        return f"test:watched:{self.chat.key}"

    async def _assert_not_emptied(self) -> None:
        if self._watching:
            assert await self.redis.exists(self._watch_key), EMPTIED

    async def step(
        self, played: Played, rng: random.Random, until: Callable[[], bool] | None = None
    ) -> bool:
        """Do the next thing the match asks of people: a move, "Next deal", or a moment's
        wait while the timer loop plays for a computer. True once the match is over and
        the chat is free, or ``until()`` holds, with nothing done."""
        if not self.hurry:
            await self.bot.drain()
        game = await self.game()
        if game is None:
            await self._assert_not_emptied()  # before the scan, which would blame the bot
        self.assert_no_hand_in_group()
        over = game is None or game.doc.id != played.game_id or game.doc.status != "running"
        if over or (until is not None and until()):
            return True
        assert game is not None
        state = game.state
        assert state is not None
        if state.deal_over and not state.match_over:
            await self._next_deal(game)
            played.deals += 1
            return False
        seat = game.doc.seats[state.turn] if state.turn is not None else None
        if seat is None or seat.user is None or seat.away is not None:
            await asyncio.sleep(COMPUTER_WAIT)  # the timer loop plays for computers
            return False
        await self._move(self.people[seat.user.user_id], played, rng)
        return False

    async def finish(self) -> None:
        """Wait for what the last move brought to go out, and check it too."""
        await self.bot.drain()
        self.assert_no_hand_in_group()

    async def _move(self, user: FakeUser, played: Played, rng: random.Random) -> None:
        """Press a tile that fits, or an action, in the hand; a tile that fits both ends
        differently is a press that asks where, and the next step answers it."""
        game = await self.game()
        assert game is not None and game.state is not None

        async def moves_offered() -> tuple[dict[str, Any], list[tuple[str, Any]]] | None:
            hand = await self.hand(user, played.game_id)
            mine = hand_presses(hand, game) if hand else []
            return (hand, mine) if hand and mine else None

        hand, choices = await self._wait_until(moves_offered, f"{user.first_name}'s moves")
        data, move = rng.choice(choices)
        answer = await self.press(user, hand, data)
        assert not answer.get("text"), f"a move the bot offered was refused: {answer}"
        if move is not None:
            played.moves += 1

    async def _next_deal(self, game: Game) -> None:
        async def button() -> tuple[dict[str, Any], str] | None:
            table = await self.table(game.doc.id)
            found = data_with(table, NEXT_DEAL)
            return (table, found[0]) if found else None

        table, data = await self._wait_until(button, "the Next deal button")
        presser = next(self.people[s.user.user_id] for s in game.doc.seats if s.user is not None)
        await self.press(presser, table, data)

    async def _wait_until(self, look: Callable[[], Awaitable[T | None]], what: str) -> T:
        """What ``look`` finds, once the bot shows it. People wait for their screens: a
        computer's move may be written a moment before its screens go out."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SCREEN_WAIT
        while (found := await look()) is None:
            if loop.time() > deadline:
                if await self.game() is None:
                    await self._assert_not_emptied()
                raise AssertionError(f"the bot never showed {what}")
            await asyncio.sleep(COMPUTER_WAIT)
            if not self.hurry:
                await self.bot.drain()
        return found
