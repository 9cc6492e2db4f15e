"""Fixtures and steps shared by the whole-match tests: the real core on a real Redis,
the bot service in front of it, the people, and opening and starting a table."""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any, NamedTuple

import pytest
import redis.asyncio as aredis

from adapters.telegram.budget import GROUP_RULES, PRIVATE_RULES
from adapters.telegram.render import CALLBACK_DATA_LIMIT
from bot.model.decision import Game
from bot.storage.store import Store, connect
from bot.table.sessions import Sessions
from engine import State
from tests.adapters.delivery.test_limiter import assert_keeps
from tests.adapters.delivery.vclock import VirtualClock
from tests.adapters.telegram.driver import Driver, Played
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakewire import NOT_MODIFIED
from tests.adapters.telegram.fakeworld import Call, FakeUser
from tests.adapters.telegram.harness import Running, running, settings_for
from tests.adapters.telegram.players import data_with, every_button_sent, hand_presses

GROUP_ID = -100500
FORUM_ID = -100600
JOIN, START, ADD_COMPUTER, MY_TILES = "1j_", "1s_", "1a_", "1t_"
PACE = {"computer_delay": 0.0, "next_deal_delay": 3600.0}
WON_BY = re.compile(r"The match is over\. Won by (.+)\.$", re.MULTILINE)
SCORE_ROW = re.compile(  # a person's name inside its isolates, as every text names him
    r"\d+\. \u2068(.+)\u2069: won (\d+) of (\d+) \(\d+%\), "
    r"(?:-?\d+ (?:points?|camels?|tokens?)|the goat \d+ times?)"
)


@pytest.fixture
async def store(redis_url: str) -> AsyncIterator[Store]:
    client = connect(redis_url, timeout=30.0)  # a busy test machine is slow
    await client.flushdb()
    store = Store(client)
    try:
        yield store
    finally:
        await store.close()


@pytest.fixture
async def adapter_redis(redis_url: str) -> AsyncIterator[aredis.Redis]:
    client = aredis.Redis.from_url(redis_url, decode_responses=True)
    try:
        yield client
    finally:
        await client.aclose()


@pytest.fixture
async def service(
    fake: FakeBotApi, clock: VirtualClock, store: Store, adapter_redis: aredis.Redis
) -> AsyncIterator[Running]:
    sessions = Sessions(store, settings_for(fake, **PACE), rng=random.Random(11))
    async with running(fake, sessions, clock, redis=adapter_redis, **PACE) as bot:
        yield bot


@pytest.fixture
def people(fake: FakeBotApi) -> dict[str, FakeUser]:
    fake.add_group(GROUP_ID, "Dominoes")
    fake.add_group(FORUM_ID, "Club", forum=True)
    users = {
        "ann": fake.add_user(101, "Ann"),
        "bob": fake.add_user(102, "Bob"),
        "cy": fake.add_user(103, "Cy"),
    }
    fake.started.update({101, 102})  # Cy has never opened the bot
    fake.admins[GROUP_ID] = {101}
    return users


@pytest.fixture
def make_driver(
    fake: FakeBotApi, service: Running, store: Store, adapter_redis: aredis.Redis
) -> Iterator[Any]:
    """Makes drivers; whatever a test did, none of their groups was shown a hand tile."""
    made: list[Driver] = []

    def make(chat_id: int = GROUP_ID, thread: int | None = None) -> Driver:
        made.append(Driver(fake, service, store, adapter_redis, chat_id, thread))
        return made[-1]

    yield make
    for driver in made:
        driver.assert_no_hand_in_group()


async def open_table(d: Driver, host: FakeUser, command: str, *joining: FakeUser) -> str:
    """The host opens a lobby with ``command``; the others press its Join button."""
    await d.say(host, command)
    game = await d.game()
    assert game is not None, "no lobby opened"
    for user in joining:
        lobby = await d.table(game.doc.id)
        answer = await d.press(user, lobby, data_with(lobby, JOIN)[0])
        assert not answer.get("show_alert"), answer
    return game.doc.id


async def start(d: Driver, host: FakeUser, game_id: str) -> None:
    lobby = await d.table(game_id)
    await d.press(host, lobby, data_with(lobby, START)[0])
    game = await d.game()
    assert game is not None and game.doc.status == "running", "the game did not start"


async def started_table(d: Driver, host: FakeUser, command: str, *joining: FakeUser) -> str:
    """The host and the others take seats at a table opened with ``command``, and the
    host starts it: the game's id."""
    d.seat(host, *joining)
    game_id = await open_table(d, host, command, *joining)
    await start(d, host, game_id)
    return game_id


class Turn(NamedTuple):
    """A running game at a turn: its state, the seat to move and who sits there."""

    game: Game
    state: State[Any]
    seat: int
    mover: FakeUser


