"""A chat's current game: written only by compare-and-set on its version, and expiring
when idle."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest
import redis
import redis.asyncio as aredis

from bot.model.contract import ChatRef, UserRef
from bot.model.decision import Decision, Game, refuse
from bot.model.gamedoc import LOBBY, GameDoc, Seat, TableSettings, from_json, head_json
from bot.storage import keys
from bot.storage.store import Store, StoreBusy, Stored
from bot.table import runner as runner_module
from bot.views.i18n import Translator
from tests.bot.stored import end_game, put_game, runner, write

CHAT = ChatRef("tg", "-100123")
OTHER = ChatRef("tg", "-100123", "7")
ANNA = UserRef("tg", "1", "Anna")


def game(game_id: str = "g1", **fields: Any) -> dict[str, Any]:
    return {"id": game_id, "status": "lobby", **fields}


async def test_a_chat_without_a_game_loads_none(store: Store) -> None:
    assert await store.load(CHAT) is None


async def test_writing_at_version_0_creates_the_game_at_version_1(store: Store) -> None:
    assert await write(store, CHAT, game(moves=[[0, "6-6"]]))
    assert await store.load(CHAT) == Stored(game(moves=[[0, "6-6"]]), 1)


async def test_writing_at_version_0_fails_when_the_chat_has_a_game(store: Store) -> None:
    await write(store, CHAT, game("first"))
    assert not await write(store, CHAT, game("second"))
    assert await store.load(CHAT) == Stored(game("first"), 1)


async def test_a_write_at_the_current_version_writes_the_next_one(store: Store) -> None:
    await write(store, CHAT, game())
    assert await write(store, CHAT, game(status="running"), Stored(game(), 1))
    assert await store.load(CHAT) == Stored(game(status="running"), 2)


async def test_a_write_at_a_stale_version_changes_nothing(store: Store) -> None:
    await write(store, CHAT, game())
    await write(store, CHAT, game(status="running"), Stored(game(), 1))
    assert not await write(store, CHAT, game(status="stopped"), Stored(game(), 1))
    assert await store.load(CHAT) == Stored(game(status="running"), 2)


async def test_a_write_at_a_version_ahead_changes_nothing(store: Store) -> None:
    assert not await write(store, CHAT, game(), Stored(game(), 5))
    assert await store.load(CHAT) is None


async def test_each_chat_and_topic_has_its_own_game(store: Store) -> None:
    await write(store, CHAT, game("a"))
    await write(store, OTHER, game("b"))
    assert (await store.load(CHAT)) == Stored(game("a"), 1)
    assert (await store.load(OTHER)) == Stored(game("b"), 1)


async def test_text_in_any_language_survives_a_round_trip(store: Store) -> None:
    doc = game(players=[{"name": "Ганна 🁣"}])
    await write(store, CHAT, doc)
    stored = await store.load(CHAT)
    assert stored is not None and stored.doc == doc


async def test_a_write_sets_the_idle_expiry_of_the_game(
    new_store: Callable[..., Store], redis_client: aredis.Redis
) -> None:
    store = new_store(idle_ttl=1000)
    await write(store, CHAT, game())
    await redis_client.expire(keys.game(CHAT), 10)
    await write(store, CHAT, game(status="running"), Stored(game(), 1))
    assert 990 < await redis_client.ttl(keys.game(CHAT)) <= 1000


async def test_an_idle_game_expires(new_store: Callable[..., Store]) -> None:
    store = new_store(idle_ttl=1)
    await write(store, CHAT, game())
    await asyncio.sleep(1.1)
    assert await store.load(CHAT) is None


async def test_a_conflicting_write_is_answered_again_after_the_script_cache_is_flushed(
    store: Store, redis_client: aredis.Redis
) -> None:
    await write(store, CHAT, game())
    await redis_client.script_flush()
    assert await write(store, CHAT, game(status="running"), Stored(game(), 1))
    assert not await write(store, CHAT, game(status="stopped"), Stored(game(), 1))


# -- the game's keys expire together --------------------------------------------------


async def test_the_game_its_moves_and_its_deals_expire_together(
    new_store: Callable[..., Store], redis_client: aredis.Redis
) -> None:
    deal = {"hands": [["6-6"]], "boneyard": []}
    await write(new_store(idle_ttl=500), CHAT, game("g7", deals=[deal], moves=[[0, "6-6"]]))
    for key in (keys.game(CHAT), keys.moves(CHAT), keys.deals(CHAT)):
        assert 490 < await redis_client.ttl(key) <= 500


# -- the runner's compare-and-set -----------------------------------------------------


def lobby(n: int) -> GameDoc:
    """Anna's open table, counting ``n`` in a field of its own."""
    settings = TableSettings(timer=0, auto_start=False, pings=True, lang="en")
    return GameDoc(
        id="g1",
        chat=CHAT,
        status=LOBBY,
        variant="tyaga",
        options={},
        seed=1,
        seats=(Seat(user=ANNA),),
        host=ANNA.key,
        settings=settings,
        created=0.0,
        extra={"n": n},
    )


def increment(game: Game | None, translator: Translator) -> Decision:
    if game is None:
        return refuse("no game")
    n = int(game.doc.extra["n"]) + 1
    return Decision(game.doc.but(extra={"n": n}), reply=str(n))


