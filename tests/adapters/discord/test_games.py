"""Whole matches of every game through the real client and the real core: two people
(and a computer where the game needs a third seat) press only buttons the bot sent,
until the scoreboard shows the match."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest
import redis.asyncio as aredis

from adapters.discord.components import CUSTOM_ID_LIMIT
from bot import catalog, codec
from bot.contract import ChatRef
from bot.gamedoc import from_json
from bot.replay import build_state
from bot.sessions import Sessions
from bot.store import Store
from engine import Tile
from tests.adapters.discord.conftest import ALICE, BOB
from tests.adapters.discord.fake_api import EPHEMERAL, FakeDiscord, Json
from tests.adapters.discord.gateway import Person
from tests.adapters.discord.harness import (
    CHANNEL_ID,
    OTHER_CHANNEL_ID,
    Bot,
    buttons_of,
    payloads_of,
)

CHAT = ChatRef("dc", str(CHANNEL_ID))
MAX_STEPS = 3000


@dataclass(frozen=True)
class QuickSettings:
    """No turn timer, computers and deals without a pause: the match runs on presses
    and timer rounds alone."""

    turn_timeout: int = 0
    computer_delay: float = 0.0
    next_deal_delay: float = 0.0
    timeouts_before_takeover: int = 3
    default_lang: str = "en"


async def boot_bot(fake: FakeDiscord, redis_client: aredis.Redis) -> Bot:
    """A bot process: its own core and client over the shared Redis."""
    store = Store(redis_client)
    return await Bot.boot(fake, Sessions(store, QuickSettings()), redis_client, store, [ALICE, BOB])


@pytest.fixture
async def bot(fake: FakeDiscord, redis_client: aredis.Redis) -> AsyncIterator[Bot]:
    running = await boot_bot(fake, redis_client)
    try:
        yield running
    finally:
        await running.close()


class Referee:
    """Watches everything the bot sends while a match is played in one channel."""

    def __init__(self, bot: Bot, store: Store, channel: int = CHANNEL_ID) -> None:
        self.bot = bot
        self.store = store
        self.channel = channel
        self.seen = 0

    async def state(self) -> tuple[Any, Any] | None:
        stored = await self.store.load(ChatRef("dc", str(self.channel)))
        if stored is None:
            return None
        doc = from_json(stored.doc)
        return doc, (build_state(doc) if doc.deals else None)

    async def check(self) -> None:
        """No hand's tile reaches the channel while a deal runs; a hand reaches only
        its owner; every custom id fits."""
        events = [
            e
            for e in self.bot.fake.events[self.seen :]
            if int(e.message["channel_id"]) == self.channel
        ]
        self.seen = len(self.bot.fake.events)
        found = await self.state()
        for event in events:
            for button in buttons_of(event.message):
                assert len(button.get("custom_id", "")) <= CUSTOM_ID_LIMIT
        if found is None or found[1] is None or found[1].deal_over:
            return
        doc, state = found
        for event in events:
            text = _plain(event.message)
            if event.action == "delete" or "is over." in text:
                continue  # a deal's summary shows the hands, by the rules
            owner = self._owner(event.message)
            for seat, hand in enumerate(state.hands):
                user = doc.seats[seat].user
                if owner is not None and user is not None and user.user_id == str(owner):
                    continue
                leaked = [t for t in hand if _shown(t, text)]
                assert not leaked, f"{leaked} of seat {seat} shown in {event.message['content']!r}"

    def _owner(self, message: Json) -> int | None:
        """Who alone sees an ephemeral message (``None`` for channel messages)."""
        if not message.get("flags", 0) & EPHEMERAL:
            return None
        message_id = int(message["id"])
        for record in self.bot.fake.interactions.values():
            if message_id in (record.original_id, *record.followup_ids):
                return record.user_id
        raise AssertionError("an ephemeral message that no interaction made")


def _plain(message: Json) -> str:
    parts = [message.get("content") or ""]
    parts += [e.get("description") or "" for e in message.get("embeds") or []]
    return "\n".join(parts).replace("\\", "")


def _shown(tile: Tile, text: str) -> bool:
    return f"[{tile.hi}|{tile.lo}]" in text or f"[{tile.lo}|{tile.hi}]" in text


def table_message(bot: Bot, channel: int = CHANNEL_ID) -> Json:
    tables = [
        m
        for m in bot.fake.live_channel_messages(channel)
        if any(isinstance(_decode(p), (codec.LobbyPress, codec.TilesPress)) for p in payloads_of(m))
    ]
    assert tables, "no table message with buttons in the channel"
    return tables[-1]


def _decode(payload: str) -> codec.Action | None:
    try:
        return codec.decode(payload)
    except codec.BadPayload:
        return None


def custom_id_for(message: Json, wanted: type, **fields: Any) -> str | None:
    for button in buttons_of(message):
        if button.get("disabled") or "custom_id" not in button:
            continue
        payload = button["custom_id"].split(":", 1)[1]
        action = _decode(payload)
        if isinstance(action, wanted) and all(getattr(action, k) == v for k, v in fields.items()):
            return str(button["custom_id"])
    return None


async def open_table(
    bot: Bot, variant: str, computers: int, channel: int = CHANNEL_ID, **options: Any
) -> None:
    await bot.command(ALICE, "new", channel=channel, variant=variant, **options)
    lobby = table_message(bot, channel)
    join = custom_id_for(lobby, codec.LobbyPress, action="join")
    assert join is not None
    await bot.press(BOB, lobby, join)
    for _ in range(computers):
        lobby = table_message(bot, channel)
        add = custom_id_for(lobby, codec.LobbyPress, action="add_computer")
        assert add is not None
        await bot.press(ALICE, lobby, add)
    lobby = table_message(bot, channel)
    start = custom_id_for(lobby, codec.LobbyPress, action="start")
    assert start is not None
    await bot.press(ALICE, lobby, start)


async def move_once(bot: Bot, person: Person, counter: int, channel: int = CHANNEL_ID) -> None:
    """Press a move in the person's newest hand in the channel, asking for the hand
    first if the newest one he has is not for this turn."""
    mine = [m for m in bot.owned_ephemeral(person) if int(m["channel_id"]) == channel]
    hand = mine[-1] if mine else None
    move = custom_id_for(hand, codec.MovePress, counter=counter) if hand else None
    if move is None:
        table = table_message(bot, channel)
        tiles = custom_id_for(table, codec.TilesPress)
        assert tiles is not None, "the table offers no My tiles button"
        record = await bot.press(person, table, tiles)
        hand = bot.reply_to(record)
        assert hand["flags"] & EPHEMERAL
        move = custom_id_for(hand, codec.MovePress, counter=counter)
    assert hand is not None and move is not None, f"{person.name} has no move to press"
    await bot.press(person, hand, move)


async def play_to_the_end(bot: Bot, *referees: Referee) -> None:
    """Play the matches of the referees' channels, one move in each in turn."""
    playing = list(referees)
    for _ in range(MAX_STEPS):
        for referee in list(playing):
            if not await play_one(bot, referee):
                playing.remove(referee)
        if not playing:
            return
    raise AssertionError("a match did not end")


