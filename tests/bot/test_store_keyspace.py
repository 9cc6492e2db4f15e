"""Every key the core writes expires, except the chat's settings, kept on purpose (a
player's results, language, the boards and ratings expire after the retention period:
tests/bot/test_privacy_retention.py), which docs/architecture.md lists, and every key is
in that file's key table with its lifetime. Checked by walking the keyspace of a real
Redis after whole matches of every game, a stopped one, the chat's settings, a process
killed right after a match's ending write, a game set aside and lookups; the Telegram
adapter's keys are walked after whole matches through it, in
tests/adapters/telegram/test_keyspace.py."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as aredis

from bot.model.contract import ChatRef
from bot.storage import keys
from bot.storage.store import Store
from bot.table.runner import Runner
from tests.bot.driver import make_table, user
from tests.bot.test_sessions_matches import MATCHES

ANNA, BORIS = user(1, "Anna"), user(2, "Boris")
ARCHITECTURE = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"
# The key table's placeholders, as parts of a regular expression over a key's name.
PLACEHOLDERS = {
    "{chat}": r"\{[^{}]+\}",
    "{user}": r"\{[^{}]+\}",
    "{user key}": r"[^{}]+",
    "{game}": r"[^:{}]+",
    "{id}": r"[^{}]+",
    "{slot}": r".+",
    "{process}": r".+",
    "{update id}": r"\d+",
    ":N": r":\d+",
    "…": r".*",
}
# Keys the table says live without a TTL while they are in use, and leave when emptied:
# a walk taken while a match waits in a chat's rating queue (a process killed) finds
# the index of those queues (the queue itself keeps the players' retention period).
EMPTIED_AS_USED = [r"dom:rating_queues"]


def _emptied_as_used(key: str) -> bool:
    return any(re.fullmatch(p, key) for p in EMPTIED_AS_USED)


KEPT_ON_PURPOSE = [r"dom:\{[^}]+\}:settings"]


async def test_after_whole_matches_every_key_expires_but_those_kept_on_purpose(
    store: Store, redis_client: aredis.Redis
) -> None:
    for n, (variant, options, people, computers) in enumerate(MATCHES):
        table = make_table(store, ChatRef("tg", f"-70{n}"), seed=n)
        await table.start_match(variant, people, *options, computers=computers)
        await table.play_out(people, random.Random(n))
    stopped = make_table(store, ChatRef("tg", "-799"), seed=9)
    await stopped.start_match("kozel", [ANNA, BORIS], computers=1)
    await stopped.command(ANNA, "stop", admin=True)
    await stopped.command(ANNA, "settings", "timer=90", admin=True)
    await stopped.command(BORIS, "lang", "pl")

    await assert_every_key_expires_but_those_kept(redis_client)


def documented_keys() -> list[tuple[str, bool]]:
    """The key table of docs/architecture.md: each key's pattern as a regular expression,
    and whether the table lets it live without a TTL (kept on purpose, or emptied as it
    is used)."""
    table = ARCHITECTURE.read_text(encoding="utf-8").split("## Redis keys", 1)[1]
    found: list[tuple[str, bool]] = []
    for row in table.splitlines():
        # A pipe inside a cell's code is written escaped, as GitHub's tables want it.
        cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", row.strip().strip("|"))]
        if len(cells) < 4 or not cells[0].startswith("`dom"):
            continue
        lasting = cells[2].startswith(("**kept**", "none"))
        for name in re.findall(r"`([^`]+)`", cells[0]):
            pattern = re.escape(name)
            for placeholder, part in PLACEHOLDERS.items():
                pattern = pattern.replace(re.escape(placeholder), part)
            found.append((pattern, lasting))
    return found


def test_the_key_table_is_read_cell_by_cell_past_the_pipes_in_its_code() -> None:
    # The timers' row names its members `chat\|game\|counter` before saying they live
    # without a TTL: read as cells split at every pipe, its lifetime would be "game".
    lifetimes = dict(documented_keys())
    assert lifetimes[r"dom:\{dom:timers:\d+\}:due"] is True
    assert lifetimes[r"dom:\{[^{}]+\}:settings"] is True
    assert lifetimes[r"dom:\{[^{}]+\}:msgs"] is False


def assert_keys_documented(keys: dict[str, int]) -> None:
    """Each of the bot's keys (name -> TTL) is in the key table, and one without a TTL is
    one the table says lives without one."""
    table = documented_keys()
    unknown = [k for k in keys if not any(re.fullmatch(p, k) for p, _ in table)]
    assert unknown == [], "keys the table in docs/architecture.md does not name"
    lasting = [k for k, ttl in keys.items() if ttl == -1]
    wrong = [k for k in lasting if not any(re.fullmatch(p, k) and kept for p, kept in table)]
    assert wrong == [], "keys without a TTL that the table says expire"


async def assert_every_key_expires_but_those_kept(redis: aredis.Redis, at_least: int = 20) -> None:
    """Walk the keyspace: every key without an expiry is one kept on purpose, and every
    key of the bot's is in the key table with its lifetime."""
    forever, seen = [], 0
    ttls: dict[str, int] = {}
    async for key in redis.scan_iter(count=1000):
        seen += 1
        ttl = await redis.ttl(key)
        if key.startswith("dom:"):
            ttls[key] = ttl
        if ttl == -1:
            forever.append(key)
    assert seen > at_least
    assert_keys_documented(ttls)
    forever = [k for k in forever if not _emptied_as_used(k)]
    unexpected = [k for k in forever if not any(re.fullmatch(p, k) for p in KEPT_ON_PURPOSE)]
    assert unexpected == []


async def test_after_a_kill_a_game_set_aside_and_lookups_every_key_is_in_the_table(
    store: Store, redis_client: aredis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = make_table(store, ChatRef("tg", "-801"), seed=3)
    await table.start_match("tyaga", [ANNA, BORIS], "target=15", computers=1)
    await table.command(BORIS, "table")
    await table.command(BORIS, "scores")

    async def killed(self: Runner, steps: list[Any]) -> None:
        if await table.doc() is None:  # the match is written as ended: the process dies
            raise SystemExit("killed")

    monkeypatch.setattr(Runner, "_attempt", killed)
    with pytest.raises(SystemExit):
        await table.play_out([ANNA, BORIS], random.Random(3))
    monkeypatch.undo()
    broken = ChatRef("tg", "-802")
    await redis_client.hset(keys.game(broken), mapping={"v": 1, "id": "x", "doc": "{"})
    await make_table(store, broken).command(ANNA, "new", "tyaga")
    assert await redis_client.exists(keys.rating_queue(table.chat))
    assert await redis_client.exists(keys.set_aside(broken, ""))  # its id could not be read

    await assert_every_key_expires_but_those_kept(redis_client, at_least=10)