async def counted(store: Store) -> tuple[int, int]:
    """The stored game's count and version."""
    stored = await store.load(CHAT)
    assert stored is not None
    return from_json(stored.doc).extra["n"], stored.version


async def test_a_flow_s_document_is_written_and_its_reply_returned(store: Store) -> None:
    def create(game: Game | None, translator: Translator) -> Decision:
        assert game is None
        return Decision(lobby(0), reply="created")

    assert (await runner(store).run(CHAT, None, create)).decision.reply == "created"
    stored = await store.load(CHAT)
    assert stored is not None and (from_json(stored.doc), stored.version) == (lobby(0), 1)


async def test_a_flow_that_decides_no_document_writes_nothing(store: Store) -> None:
    await put_game(store, lobby(0))
    ran = await runner(store).run(CHAT, None, lambda game, _: refuse("not your turn"))
    assert ran.decision.reply == "not your turn"
    assert await counted(store) == (0, 1)


async def test_a_flow_runs_again_on_the_newer_game_after_a_conflict(
    store: Store, new_store: Callable[..., Store]
) -> None:
    await put_game(store, lobby(0))
    mine = runner(store)
    assert await mine.load(CHAT) is not None  # this process has read the game
    await runner(new_store()).run(CHAT, None, lambda game, _: Decision(lobby(10)))
    seen: list[int] = []

    def seeing(game: Game | None, translator: Translator) -> Decision:
        assert game is not None
        seen.append(game.version)
        return increment(game, translator)

    assert (await mine.run(CHAT, None, seeing)).decision.reply == "11"
    assert seen == [1, 2]
    assert await counted(store) == (11, 3)


async def test_a_flow_gives_up_as_busy_after_the_allowed_retries(
    store: Store, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    await put_game(store, lobby(0))
    monkeypatch.setattr(runner_module, "RETRIES", 3)
    rival = redis.Redis.from_url(redis_url)  # another process, writing before each write
    calls = 0

    def always_overtaken(game: Game | None, translator: Translator) -> Decision:
        nonlocal calls
        calls += 1
        assert game is not None
        rival.hset(keys.game(CHAT), "doc", json.dumps(head_json(lobby(-1))))
        rival.hincrby(keys.game(CHAT), "v", 1)
        return increment(game, translator)

    mine = runner(store)
    assert await mine.load(CHAT) is not None  # this process has read the game
    try:
        with pytest.raises(StoreBusy):
            await mine.run(CHAT, None, always_overtaken)
    finally:
        rival.close()
    assert calls == 4
    assert (await counted(store))[0] == -1


async def test_fifty_simultaneous_flows_over_separate_connections_all_apply_once(
    store: Store, new_store: Callable[..., Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    await put_game(store, lobby(0))
    monkeypatch.setattr(runner_module, "RETRIES", 100)
    runners = [runner(new_store()) for _ in range(10)]
    ran = await asyncio.gather(*(runners[i % 10].run(CHAT, None, increment) for i in range(50)))
    assert sorted(int(str(r.decision.reply)) for r in ran) == list(range(1, 51))
    assert await counted(store) == (50, 51)


# -- the end of a game, and the last game ----------------------------------------------


async def test_ending_at_the_current_version_removes_the_game_and_keeps_it_as_last(
    store: Store,
) -> None:
    await write(store, CHAT, game(status="finished"))
    assert await end_game(store, CHAT, Stored(game(status="finished"), 1))
    assert await store.load(CHAT) is None
    assert await store.last_game(CHAT) == game(status="finished")


async def test_ending_at_a_stale_version_changes_nothing(store: Store) -> None:
    await write(store, CHAT, game())
    await write(store, CHAT, game(status="running"), Stored(game(), 1))
    assert not await end_game(store, CHAT, Stored(game(), 1))
    assert await store.load(CHAT) == Stored(game(status="running"), 2)
    assert await store.last_game(CHAT) is None


async def test_ending_a_game_the_chat_no_longer_has_changes_nothing(store: Store) -> None:
    assert not await end_game(store, CHAT, Stored(game(), 1))
    assert await store.last_game(CHAT) is None


async def test_an_ended_lobby_can_be_dropped_without_replacing_the_last_game(
    store: Store,
) -> None:
    await write(store, CHAT, game("done", status="finished"))
    await end_game(store, CHAT, Stored(game("done", status="finished"), 1))
    await write(store, CHAT, game("lobby"))
    assert await end_game(store, CHAT, Stored(game("lobby"), 1), keep_last=False)
    assert await store.last_game(CHAT) == game("done", status="finished")


async def test_the_last_game_expires_after_the_idle_time(
    new_store: Callable[..., Store], redis_client: aredis.Redis
) -> None:
    store = new_store(idle_ttl=300)
    await write(store, CHAT, game())
    await end_game(store, CHAT, Stored(game(), 1))
    assert 290 < await redis_client.ttl(keys.last_game(CHAT)) <= 300


async def test_after_a_game_ends_a_new_game_starts_at_version_1(store: Store) -> None:
    await write(store, CHAT, game("a"))
    await end_game(store, CHAT, Stored(game("a"), 1))
    assert await write(store, CHAT, game("b"))
    assert await store.load(CHAT) == Stored(game("b"), 1)
