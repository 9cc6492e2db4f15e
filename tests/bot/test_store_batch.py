"""Writes of different games made together go to Redis in one round trip, and each writer
gets its own answer: its write done, or lost with the game as it is now, or the store
unavailable."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest
import redis.asyncio as aredis

from bot.model.contract import ChatRef
from bot.storage.connect import connect
from bot.storage.store import GameWrite, Store, StoreUnavailable, TimerChange
from tests.bot.stored import write
from tests.bot.test_launch_eviction import own_redis

ONE, TWO, THREE = ChatRef("tg", "-1001"), ChatRef("tg", "-1002"), ChatRef("tg", "-1003")


async def test_writes_made_together_share_one_round_trip_and_each_gets_its_own_answer(
    store: Store, round_trips: list[int]
) -> None:
    for chat, game_id in ((ONE, "g1"), (TWO, "g2"), (THREE, "g3")):
        assert await write(store, chat, {"id": game_id, "moves": [[0, "6-6"]]})
    # The third game had a deadline (so the server knows the timer's script, which one
    # that never ran it would take a round trip more to learn).
    await store.schedule(THREE, "g3", 1, 50.0)
    ahead = GameWrite(1, "g1", '{"id":"g1"}', moves=["1:6-5@R"], moves_before=1, held="g1")
    stale = GameWrite(0, "g2", '{"id":"g2"}', moves=["1:6-4@R"], moves_before=1, held="g2")
    timed = GameWrite(1, "g3", '{"id":"g3"}', moves=["1:6-3@R"], moves_before=1, held="g3")
    round_trips.clear()
    one, two, three = await asyncio.gather(
        store.write_game(ONE, ahead),
        store.write_game(TWO, stale),
        store.write_game(THREE, timed, TimerChange(2, 100.0)),
    )
    assert len(round_trips) == 1
    assert one.ok and three.ok
    assert not two.ok and two.current is not None
    assert (two.current.version, json.loads(two.current.head)["id"]) == (1, "g2")
    stored = [await store.load(chat) for chat in (ONE, TWO, THREE)]
    assert [s.version if s else None for s in stored] == [2, 1, 2]
    assert [s.doc["moves"][-1] if s else None for s in stored] == [
        [1, "6-5@R"],
        [0, "6-6"],
        [1, "6-3@R"],
    ]
    [claim] = await store.claim_due(100.0)
    assert (claim.chat, claim.game_id, claim.counter) == (THREE, "g3", 2)


async def test_every_write_made_together_with_the_store_down_raises_store_unavailable(
    unavailable_store: Store,
) -> None:
    writes = [
        unavailable_store.write_game(chat, GameWrite(0, "g1", '{"id":"g1"}'))
        for chat in (ONE, TWO, THREE)
    ]
    answers = await asyncio.wait_for(asyncio.gather(*writes, return_exceptions=True), 30)
    assert all(isinstance(a, StoreUnavailable) for a in answers), answers


async def test_a_write_made_while_a_round_trip_is_out_goes_with_the_next_one(
    store: Store, round_trips: list[int]
) -> None:
    for chat, game_id in ((ONE, "g1"), (TWO, "g2"), (THREE, "g3")):
        assert await write(store, chat, {"id": game_id, "moves": [[0, "6-6"]]})
    round_trips.clear()
    first = asyncio.ensure_future(
        store.write_game(ONE, GameWrite(1, "g1", '{"id":"g1"}', moves_before=1, held="g1"))
    )
    while not round_trips:  # the first write's round trip is out
        await asyncio.sleep(0)
    later = [
        store.write_game(chat, GameWrite(1, game_id, f'{{"id":"{game_id}"}}', held=game_id))
        for chat, game_id in ((TWO, "g2"), (THREE, "g3"))
    ]
    answers = await asyncio.gather(first, *later)
    assert all(a.ok for a in answers)
    assert len(round_trips) == 2
    stored = [await store.load(chat) for chat in (ONE, TWO, THREE)]
    assert [s.version if s else None for s in stored] == [2, 2, 2]


async def test_a_write_after_its_connection_was_lost_is_sent_again_on_a_new_one(
    store: Store, redis_client: aredis.Redis
) -> None:
    assert await write(store, ONE, {"id": "g1", "moves": [[0, "6-6"]]})
    # The server drops every other client, as a restarted one has none.
    await redis_client.client_kill_filter(_type="normal", skipme=True)
    # Without a second try on a new connection, this would raise StoreUnavailable.
    written = await store.write_game(ONE, GameWrite(1, "g1", '{"id":"g1"}', held="g1"))
    assert written.ok
    stored = await store.load(ONE)
    assert stored is not None and stored.version == 2


async def test_a_round_trip_with_no_answer_in_time_raises_store_unavailable_and_the_next_goes(
    tmp_path: Path,
) -> None:
    # A server of its own: pausing the shared one would stall every other test.
    with own_redis(tmp_path) as url:
        store = Store(connect(url, timeout=0.5))
        pauser = aredis.Redis.from_url(url)
        try:
            assert await write(store, ONE, {"id": "g1", "moves": [[0, "6-6"]]})
            # Scripts wait while writes are paused; the pauser's own UNPAUSE does not.
            await pauser.execute_command("CLIENT", "PAUSE", 10_000, "WRITE")
            began = time.monotonic()
            with pytest.raises(StoreUnavailable):
                await store.write_game(ONE, GameWrite(1, "g1", '{"id":"g1"}', held="g1"))
            # Given up after the client's timeout, not when the server answered at last.
            assert time.monotonic() - began < 8.0
            await pauser.execute_command("CLIENT", "UNPAUSE")
            # The connection that timed out was dropped: the next round trip goes on a new
            # one, and reads its own answer, not the one the server owed the old.
            stale = await store.write_game(ONE, GameWrite(0, "g1", '{"id":"g1"}', held="g1"))
            assert not stale.ok
            assert await write(store, TWO, {"id": "g2", "moves": [[0, "5-5"]]})
            stored = await store.load(TWO)
            assert stored is not None and stored.doc["id"] == "g2"
        finally:
            await pauser.aclose()
            await store.close()