async def play_one(bot: Bot, referee: Referee) -> bool:
    """One step of the match in the referee's channel; ``False`` once it is over."""
    await referee.check()
    found = await referee.state()
    if found is None or not found[0].active:
        return False
    doc, state = found
    seat = state.turn if state is not None and not state.deal_over else None
    user = doc.seats[seat].user if seat is not None else None
    if user is not None and doc.seats[seat].present:
        people = {str(p.id): p for p in bot.people}
        await move_once(bot, people[user.user_id], state.counter, referee.channel)
    else:
        await bot.adapter.tick()  # computers, and the next deal
    return True


# Options that make a match short; a game not listed here plays with its defaults.
QUICK: dict[str, dict[str, Any]] = {
    "tyaga": {"target": 10},
    "kozel": {"target": 11},
    "baghdad": {"match": "deals:2"},
}
GAMES = [
    pytest.param(v.name, max(0, v.min_players - 2), QUICK.get(v.name, {}), id=v.name)
    for v in catalog.variants()
]


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "computers", "options"), GAMES)
async def test_a_whole_match_is_played_with_buttons_to_the_scoreboard(
    bot: Bot, redis_client: aredis.Redis, variant: str, computers: int, options: dict[str, Any]
) -> None:
    referee = Referee(bot, Store(redis_client))
    await open_table(bot, variant, computers, **options)
    await play_to_the_end(bot, referee)
    await referee.check()

    summaries = [_plain(e.message) for e in bot.fake.channel_events(CHANNEL_ID)]
    assert any("The match is over" in text for text in summaries)
    record = await bot.command(BOB, "scores", variant=variant)
    board = _plain(bot.reply_to(record))
    assert re.search("Alice", board) and re.search("Bob", board)
    with_moves = [e.message for e in bot.fake.events if _moves_on(e.message)]
    assert with_moves, "no hand was ever shown"
    assert all(m["flags"] & EPHEMERAL for m in with_moves), "a hand reached the channel"
    on_hands = [
        r
        for r in bot.fake.interactions.values()
        if _moves_on(r.pressed) and r.pressed["flags"] & EPHEMERAL
    ]
    assert on_hands and all(r.callbacks[0]["type"] == 7 for r in on_hands)


