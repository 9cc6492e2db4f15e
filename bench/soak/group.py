"""Fake people in one group playing match after match through the fake Bot API.

They act only as people can: they type commands and press the buttons the bot
showed them. The store is read to know whose turn it is and, afterwards, to check
what the bot did with every press: each press the bot acknowledged is in the stored
game once, no stored human move came without a press (but those the turn timer made,
and a computer's for a person whose seat it took over), a press the bot refused is not
stored, a finished match is on the chat's scoreboard, and the group's table ends
showing the match's end.

People look every ``look`` seconds, or, when ``nudged`` is used, when the bot has
written to their group or to one of them (as a phone buzzes), and at the latest after
``look``: with a thousand groups, reading every game twenty times a second would take
the machine's cores from the bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from typing import Any

from redis.exceptions import RedisError

from adapters.delivery.slots import RedisSlotBook
from bench.soak.presses import Press, Tally, applied, check_moves
from bot.model.contract import ChatRef
from bot.model.decision import Game
from bot.model.gamedoc import GameDoc, from_json
from bot.storage import keys
from bot.storage.connect import REDIS_ERRORS
from bot.storage.store import Store
from bot.storage.values import StoreUnavailable
from bot.table.match_steps import Tempo
from bot.table.runner import Runner
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.players import (
    data_with,
    hand_presses,
    hand_slot,
    shown_version,
    slot_message,
    table_slot,
)

MOVE, NEXT_DEAL, JOIN, START, ADD_COMPUTER, MY_TILES = "1m_", "1n_", "1j_", "1s_", "1a_", "1t_"
HAND_WAIT = 8.0  # how long a person waits for his hand before pressing "My tiles"
ANSWER_WAIT = 6.0  # how long a person waits for the popup of a press
END_WAIT = 60.0  # how long the table may take to show a finished match (after a kill too)
LOOK = 0.05  # seconds between looks at the store
STORE_ERRORS = (*REDIS_ERRORS, StoreUnavailable)  # a store down, or slow under load

# (command, people, computers): every game, some with computers.
PLANS = (
    ("kozel target=11", 2, 1),
    ("tyaga target=10", 1, 1),
    ("baghdad match=deals:2", 2, 0),
    ("three_guns", 2, 1),
)


def mid_turn(game: Game) -> bool:
    """The seat to move has moved in this turn already and acts again (a Thief of
    Baghdad camel before its extra or ``done``, a draw before the drawn tile or ``done``).
    The table is not edited for what he does until his turn passes (see
    :mod:`bot.table.updates`), so it shows an older version meanwhile (unless the bot made
    those moves for him in the write that ended the turn before, a forced draw)."""
    doc, state = game.doc, game.state
    if doc.status != "running" or state is None or state.deal_over or state.turn is None:
        return False
    start = doc.deal_starts[-1] if doc.deal_starts else 0
    return len(doc.moves) > start and doc.moves[-1][0] == state.turn


class StoreDown(Exception):
    """The store could not be read (it is being stopped on purpose)."""


class Group:
    """One group chat and its people, playing ``games`` matches in turn."""

    def __init__(
        self,
        fake: FakeBotApi,
        store: Store,
        redis: Any,
        chat_id: int,
        index: int,
        tally: Tally,
        gate: asyncio.Event,
        look: float = LOOK,
        hand_wait: float = HAND_WAIT,
    ) -> None:
        self.fake = fake
        self.redis = redis
        self.chat_id = chat_id
        self.chat = ChatRef("tg", str(chat_id))
        self.truth = Runner(store, Tempo(0, 0, 3), time.time, "en")
        self.book = RedisSlotBook(redis, lambda chat: keys.slot_messages(ChatRef.from_key(chat)))
        self.tally = tally
        self.gate = gate  # cleared while the bot is being killed and brought back
        self.rng = random.Random(index)
        self.index = index
        fake.add_group(chat_id, f"Soak {index}")
        self.users = [fake.add_user(chat_id * -10 + n, f"P{index}x{n}") for n in range(2)]
        fake.started.update(u.id for u in self.users)
        self.presses: dict[str, list[Press]] = {}
        # finished game -> its game and the people who sat in it
        self.finished: dict[str, tuple[str, set[str]]] = {}
        self.current: str | None = None
        self.moved_at: float | None = None  # a move pressed, its table edit not seen yet
        self.waiting_since: float | None = None  # for a hand to offer the turn's moves
        self.look = look
        self.hand_wait = hand_wait
        self.nudged: asyncio.Event | None = None  # set when the bot wrote to these people
        # When given, a press waits for its query id's event (set by whoever watches the
        # fake's answers) instead of looking for its answer a hundred times a second.
        self.answer_events: dict[str, asyncio.Event] | None = None

    @property
    def chat_ids(self) -> list[int]:
        """The group and its people's private chats."""
        return [self.chat_id, *(u.id for u in self.users)]

    async def _idle(self, seconds: float | None = None) -> None:
        """Wait before looking again: ``seconds`` (a short look by default), or until
        the bot writes to these people when they are nudged, at most ``look``."""
        if self.nudged is None:
            await asyncio.sleep(seconds or self.look)
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.nudged.wait(), self.look)
        self.nudged.clear()

    async def play(self, games: int, until: float) -> None:
        for number in range(games):
            if time.monotonic() > until:
                return
            plan = PLANS[(self.index + number) % len(PLANS)]
            await self._match(*plan, until)

    async def finish_turn(self, limit: float) -> bool:
        """A person caught in the middle of his turn when the people stop (see
        :func:`mid_turn`) ends it first, as people do, by ``limit`` at the latest; whether
        anyone was."""
        pressed = False
        while time.monotonic() < limit:
            try:
                game = await self._load()
            except StoreDown:
                await asyncio.sleep(0.5)
                continue
            if game is None or game.doc.id != self.current or not mid_turn(game):
                return pressed
            pressed = True
            try:
                await self._turn(game)
            except (RedisError, StoreUnavailable):
                await asyncio.sleep(0.5)
        return pressed

    # -- one match -------------------------------------------------------------------

    async def _match(self, command: str, people: int, computers: int, until: float) -> None:
        players = self.users[:people]
        self.current = None
        opened_at = 0.0
        while time.monotonic() < until:
            await self.gate.wait()
            try:
                game = await self._load()
            except StoreDown:
                await asyncio.sleep(0.5)
                continue
            if self.current is None:
                if game is not None and game.doc.status in ("lobby", "running"):
                    self.current = game.doc.id
                    self.presses[game.doc.id] = []
                elif time.monotonic() - opened_at > ANSWER_WAIT:
                    self.fake.type_text(players[0], self.chat_id, f"/newgame {command}")
                    opened_at = time.monotonic()
                await self._idle()
                continue
            if game is None or game.doc.id != self.current:
                await self._ended(self.current, players)
                return
            try:
                await self._act(game, players, computers)
            except (RedisError, StoreUnavailable):
                await asyncio.sleep(0.5)  # the store is down on purpose for a while
        self.tally.problems.append(f"chat {self.chat_id}: a match ran out of time")

    async def _act(self, game: Game, players: list[FakeUser], computers: int) -> None:
        if game.doc.status == "lobby":
            await self._lobby(game, players, computers)
        elif game.state is not None and game.state.deal_over and not game.state.match_over:
            await self._next_deal(game, players[0])
        else:
            await self._turn(game)

    async def _load(self) -> Game | None:
        try:
            return await self.truth.load(self.chat)
        except Exception as err:  # the store is down on purpose for a while
            raise StoreDown from err

    async def _lobby(self, game: Game, players: list[FakeUser], computers: int) -> None:
        seated = {s.user.user_id for s in game.doc.seats if s.user is not None}
        table = await slot_message(self.fake, self.book, table_slot(self.chat, game.doc.id))
        if table is None:
            await self._idle()
            return
        missing = [u for u in players if str(u.id) not in seated]
        robots = sum(1 for s in game.doc.seats if s.user is None)
        if missing and data_with(table, JOIN):
            await self._press(missing[0], table, data_with(table, JOIN)[0])
        elif robots < computers and data_with(table, ADD_COMPUTER):
            await self._press(players[0], table, data_with(table, ADD_COMPUTER)[0])
        elif not missing and robots >= computers and data_with(table, START):
            await self._press(players[0], table, data_with(table, START)[0])
        else:
            await self._idle()

    async def _next_deal(self, game: Game, presser: FakeUser) -> None:
        """The timer deals the next deal soon; a person may press first."""
        table = await slot_message(self.fake, self.book, table_slot(self.chat, game.doc.id))
        found = data_with(table, NEXT_DEAL) if table is not None else []
        if table is not None and found and self.rng.random() < 0.3:
            await self._press(presser, table, found[0])
        else:
            await self._idle(self.look * 4)

    async def _turn(self, game: Game) -> None:
        state = game.state
        assert state is not None
        seat = game.doc.seats[state.turn] if state.turn is not None else None
        if seat is None or seat.user is None or seat.away is not None:
            await self._idle()  # the bot's timer plays for computers
            return
        user = self.fake.users[int(seat.user.user_id)]
        hand = await slot_message(self.fake, self.book, hand_slot(user.id, game.doc.id))
        choices = hand_presses(hand, game) if hand is not None else []
        if hand is None or not choices:
            await self._wait_for_hand(game, user)
            return
        self.waiting_since = None
        data, move = self.rng.choice(choices)
        if move is None:  # a tile that fits both ends differently: the bot asks where
            await self._press(user, hand, data)
            return
        press = Press(game.doc.id, state.counter, state.turn or 0, str(move))
        self.presses[game.doc.id].append(press)
        self.moved_at = time.monotonic()  # the table's next edit ends this press's wait
        press.answer = await self._press(user, hand, data)

    async def _wait_for_hand(self, game: Game, user: FakeUser) -> None:
        """The hand is not drawn yet: wait, and after a while ask for it as people do."""
        now = time.monotonic()
        if self.waiting_since is None:
            self.waiting_since = now
        if now - self.waiting_since > self.hand_wait:
            self.waiting_since = now
            table = await slot_message(self.fake, self.book, table_slot(self.chat, game.doc.id))
            found = data_with(table, MY_TILES) if table is not None else []
            if table is not None and found:
                self.tally.hands_asked += 1
                await self._press(user, table, found[0])
        await self._idle()

    async def _press(
        self, user: FakeUser, message: dict[str, Any], data: str
    ) -> dict[str, Any] | None:
        """Press and wait for the popup; ``None`` if none came (the bot was killed)."""
        self.tally.presses += 1
        pressed = time.monotonic()
        query = self.fake.press(user, message, data)
        deadline = time.monotonic() + ANSWER_WAIT
        if self.answer_events is not None:
            came = self.answer_events[query] = asyncio.Event()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(came.wait(), ANSWER_WAIT)
            self.answer_events.pop(query, None)
            if came.is_set():
                self.tally.press_to_answer.append(time.monotonic() - pressed)
            deadline = time.monotonic() + 0.5 if came.is_set() else 0.0  # being recorded
        while True:
            answer = self.fake.answered.get(query)
            if answer is not None:
                if not applied(answer):
                    self.tally.refused += 1
                return answer
            if time.monotonic() >= deadline:
                break
            await asyncio.sleep(0.01)
        self.tally.unanswered += 1
        return None

    # -- the checks ------------------------------------------------------------------

    async def _ended(self, game_id: str, players: list[FakeUser]) -> None:
        doc = await self._last_doc(game_id)
        if doc is None:
            return  # a lobby that was never dealt: nothing to check
        self.tally.games += 1
        self._check_moves(doc)
        if doc.status == "finished":
            sat = {s.user.user_id for s in doc.seats if s.user is not None}
            self.finished[game_id] = (doc.variant, sat)
            await self._check_table_shows_end(game_id)

    async def _last_doc(self, game_id: str) -> GameDoc | None:
        while True:
            try:
                last = await self.truth.store.last_game(self.chat)
                break
            except Exception:
                await asyncio.sleep(0.5)
        if last is None or last.get("id") != game_id:
            if self.presses.get(game_id):
                self.tally.problems.append(f"game {game_id}: played, then not kept as last game")
            return None
        return from_json(last)

    def _check_moves(self, doc: GameDoc) -> None:
        check_moves(doc, self.presses.get(doc.id, []), self.tally)

    async def _check_table_shows_end(self, game_id: str) -> None:
        deadline = time.monotonic() + END_WAIT
        while time.monotonic() < deadline:
            try:
                table = await slot_message(self.fake, self.book, table_slot(self.chat, game_id))
            except Exception:
                table = None
            if table is not None and "The match is over" in str(table.get("text", "")):
                return
            await asyncio.sleep(0.2)
        self.tally.problems.append(f"chat {self.chat_id}: table of {game_id} never showed the end")

    async def stored(self) -> tuple[str, int] | None:
        """The group's game and the version the store holds of it, or its last game and
        the version it ended at; ``None`` before any."""
        game = await self.truth.load(self.chat)
        if game is not None:
            return game.doc.id, game.version
        ended = await self.truth.store.last_ended(self.chat)
        if ended is None:
            return None
        version, doc = ended
        return str(doc["id"]), version

    async def table_shows_store(self) -> bool:
        """Whether the group's table shows the version the store holds of its game, or
        of its last game once that ended."""
        stored = await self.stored()
        if stored is None:
            return True
        game_id, version = stored
        return await shown_version(self.redis, table_slot(self.chat, game_id)) == version

    async def check_unfinished(self) -> None:
        """Check the presses of the match the end of the run cut short against the store."""
        game = await self.truth.load(self.chat)
        if self.current is not None and game is not None and game.doc.id == self.current:
            self._check_moves(game.doc)

    async def check_scoreboard(self) -> None:
        """Each person's matches on the chat's board of each game are the finished
        matches of that game he sat in."""
        for variant in sorted({v for v, _sat in self.finished.values()}):
            board = await self.truth.store.scoreboard(self.chat, variant, top=50)
            played = {row.user_key: row.played for row in board.rows}
            for user in self.users:
                key = f"tg:{user.id}"
                expected = sum(
                    1 for v, sat in self.finished.values() if v == variant and str(user.id) in sat
                )
                if played.get(key, 0) != expected:
                    self.tally.problems.append(
                        f"chat {self.chat_id}: {user.first_name} has {played.get(key, 0)} "
                        f"{variant} matches on the board, played {expected}"
                    )
