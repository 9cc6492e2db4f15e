"""Whole matches through the real client and the real core, as people play them:
two people (and a computer where a game needs a third seat) press only buttons the
bot sent, until the match is over. Shared by the adapter tests and the benchmark."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

import redis.asyncio as aredis

from adapters.discord.components import CUSTOM_ID_LIMIT
from bot.model import codec
from bot.model.contract import ChatRef
from bot.model.game_state import build_state
from bot.model.gamedoc import from_json
from bot.storage.store import Store
from bot.table.sessions import Sessions
from engine import Tile
from tests.adapters.discord.conftest import ALICE, BOB, CAROL
from tests.adapters.discord.fake_api import EPHEMERAL, FakeDiscord, Json
from tests.adapters.discord.gateway import Person
from tests.adapters.discord.harness import CHANNEL_ID, Bot, buttons_of, payloads_of

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
    ai_seconds: float = 0.05
    ai_worlds: int | None = 4  # computers' choices follow the seed alone


async def boot_bot(fake: FakeDiscord, redis_client: aredis.Redis, seed: int | None = None) -> Bot:
    """A bot process: its own core and client over the shared Redis; ``seed`` fixes
    the games' ids and deals."""
    store = Store(redis_client)
    rng = random.Random(seed) if seed is not None else None
    core = Sessions(store, QuickSettings(), rng=rng)
    return await Bot.boot(fake, core, redis_client, [ALICE, BOB, CAROL])


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

    async def is_on(self) -> bool:
        """Whether the channel's match is still being played."""
        found = await self.state()
        return found is not None and bool(found[0].active)

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
            text = plain_text(event.message)
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


def plain_text(message: Json) -> str:
    parts = [message.get("content") or ""]
    for embed in message.get("embeds") or []:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        parts += [f"{f['name']}: {f['value']}" for f in embed.get("fields") or []]
    return "\n".join(parts).replace("\\", "")


def _shown(tile: Tile, text: str) -> bool:
    return f"[{tile.hi}|{tile.lo}]" in text or f"[{tile.lo}|{tile.hi}]" in text


def table_message(bot: Bot, channel: int = CHANNEL_ID) -> Json:
    tables = [
        m
        for m in bot.fake.live_channel_messages(channel)
        if any(isinstance(decode(p), (codec.LobbyPress, codec.TilesPress)) for p in payloads_of(m))
    ]
    assert tables, "no table message with buttons in the channel"
    return tables[-1]


def decode(payload: str) -> codec.Action | None:
    try:
        return codec.decode(payload)
    except codec.BadPayload:
        return None


def custom_id_for(message: Json, wanted: type, **fields: Any) -> str | None:
    for button in buttons_of(message):
        if button.get("disabled") or "custom_id" not in button:
            continue
        payload = button["custom_id"].split(":", 1)[1]
        action = decode(payload)
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


async def look_at_the_picture(bot: Bot, person: Person, channel: int = CHANNEL_ID) -> bool:
    """Press the live table's Picture button, as someone watching does; ``False``
    when there is no table with one."""
    tables = [
        m
        for m in bot.fake.live_channel_messages(channel)
        if custom_id_for(m, codec.PicturePress) is not None
    ]
    if not tables:
        return False
    table = tables[-1]
    picture = custom_id_for(table, codec.PicturePress)
    assert picture is not None
    await bot.press(person, table, picture)
    return True


async def play_to_the_end(bot: Bot, *referees: Referee, spectator: Person | None = None) -> None:
    """Play the matches of the referees' channels, one move in each in turn. Every
    referee checks what its channel was sent after each step, whichever channel the
    step was for: a timer round serves every channel, so a step in one can begin the
    next deal in another, and what that channel was sent before (the hands of the deal
    just ended) must be checked against the deal it was sent in, not the new hands."""
    playing = list(referees)
    for _ in range(MAX_STEPS):
        for referee in list(playing):
            if not await play_one(bot, referee):
                playing.remove(referee)
            elif spectator is not None and await referee.is_on():
                await look_at_the_picture(bot, spectator, referee.channel)
            for watching in playing:
                await watching.check()
        if not playing:
            return
    raise AssertionError("a match did not end")


async def a_match_played(
    bot: Bot, redis_client: aredis.Redis, variant: str, **options: Any
) -> None:
    """Alice and Bob open a table of ``variant`` and play it to the end, refereed."""
    await open_table(bot, variant, 0, **options)
    await play_to_the_end(bot, Referee(bot, Store(redis_client)))


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
        await bot.tick()  # computers, and the next deal
    return True


# Options that make a match short; a game not listed here plays with its defaults.
QUICK: dict[str, dict[str, Any]] = {
    "tyaga": {"target": 10},
    "kozel": {"target": 11},
    "baghdad": {"match": "deals:2"},
}


_CALLBACK = re.compile(r"/interactions/[0-9]+/[^/]+/callback")


def rest_calls(fake: FakeDiscord, since: int = 0) -> int:
    """REST requests made since the ``since``-th one, not counting the interactions'
    own responses (each interaction is answered once whatever the bot does)."""
    return sum(1 for _, _m, path, _s in fake.requests[since:] if not _CALLBACK.fullmatch(path))


MOST_REQUESTS_PER_MOVE = 2.5  # REST requests per accepted move, on average over a whole match


@dataclass(frozen=True)
class Tally:
    """What one whole match cost: REST requests, and the moves the engine accepted
    (forced and computer moves included)."""

    variant: str
    moves: int
    calls: int

    @property
    def per_move(self) -> float:
        return self.calls / self.moves if self.moves else 0.0


async def tally_match(
    bot: Bot,
    store: Store,
    variant: str,
    computers: int,
    options: dict[str, Any],
    spectator: Person | None = None,
) -> Tally:
    """Play a whole match from ``new`` to its end and count what it cost, with a
    ``spectator`` pressing Picture after every step if one is given."""
    since = len(bot.fake.requests)
    await open_table(bot, variant, computers, **options)
    await play_to_the_end(bot, Referee(bot, store), spectator=spectator)
    last = await store.last_game(CHAT)
    assert last is not None, "the finished match was not kept"
    return Tally(variant, len(from_json(last).moves), rest_calls(bot.fake, since))
