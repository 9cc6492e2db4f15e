"""The terminal's boards span all its tables: matches finished at two tables are on the
scoreboard, the player's results, the history and the ratings asked at a third, on a
real Redis."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.console import TableRequest, table_chat
from bot.storage.store import Store, connect
from tests.adapters.console.terminal import Clock, Terminal, always
from tests.bot.conftest import redis_url  # noqa: F401  (a session fixture, shared)

QUICK = TableRequest("tyaga", level="greedy", options=("target=10",))
# Matches left at once, each keeping its table taken so the next match takes another.
HELD = (
    TableRequest("kozel", players=3, level="greedy"),
    TableRequest("kozel", players=4, level="greedy"),
    TableRequest("tyaga", players=3, level="greedy"),
)
ASKING = TableRequest("tyaga", players=4, level="greedy", options=QUICK.options)


@pytest.fixture
async def real_terminal(redis_url: str, tmp_path: Path) -> AsyncIterator[Terminal]:  # noqa: F811
    client = connect(redis_url)
    await client.flushdb()
    store = Store(client)
    try:
        yield Terminal(store, Clock(), tmp_path)
    finally:
        await store.close()


async def finished_at_two_tables(terminal: Terminal) -> list[str]:
    """A match finished at table 2 and another at table 3, tables 1 to 3 then taken by
    matches left unfinished; the finished matches' ids, in the order they ended."""
    ids = []
    await terminal.play(["quit"], HELD[0])
    for number, held in zip((2, 3), HELD[1:], strict=True):
        terminal.seed += 1  # a game id of its own: a seed repeats the first one it gives
        await terminal.play(always("1"), QUICK)
        finished = await terminal.store.last_game(table_chat(number))
        assert finished is not None and finished["status"] == "finished"
        ids.append(str(finished["id"]))
        terminal.seed += 1
        await terminal.play(["quit"], held)
    return ids


def answer(transcript: str, typed: str) -> str:
    """What the terminal answered to the line ``typed``, on one line, its names without
    the marks that isolate them."""
    said = transcript.split(f"You> {typed}\n")[1].split("You> ")[0]
    return " ".join(said.replace("\u2068", "").replace("\u2069", "").split())


async def test_a_new_table_lists_the_matches_of_the_others(real_terminal: Terminal) -> None:
    first, second = await finished_at_two_tables(real_terminal)
    real_terminal.seed += 1
    typed = ["scores", "stats You", "history", "history 1", "top tyaga", "quit"]
    _, transcript = await real_terminal.play(typed, ASKING)
    assert (await real_terminal.game(table_chat(4))) is not None  # asked at a fourth table

    scores = answer(transcript, "scores")
    assert "Nobody has finished a match here yet." not in scores
    assert re.search(r"Scoreboard: Tyaga \(Draw\) 1\. You: won \d of 2 \(", scores), scores

    stats = answer(transcript, "stats You")
    assert "Nobody called" not in stats
    assert re.search(r"Tyaga \(Draw\): won \d of 2 \(", stats), stats

    listed = answer(transcript, "history")
    entries = re.findall(r"\d\. [^·]+ · Tyaga \(Draw\)[^·]*· You \d+, Computer 1 \d+ ·", listed)
    assert len(entries) == 2, listed
    assert (real_terminal.folder / f"domino-{second}.json").exists()  # the newest, first
    assert not (real_terminal.folder / f"domino-{first}.json").exists()

    top = answer(transcript, "top tyaga")
    assert "Ratings in Tyaga (Draw), all chats:" in top
    assert re.search(r"You -?\d+\.\d \(2 matches\)", top), top
