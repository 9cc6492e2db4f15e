"""The global ratings on a real Redis: a match queued by its ending write moves them, and
counts each player's own results, exactly once even when the process dies before the
global step, and matches sharing a player that end together never overwrite each other's
update."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import pytest

from bot import ai
from bot.model.contract import ChatRef
from bot.model.ratings import COMPUTER, Rating, Result, decode, rate_result
from bot.storage import keys
from bot.storage.ratings import rating_queue_write
from bot.storage.store import Store
from bot.table.runner import RATING_QUEUE_GRACE, Runner
from bot.table.sessions import Sessions
from tests.bot.driver import SETTINGS, make_table, user

ANNA, BORIS = user(1, "Anna"), user(2, "Boris")
SEATED = (ANNA.key, BORIS.key, COMPUTER + ai.DEFAULT_LEVEL)


async def stored(store: Store, variant: str, players: tuple[str, ...]) -> dict[str, Rating]:
    found = await store.global_ratings(variant, {key: key for key in players})
    return {key: rating for key, rating in found.items() if rating.played}


async def test_a_process_killed_before_the_global_step_leaves_it_to_the_sweep(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = make_table(store)
    await table.start_match("tyaga", [ANNA, BORIS], "target=15", computers=1)

    async def killed(self: Runner, steps: list[Any]) -> None:
        if await table.doc() is None:  # the match is written as ended: the process dies
            raise SystemExit("killed")

    monkeypatch.setattr(Runner, "_attempt", killed)
    with pytest.raises(SystemExit):
        await table.play_out([ANNA, BORIS], random.Random(3))
    monkeypatch.undo()
    assert await stored(store, "tyaga", SEATED) == {}
    assert len(await store._redis.hkeys(keys.rating_queue(table.chat))) == 1
    assert (await store.scoreboard(table.chat, "tyaga")).rows  # the ending write counted it

    restarted = Sessions(store, SETTINGS, clock=table.clock)
    await restarted.tick()  # too soon: the match's own process may still be at it
    assert await stored(store, "tyaga", SEATED) == {}
    table.clock.advance(RATING_QUEUE_GRACE + 1)
    for _tick in range(3):
        await restarted.tick()
    everywhere = await stored(store, "tyaga", SEATED)
    assert set(everywhere) == set(SEATED)
    assert all(r.played == 1 for r in everywhere.values())
    for person in (ANNA, BORIS):  # each one's own results, as /stats shows them
        assert [(r.variant, r.played) for r in await store.user_stats(person)] == [("tyaga", 1)]
    raw = await store._redis.hgetall(keys.chat_ratings(table.chat, "tyaga"))
    here = {str(k): decode(v) for k, v in raw.items()}
    for key, rating in here.items():  # the chat's first match: both start from the prior
        assert (rating.mu, rating.sigma) == pytest.approx(
            (everywhere[key].mu, everywhere[key].sigma)
        )
    assert not await store._redis.exists(keys.rating_queue(table.chat))
    assert await store._redis.zcard(keys.rating_queues()) == 0


def _match(winner: str, loser: str) -> Result:
    return ((1, ((winner, True),)), (2, ((loser, False),)))


async def _queue(store: Store, chat: ChatRef, match_id: str, result: Result) -> None:
    names = {key: key for _, side in result for key, _won in side}
    write = rating_queue_write(chat, match_id, "kozel", names, result)
    await store._redis.hset(write.keys[0], str(write.values[0]), str(write.values[1]))


async def test_matches_sharing_a_player_ending_together_both_move_his_rating(
    new_store: Callable[..., Store],
) -> None:
    stores = [new_store() for _ in range(4)]  # four processes, each with its own connections
    rounds = 6
    for n in range(rounds):
        matches = [
            (ChatRef("tg", f"-{n}{i}"), f"m{n}-{i}", _match("tg:1", f"tg:{10 + i}"))
            for i in range(4)
        ]
        for chat, match_id, result in matches:
            await _queue(stores[0], chat, match_id, result)
        settled = await asyncio.gather(
            *(
                s.settle_global_ratings(chat, mid)
                for s, (chat, mid, _) in zip(stores, matches, strict=True)
            )
        )
        assert settled == [True] * 4
    shared = (await stored(stores[0], "kozel", ("tg:1",)))["tg:1"]
    assert (shared.played, shared.won) == (4 * rounds, 4 * rounds)
    others = await stored(stores[0], "kozel", tuple(f"tg:{10 + i}" for i in range(4)))
    assert all(r.played == rounds for r in others.values())


async def test_a_queued_match_settled_twice_moves_the_ratings_once(store: Store) -> None:
    chat = ChatRef("tg", "-7")
    await _queue(store, chat, "m1", _match("tg:1", "tg:2"))
    assert await store.settle_global_ratings(chat, "m1")
    await _queue(store, chat, "m1", _match("tg:1", "tg:2"))  # as if the removal were lost
    assert not await store.settle_global_ratings(chat, "m1")
    assert not await store._redis.exists(keys.rating_queue(chat))
    expected = rate_result(_match("tg:1", "tg:2"), {"tg:1": Rating("tg:1"), "tg:2": Rating("tg:2")})
    found = await stored(store, "kozel", ("tg:1", "tg:2"))
    assert {k: (r.mu, r.sigma, r.played) for k, r in found.items()} == {
        k: pytest.approx((r.mu, r.sigma, r.played), abs=0.01) for k, r in expected.items()
    }
