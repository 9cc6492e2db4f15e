"""Ratings on a real Redis: moved by each finished match exactly once, never by a stopped
one, shown on the final table, and listed by ordinal with provisional players apart."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot import ai
from bot.model.contract import ChatRef, Command, Response, Show, SlotKind
from bot.model.ratings import COMPUTER, PROVISIONAL, Rating, decode
from bot.storage import keys
from bot.storage.store import Store
from bot.table.rating_lookups import top_screen
from bot.table.runner import Runner
from bot.table.sessions import Sessions
from bot.views.i18n import translator
from tests.bot.driver import SETTINGS, Table, make_table, user

ANNA, BORIS = user(1, "Anna"), user(2, "Boris")
_ = translator("en")


async def chat_ratings(store: Store, chat: ChatRef, variant: str) -> dict[str, Rating]:
    raw = await store._redis.hgetall(keys.chat_ratings(chat, variant))
    return {k.decode() if isinstance(k, bytes) else k: decode(v) for k, v in raw.items()}


EVERYONE = ("tg:1", "tg:2", "tg:3", *(COMPUTER + level for level in ai.levels()))


async def global_ratings(store: Store, variant: str) -> dict[str, Rating]:
    """The rated players among everyone these tests seat, across every chat."""
    found = await store.global_ratings(variant, {key: key for key in EVERYONE})
    return {key: rating for key, rating in found.items() if rating.played}


async def whole_match(table: Table, seed: int = 3) -> list[Any]:
    await table.start_match("tyaga", [ANNA, BORIS], "target=15", computers=1)
    await table.play_out([ANNA, BORIS], random.Random(seed))
    return [o for out in table.log for o in out]


async def test_a_finished_match_moves_every_seats_rating_once_here_and_everywhere(
    store: Store,
) -> None:
    table = make_table(store)
    sent = await whole_match(table)
    here = await chat_ratings(store, table.chat, "tyaga")
    everywhere = await global_ratings(store, "tyaga")
    assert set(here) == {ANNA.key, BORIS.key, COMPUTER + ai.DEFAULT_LEVEL} == set(everywhere)
    assert all(r.played == 1 for r in here.values())
    for key, rating in here.items():
        assert (rating.mu, rating.sigma) == pytest.approx(
            (everywhere[key].mu, everywhere[key].sigma)
        )
    assert sorted(r.mu for r in here.values()) != [25.0, 25.0, 25.0]
    finals = [
        o.screen.plain_text()
        for o in sent
        if isinstance(o, Show)
        and o.slot.kind is SlotKind.TABLE
        and "Ratings:" in o.screen.plain_text()
    ]
    assert len(finals) == 1
    shown = here[ANNA.key].shown  # her first match: her rating was 0.0 before it
    assert f"\u2068Anna\u2069 {shown:+.1f} (now {shown:.1f})" in finals[0]
    assert "Computer" not in finals[0].split("Ratings:")[1]


async def test_a_stopped_match_changes_no_rating(store: Store) -> None:
    table = make_table(store)
    await table.start_match("tyaga", [ANNA, BORIS], "target=15")
    await table.command(ANNA, "stop", admin=True)
    assert await table.doc() is None
    assert await chat_ratings(store, table.chat, "tyaga") == {}
    assert await global_ratings(store, "tyaga") == {}


async def test_a_process_killed_after_the_final_write_has_still_rated_the_match_once(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever follows the write that ends the match, the chat's ratings moved with it."""
    table = make_table(store)
    await table.start_match("tyaga", [ANNA, BORIS], "target=15", computers=1)

    async def killed(self: Runner, steps: list[Any]) -> None:
        doc = await table.doc()
        if doc is None:  # the match has just been ended and written: the process dies
            raise SystemExit("killed")

    monkeypatch.setattr(Runner, "_attempt", killed)
    with pytest.raises(SystemExit):
        await table.play_out([ANNA, BORIS], random.Random(3))
    monkeypatch.undo()
    restarted = Sessions(store, SETTINGS, clock=table.clock)
    for _tick in range(3):
        await restarted.tick()
        await table.command(BORIS, "scores")
    here = await chat_ratings(store, table.chat, "tyaga")
    assert set(here) == {ANNA.key, BORIS.key, COMPUTER + ai.DEFAULT_LEVEL}
    assert all(r.played == 1 for r in here.values())


async def test_the_global_ratings_count_a_match_once_however_often_it_is_sent(store: Store) -> None:
    moved = {ANNA.key: Rating("Anna", 28.0, 7.0, 1, 1, 1), BORIS.key: Rating("Boris", 22.0, 7.0, 1)}
    assert await store.record_global_ratings("m1", "kozel", moved)
    again = {key: Rating(r.name, 40.0, 1.0, 9) for key, r in moved.items()}
    assert not await store.record_global_ratings("m1", "kozel", again)
    stored = await global_ratings(store, "kozel")
    assert {k: (r.mu, r.sigma, r.played) for k, r in stored.items()} == {
        k: (r.mu, r.sigma, r.played) for k, r in moved.items()
    }


async def test_the_leaderboard_orders_by_ordinal_and_lists_provisional_players_apart(
    store: Store,
) -> None:
    veteran = PROVISIONAL
    rated = {
        "tg:1": Rating("Anna", 30.0, 2.0, veteran),  # ordinal 24
        "tg:2": Rating("Boris", 35.0, 5.0, veteran),  # ordinal 20: higher mu, less sure
        "tg:3": Rating("Chen", 40.0, 1.0, veteran - 1),  # best, but provisional
        COMPUTER + "greedy": Rating("Computer (greedy)", 33.0, 1.0, 50),
    }
    await store.record_global_ratings("m1", "tyaga", rated)
    text = (await top_screen(store, ChatRef("tg", "-9"), ("global", "tyaga"), _)).plain_text()
    lines = text.splitlines()
    assert lines[1].startswith("1. \u2068Anna\u2069 24.0")
    assert lines[2].startswith("2. \u2068Boris\u2069 20.0")
    chen = lines.index("• \u2068Chen\u2069 37.0 (4 matches)")
    assert lines.index("Provisional (fewer matches):") < chen
    assert lines.index("Computers:") < lines.index("• Computer (greedy) 30.0 (50 matches)")
    here = (await top_screen(store, ChatRef("tg", "-9"), ("tyaga",), _)).plain_text()
    assert "Anna" not in here  # ratings of other chats are not this chat's


async def test_top_refuses_an_unknown_game_and_a_bad_word_order(store: Store) -> None:
    chat = ChatRef("tg", "-9")
    assert "chess" in (await top_screen(store, chat, ("chess",), _)).plain_text()
    assert "Usage" in (await top_screen(store, chat, ("kozel", "tyaga"), _)).plain_text()


async def test_top_and_stats_answer_as_commands(store: Store) -> None:
    table = make_table(store)
    await whole_match(table)
    top = await table.send(Command(table.chat, ANNA, "top", ("tyaga",)))
    stats = await table.send(Command(table.chat, ANNA, "stats"))
    shown = [o.screen.plain_text() for o in top + stats if isinstance(o, Response)]
    assert any("Ratings in Tyaga (Draw), this chat:" in s for s in shown)
    assert any("Tyaga (Draw): rating" in s and "Last results: " in s for s in shown)
