"""Whatever holds something of a player expires ``PLAYER_RETENTION_DAYS`` after his last
match, and each match starts the period again: checked by walking a real Redis after
whole matches."""

from __future__ import annotations

import random
from collections.abc import Callable

import redis.asyncio as aredis

from bot.app.config import Settings
from bot.model.contract import ChatRef
from bot.storage import keys
from bot.storage.privacy import GRACE
from bot.storage.store import Store
from tests.bot.driver import make_table, user
from tests.bot.test_sessions_privacy import _dump

ANNA, BORIS, CHEN = user(1, "Anna"), user(2, "Boris"), user(3, "Chen")
DAY = 86400
RETENTION = 200 * DAY  # neither a game's idle time (7 days) nor a marker's (90)
# What the sweep of players inactive for the retention period reads: a little longer.
READ_BY_THE_SWEEP = {keys.user_chats(ANNA), keys.user_chats(BORIS), keys.last_played()}


def test_the_retention_period_is_a_year_unless_set() -> None:
    assert Settings(_env_file=None).player_retention_ttl == 365 * DAY
    assert Settings(_env_file=None, player_retention_days=30).player_retention_ttl == 30 * DAY


async def _play(store: Store, chat: ChatRef, seed: int) -> None:
    table = make_table(store, chat, seed=seed)
    await table.start_match("kozel", [ANNA, BORIS], "target=11", computers=1)
    await table.play_out([ANNA, BORIS], random.Random(seed))


async def test_every_key_that_holds_a_player_expires_within_the_retention_period(
    new_store: Callable[..., Store], redis_client: aredis.Redis
) -> None:
    store = new_store(retention=RETENTION)
    await _play(store, ChatRef("tg", "-100"), 4)
    await _play(store, ChatRef("tg", "-200"), 5)
    table = make_table(store, ChatRef("tg", "-100"))
    await table.command(ANNA, "lang", "pl")
    holding = []
    async for key in redis_client.scan_iter(count=1000):
        said = key + await _dump(redis_client, key)
        if any(mark in said for mark in ("tg:1", "tg:2", "Anna", "Boris")):
            holding.append(key)
            ttl = await redis_client.ttl(key)
            assert 0 < ttl <= RETENTION + (GRACE if key in READ_BY_THE_SWEEP else 0), (key, ttl)
    kinds = {k.split("}")[-1].split(":")[1] for k in holding if "}:" in k}
    assert {"stats", "lang", "chats", "players", "scores", "ratings", "leaders"} <= kinds, kinds
    assert any(k.startswith("dom:{ratings:kozel}:") for k in holding)


async def test_each_match_starts_the_retention_period_again(
    new_store: Callable[..., Store], redis_client: aredis.Redis
) -> None:
    store = new_store(retention=RETENTION)
    chat = ChatRef("tg", "-100")
    await _play(store, chat, 4)
    await make_table(store, chat).command(ANNA, "lang", "pl")
    renewed = [
        keys.user_stats(ANNA),
        keys.user_lang(ANNA),
        keys.user_chats(ANNA),
        keys.players(chat, "kozel"),
        keys.scores(chat, "kozel"),
        keys.chat_ratings(chat, "kozel"),
        keys.chat_leaders(chat, "kozel"),
        keys.leaders("kozel"),
        keys.ratings("kozel", ANNA.key),
    ]
    for key in renewed:
        assert await redis_client.expire(key, 60), key  # as if a year had nearly passed
    await _play(store, chat, 6)
    for key in renewed:
        assert await redis_client.ttl(key) > RETENTION - DAY, key


async def test_a_player_inactive_for_the_retention_period_leaves_boards_others_keep_alive(
    new_store: Callable[..., Store], redis_client: aredis.Redis
) -> None:
    now = [2_000_000_000.0]
    store = new_store(retention=RETENTION, clock=lambda: now[0])
    chat = ChatRef("tg", "-100")
    await _play(store, chat, 4)  # Anna and Boris
    now[0] += 150 * DAY
    table = make_table(store, chat, seed=8)  # Boris plays on with Chen; Anna does not
    await table.start_match("kozel", [BORIS, CHEN], "target=11", computers=1)
    await table.play_out([BORIS, CHEN], random.Random(8))
    await table.tick()
    assert not (await store.kept_about(ANNA)).empty  # 150 days: kept

    now[0] += 51 * DAY  # 201 days after her last match, 51 after Boris's
    await table.tick()
    assert (await store.kept_about(ANNA)).empty
    board = await store.scoreboard(chat, "kozel")
    assert ANNA.key not in [row.user_key for row in board.rows]
    assert {BORIS.key, CHEN.key} <= {row.user_key for row in board.rows}
    leaders, _count = await store.leaders(None, "kozel")
    assert ANNA.key not in [key for key, _rating in leaders]
    assert not (await store.kept_about(BORIS)).empty
    # Her match is still among the chat's kept ones, with a computer in her seat.
    kept = await _dump(redis_client, keys.history(chat))
    assert "Boris" in kept and "Anna" not in kept and '"tg:1"' not in kept