async def turn_now(d: Driver) -> Turn:
    game = await d.game()
    assert game is not None and game.state is not None and game.state.turn is not None
    seat = game.state.turn
    user = game.doc.seats[seat].user
    assert user is not None
    return Turn(game, game.state, seat, d.people[user.user_id])


async def first_mover(d: Driver, game_id: str) -> tuple[FakeUser, dict[str, Any], str]:
    """Who is to move, his hand message and one of the moves it offers."""
    game, _, _, user = await turn_now(d)
    hand = await d.hand(user, game_id)
    assert hand is not None, f"{user.first_name} has no hand"
    moves = [data for data, move in hand_presses(hand, game) if move is not None]
    assert moves, f"{user.first_name}'s hand offers no move"
    return user, hand, moves[0]


async def move_once(d: Driver, game_id: str) -> None:
    """The player to move makes one of the moves his hand offers, and it is taken."""
    user, hand, move = await first_mover(d, game_id)
    answer = await d.press(user, hand, move)
    assert not answer.get("text"), answer


#: The calls that put or change a message in a chat.
WRITES = ("sendMessage", "editMessageText", "sendDocument", "sendPhoto", "editMessageMedia")


def message_text(message: dict[str, Any]) -> str:
    """A message's text, or a photo's caption."""
    return str(message.get("text", message.get("caption", "")))


def writes(fake: FakeBotApi, chat_id: int) -> list[Call]:
    """Messages and edits the bot made in a chat (what Telegram's limits count)."""
    return [c for c in fake.calls if c.method in WRITES and c.chat_id == chat_id]


def assert_platform_rules_kept(
    fake: FakeBotApi, people: dict[str, FakeUser], caused: Sequence[str] = ()
) -> None:
    """What every whole-match test checks about how the bot used Telegram; ``caused``
    are refusals the test brought about itself."""
    assert fake.open_queries == {}, "a press was never answered"
    assert all(c.status == 200 for c in fake.calls_to("answerCallbackQuery"))
    for button in every_button_sent(fake):
        if "callback_data" in button:
            assert len(button["callback_data"].encode()) <= CALLBACK_DATA_LIMIT
    refused = [
        c
        for c in fake.calls
        if c.status >= 400 and not _expected_refusal(c) and c.error not in caused
    ]
    assert refused == [], [(c.method, c.error) for c in refused]
    for chat_id in {c.chat_id for c in fake.calls if c.chat_id is not None}:
        moments = [c.at for c in writes(fake, chat_id)]
        assert_keeps(moments, GROUP_RULES if chat_id < 0 else PRIVATE_RULES)
    hand_chats = {c.chat_id for c in fake.calls if "Your tiles" in str(c.params.get("text", ""))}
    assert hand_chats <= {u.id for u in people.values()}, "a hand went to a group"


def _expected_refusal(call: Call) -> bool:
    """Refusals the bot is built to meet: an unchanged edit, a player it cannot reach."""
    if call.error == NOT_MODIFIED:
        return True
    return call.status == 403 and call.chat_id is not None and call.chat_id > 0


def assert_match_over(fake: FakeBotApi, played: Played, chat_id: int = GROUP_ID) -> None:
    texts = [message_text(m) for m in fake.bot_messages(chat_id)]
    assert any("The match is over" in t for t in texts), texts[-3:]
    assert played.moves > 0


async def assert_scoreboard_counts_the_match(
    d: Driver, asker: FakeUser, players: Sequence[FakeUser]
) -> None:
    """/scores after one match: each person who played it has played one, its winners
    (unless a computer won) have won it and rank first, and nobody else is listed."""
    texts = [message_text(m) for m in d.fake.bot_messages(d.chat_id, d.thread)]
    (won_by,) = {m.group(1) for t in texts for m in [WON_BY.search(t)] if m}
    # People's names are isolated, computers' labels are not.
    winners = {name.removeprefix("\u2068").removesuffix("\u2069") for name in won_by.split(", ")}
    await d.say(asker, "/scores")
    boards = [
        message_text(m)
        for m in d.fake.bot_messages(d.chat_id, d.thread)
        if "Scoreboard" in message_text(m)
    ]
    assert boards, "no scoreboard"
    rows = [SCORE_ROW.fullmatch(row) for row in boards[-1].splitlines()[1:]]
    assert all(rows), boards[-1]
    listed = [(m.group(1), int(m.group(2)), int(m.group(3))) for m in rows if m]
    expected = {(p.first_name, int(p.first_name in winners), 1) for p in players}
    assert set(listed) == expected and len(listed) == len(expected), boards[-1]
    ranked = [name for name, won, _ in listed]
    human_winners = winners & {p.first_name for p in players}
    assert set(ranked[: len(human_winners)]) == human_winners, boards[-1]
