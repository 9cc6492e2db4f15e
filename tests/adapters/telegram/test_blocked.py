"""A player who blocked the bot: Telegram refuses his hand with 403 "bot was blocked by
the user" at the start, the group is told once with a button that opens his hand, his
turns run on the short timer for players the bot cannot reach rather than the table's
turn timer, and once the timeouts have given his seat to a computer and he has unblocked
the bot, ``/join`` gives it back to him, as ``/help`` says."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import redis.asyncio as aredis

from bot.app.config import Settings
from bot.model.gamedoc import TIMED_OUT
from bot.storage.store import Store
from bot.table.sessions import Sessions
from tests.adapters.delivery.vclock import VirtualClock
from tests.adapters.telegram.driver import Driver, Played
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakewire import BLOCKED
from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.harness import running, settings_for
from tests.adapters.telegram.tables import GROUP_ID, PACE, open_table, start

TIMER = 60  # the table's turn timer
SHORT = Settings.model_fields["unreachable_turn_timeout"].default
TAKEOVER = Settings.model_fields["timeouts_before_takeover"].default


async def _until(look: Any, what: str, seconds: float = 20.0) -> Any:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not (found := await look()):
        assert loop.time() < deadline, f"never: {what}"
        await asyncio.sleep(0.02)
    return found


async def test_a_blocked_player_plays_on_the_short_timer_and_join_gives_his_seat_back(
    fake: FakeBotApi,
    clock: VirtualClock,
    store: Store,
    adapter_redis: aredis.Redis,
    people: dict[str, FakeUser],
) -> None:
    ann, bob = people["ann"], people["bob"]
    fake.blocked.add(bob.id)
    settings = settings_for(fake, **PACE)
    assert settings.turn_timeout == TIMER and SHORT < TIMER
    sessions = Sessions(store, settings, clock=clock.now, rng=random.Random(3))
    async with running(fake, sessions, clock, redis=adapter_redis, **PACE) as bot:
        d = Driver(fake, bot, store, adapter_redis, GROUP_ID)
        d.seat(ann, bob)
        game_id = await open_table(d, ann, "/newgame tyaga target=200", bob)
        await start(d, ann, game_id)
        await bot.drain()
        refused = [c for c in fake.calls if c.chat_id == bob.id and c.status == 403]
        assert refused and {c.error for c in refused} == {BLOCKED}
        notes = [
            m
            for m in fake.bot_messages(GROUP_ID)
            if "cannot write to you privately" in m.get("text", "")
        ]
        assert len(notes) == 1 and "Bob" in notes[0]["text"]
        assert d.link_offered_to(bob) is not None  # the note's "Open my hand"

        played, rng, timeouts = Played(game_id), random.Random(4), 0
        while timeouts < TAKEOVER:
            game = await d.game()
            assert game is not None and game.state is not None and game.doc.due is not None
            seat = game.state.turn
            assert seat is not None
            if seat != _seat_of(game, bob):
                assert game.doc.due.at - clock.now() > SHORT  # Ann has the table's timer
                await d.step(played, rng)
                continue
            assert game.doc.seats[seat].unreachable
            assert game.doc.due.at - clock.now() <= SHORT  # his turn is short
            moves = len(game.doc.moves)
            clock.advance(SHORT)

            async def timed_out(before: int = moves) -> bool:
                now = await d.game()
                return now is not None and len(now.doc.moves) > before

            await _until(timed_out, "his turn timed out")
            timeouts += 1
            await bot.drain()
        game = await d.game()
        assert game is not None and game.doc.seats[_seat_of(game, bob)].away == TIMED_OUT

        fake.open_bot(bob)  # he unblocks the bot, which sends it a bare /start
        await bot.drain()
        await d.say(bob, "/join")
        game = await d.game()
        assert game is not None and game.doc.id == game_id
        held = game.doc.seats[_seat_of(game, bob)]
        assert held.away is None and not held.unreachable
        hand = await _until(lambda: d.hand(bob, game_id), "his hand in his private chat")
        assert hand["chat"]["id"] == bob.id and hand.get("reply_markup")


def _seat_of(game: Any, user: FakeUser) -> int:
    return next(
        n
        for n, s in enumerate(game.doc.seats)
        if s.user is not None and s.user.user_id == str(user.id)
    )