def _moves_on(message: Json) -> bool:
    return any(isinstance(_decode(p), codec.MovePress) for p in payloads_of(message))


@pytest.mark.slow
async def test_open_my_hand_answers_with_the_hand_as_an_ephemeral_message(bot: Bot) -> None:
    await open_table(bot, "tyaga", 0)
    table = table_message(bot)
    link = next(b for b in buttons_of(table) if b["custom_id"].startswith("ds"))
    for person in (ALICE, BOB):
        record = await bot.press(person, table, link["custom_id"])
        reply = bot.reply_to(record)
        assert record.callbacks[0]["type"] == 4
        assert reply["flags"] & EPHEMERAL
        assert "Your tiles" in _plain(reply)


@pytest.mark.slow
async def test_pings_mention_the_player_to_move_and_are_gone_when_he_has_moved(
    bot: Bot, redis_client: aredis.Redis
) -> None:
    await open_table(bot, "tyaga", 0, target=10)
    await play_to_the_end(bot, Referee(bot, Store(redis_client)))
    pings = [
        e.message
        for e in bot.fake.channel_events(CHANNEL_ID)
        if e.action == "create" and "Your turn" in e.message["content"]
    ]
    mentioned = {m["content"].split(">", 1)[0] + ">" for m in pings}
    assert mentioned == {f"<@{ALICE.id}>", f"<@{BOB.id}>"}
    assert all(m["allowed_mentions"]["parse"] == ["users"] for m in pings)
    live = {m["id"] for m in bot.fake.live_channel_messages(CHANNEL_ID)}
    assert not live & {m["id"] for m in pings}


@pytest.mark.slow
async def test_a_match_goes_on_after_a_restart_with_the_buttons_sent_before_it(
    fake: FakeDiscord, redis_client: aredis.Redis
) -> None:
    first = await boot_bot(fake, redis_client)
    await open_table(first, "kozel", 0, target=11)
    referee = Referee(first, Store(redis_client))
    found = await referee.state()
    assert found is not None and found[1] is not None
    doc, state = found
    mover = ALICE if doc.seats[state.turn].user.user_id == str(ALICE.id) else BOB
    record = await first.press(mover, table_message(first), _tiles_id(first))
    hand = first.reply_to(record)
    await first.close()

    second = await boot_bot(fake, redis_client)
    try:
        move = custom_id_for(hand, codec.MovePress, counter=state.counter)
        assert move is not None
        pressed = await second.press(mover, hand, move)
        assert pressed.callbacks[0]["type"] == 7
        referee.bot = second
        after = await referee.state()
        assert after is not None and after[1].counter > state.counter  # the move applied
        await play_to_the_end(second, referee)
        assert any("The match is over" in _plain(e.message) for e in fake.channel_events())
    finally:
        await second.close()


def _tiles_id(bot: Bot) -> str:
    found = custom_id_for(table_message(bot), codec.TilesPress)
    assert found is not None
    return found


@pytest.mark.slow
async def test_tables_in_two_channels_are_played_at_once_each_in_its_own_channel(
    bot: Bot, redis_client: aredis.Redis
) -> None:
    await open_table(bot, "tyaga", 0, CHANNEL_ID, target=10)
    await open_table(bot, "kozel", 0, OTHER_CHANNEL_ID, target=11)
    store = Store(redis_client)
    here, there = Referee(bot, store, CHANNEL_ID), Referee(bot, store, OTHER_CHANNEL_ID)
    await play_to_the_end(bot, here, there)
    for channel, title in ((CHANNEL_ID, "Tyaga"), (OTHER_CHANNEL_ID, "Kozel")):
        texts = [_plain(e.message) for e in bot.fake.channel_events(channel)]
        assert any("The match is over" in t for t in texts)
        assert all(title in t for t in texts if "table" in t)
