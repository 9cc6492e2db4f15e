"""A chat that changes its id (a Telegram group that became a supergroup) keeps its game,
scoreboard, settings and pending deadline under the new id."""

from __future__ import annotations

import redis.asyncio as aredis

from bot.model.contract import ChatRef, UserRef
from bot.storage import keys
from bot.storage.store import MatchRow, Store, Stored, TimerClaim
from tests.bot.stored import count_match, write

GROUP = ChatRef("tg", "-4001")
SUPERGROUP = ChatRef("tg", "-1004001")
ANNA = UserRef("tg", "1", "Anna")


async def fill(store: Store) -> None:
    assert await count_match(store, GROUP, "m0", "kozel", [MatchRow(ANNA, True, 3)])
    first = {"id": "g1", "status": "running"}
    assert await write(store, GROUP, first)
    assert await write(store, GROUP, {**first, "moves": [[0, "6-6"]]}, Stored(first, 1))
    await store.set_chat_setting(GROUP, "lang", "pl")
    await store.schedule(GROUP, "g1", 1, due=100.0)


async def test_the_game_moves_with_its_version(store: Store) -> None:
    await fill(store)
    await store.move_chat(GROUP, SUPERGROUP)
    assert await store.load(SUPERGROUP) == Stored(
        {"id": "g1", "status": "running", "moves": [[0, "6-6"]]}, 2
    )
    assert await store.load(GROUP) is None


async def test_scoreboard_and_settings_move(store: Store) -> None:
    await fill(store)
    await store.move_chat(GROUP, SUPERGROUP)
    assert [r.name for r in (await store.scoreboard(SUPERGROUP, "kozel")).rows] == ["Anna"]
    assert await store.chat_settings(SUPERGROUP) == {"lang": "pl"}
    assert not await store.settle_global_ratings(SUPERGROUP, "m0")  # counted once


async def test_only_the_way_to_the_new_id_is_left_under_the_old_one(
    store: Store, redis_client: aredis.Redis
) -> None:
    await fill(store)
    await store.move_chat(GROUP, SUPERGROUP)
    # Buttons sent before the move still name the old id: they are followed to the new.
    left = [k async for k in redis_client.scan_iter(match=keys.chat_pattern(GROUP))]
    assert left == [keys.moved_to(GROUP)]
    assert await store.moved_to(GROUP) == SUPERGROUP
    assert 0 < await redis_client.ttl(keys.moved_to(GROUP)) <= store.idle_ttl


async def test_the_pending_deadline_follows_the_chat(store: Store) -> None:
    await fill(store)
    await store.move_chat(GROUP, SUPERGROUP)
    assert await store.claim_due(100.0) == [TimerClaim(SUPERGROUP, "g1", 1)]


async def test_moved_keys_keep_their_expiry(store: Store, redis_client: aredis.Redis) -> None:
    await fill(store)
    await store.move_chat(GROUP, SUPERGROUP)
    assert 0 < await redis_client.ttl(keys.game(SUPERGROUP)) <= store.idle_ttl
    assert await redis_client.ttl(keys.settings(SUPERGROUP)) == -1


async def test_a_key_the_new_chat_already_has_is_kept(store: Store) -> None:
    await fill(store)
    await store.set_chat_setting(SUPERGROUP, "lang", "uk")
    await store.move_chat(GROUP, SUPERGROUP)
    assert await store.chat_settings(SUPERGROUP) == {"lang": "uk"}
    assert (await store.load(SUPERGROUP)) is not None


async def test_moving_a_chat_with_nothing_stored_changes_nothing(store: Store) -> None:
    await store.move_chat(GROUP, SUPERGROUP)
    assert await store.load(SUPERGROUP) is None
