"""The press path on a real Redis: one read and one write a press, only what is new is sent
or fetched, a process that has not seen a game replays at most the deal being played,
the end of a match is counted in the write that ends it, and a burst of presses queues."""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import Callable
from typing import Any

import pytest
import redis.asyncio as aredis

import engine
from bot.model import codec
from bot.model.contract import Answer, ChatRef, Command, UserRef
from bot.model.gamedoc import FINISHED, GameDoc, from_json, to_json
from bot.storage import keys
from bot.storage.scores import board_writes
from bot.storage.store import Ending, GameWrite, MatchWrite, Store, Stored
from bot.storage.values import MatchRow
from bot.table import updates as updates_module
from bot.table.sessions import Sessions
from tests.bot.driver import SETTINGS, Table, info_text, make_table, move_buttons, user
from tests.bot.stored import write

ANNA, BORIS = user(1, "Anna"), user(2, "Boris")
CHAT = ChatRef("tg", "-100777")


async def in_play(table: Table, moves: int, rng: random.Random) -> GameDoc:
    """A Tyaga match between Anna and Boris, played until at least ``moves`` moves."""
    await table.start_match("tyaga", [ANNA, BORIS], "target=500")
    for _ in range(5000):
        doc = await table.doc()
        assert doc is not None
        if len(doc.moves) >= moves:
            return doc
        await table.step([ANNA, BORIS], rng)
    raise AssertionError("the match did not get that far")


async def a_move(table: Table) -> tuple[UserRef, str]:
    for person in (ANNA, BORIS):
        buttons = move_buttons(table.hand(person))
        if buttons:
            assert buttons[0].payload is not None
            return person, buttons[0].payload
    raise AssertionError("nobody has a move")


async def test_a_move_is_one_write_where_the_game_was_last_seen_and_two_round_trips_elsewhere(
    store: Store, round_trips: list[int]
) -> None:
    table = make_table(store, CHAT)
    await in_play(table, 3, random.Random(2))
    fresh = Sessions(store, SETTINGS, clock=table.clock)  # a process that never saw the game
    # It reads first; then it holds the game; the first process, which wrote the game
    # before, writes from an old version, loses, and gets the game with its answer.
    for sessions, trips in ((fresh, 2), (fresh, 1), (table.sessions, 2), (table.sessions, 1)):
        person, payload = await a_move(table)
        round_trips.clear()
        out = await table.press(person, payload, sessions=sessions)
        assert isinstance(out[0], Answer) and not out[0].alert, out[0]
        assert len(round_trips) == trips


async def test_a_refusal_is_given_on_the_game_as_stored_not_as_remembered(
    store: Store, round_trips: list[int]
) -> None:
    table = make_table(store, CHAT)
    await in_play(table, 3, random.Random(2))
    other = Sessions(store, SETTINGS, clock=table.clock)
    person, payload = await a_move(table)
    await table.press(person, payload, sessions=other)  # the first process does not see it
    doc = await table.doc()
    next_person, next_payload = await a_move(table)
    assert next_person != person  # not his turn in the game the first process remembers
    round_trips.clear()
    out = await table.press(next_person, next_payload)
    assert isinstance(out[0], Answer) and not out[0].alert, out[0]
    assert len(round_trips) == 2  # the refusal is checked on a fresh read, then written
    later = await table.doc()
    assert doc is not None and later is not None and len(later.moves) > len(doc.moves)


async def test_a_write_appends_the_new_moves_and_a_read_fetches_only_those(
    store: Store, redis_client: aredis.Redis
) -> None:
    table = make_table(store, CHAT)
    doc = await in_play(table, 40, random.Random(3))
    stored = await redis_client.lrange(keys.moves(CHAT), 0, -1)
    assert stored == [f"{seat}:{move}" for seat, move in doc.moves]
    rng = random.Random(4)
    later = doc
    while len(later.moves) == len(doc.moves):  # a step between deals makes no move
        await table.step([ANNA, BORIS], rng)
        stepped = await table.doc()
        assert stepped is not None
        later = stepped
    read = await store.read_game(CHAT, doc.id, len(doc.moves), len(doc.deals))
    assert read is not None and read.moves_from == len(doc.moves)
    assert list(read.moves) == [f"{s}:{m}" for s, m in later.moves[len(doc.moves) :]]
    assert read.snapshot is None
    other = await store.read_game(CHAT, "another", len(doc.moves), len(doc.deals))
    assert other is not None and other.moves_from == 0 and len(other.moves) == len(later.moves)


async def test_a_write_that_follows_other_moves_than_the_stored_ones_is_refused(
    store: Store,
) -> None:
    assert await write(store, CHAT, {"id": "g1", "moves": [[0, "6-6"], [1, "6-5@R"]]})
    wrong = GameWrite(1, "g1", '{"id":"g1"}', moves=["0:5-5@R"], moves_before=1)
    with pytest.raises(Exception, match="not the ones this write follows"):
        await store.write_game(CHAT, wrong)
    stored = await store.load(CHAT)
    assert stored is not None and stored.version == 1 and len(stored.doc["moves"]) == 2


async def test_a_write_that_loses_brings_back_what_the_writer_does_not_hold(
    store: Store,
) -> None:
    assert await write(store, CHAT, {"id": "g1", "moves": [[0, "6-6"]]})
    ahead = GameWrite(1, "g1", '{"id":"g1"}', moves=["1:6-5@R"], moves_before=1, held="g1")
    assert (await store.write_game(CHAT, ahead)).ok
    behind = GameWrite(1, "g1", '{"id":"g1"}', moves=["1:6-4@R"], moves_before=1, held="g1")
    lost = await store.write_game(CHAT, behind)
    assert not lost.ok and lost.current is not None
    assert (lost.current.version, lost.current.moves_from) == (2, 1)
    assert lost.current.moves == ("1:6-5@R",)


async def test_a_write_is_refused_when_another_game_has_reached_the_version_it_follows(
    store: Store,
) -> None:
    assert await write(store, CHAT, {"id": "g2", "moves": [[0, "6-6"]]})  # its version 1
    stale = GameWrite(1, "g1", '{"id":"g1"}', moves=["0:5-5@R"], moves_before=1, held="g1")
    lost = await store.write_game(CHAT, stale)
    assert not lost.ok and lost.current is not None
    assert json.loads(lost.current.head)["id"] == "g2" and lost.current.moves_from == 0
    stored = await store.load(CHAT)
    assert stored is not None and stored.doc["id"] == "g2" and stored.doc["moves"] == [[0, "6-6"]]


async def test_a_process_that_remembers_an_ended_game_does_not_write_over_the_next_one(
    store: Store,
) -> None:
    table = make_table(store, CHAT)
    await in_play(table, 3, random.Random(2))  # the table's process remembers the game
    remembered = await store.load(CHAT)
    assert remembered is not None
    person, payload = await a_move(table)
    other = Sessions(store, SETTINGS, clock=table.clock)
    await table.send(Command(CHAT, ANNA, "stop", (), is_admin=True), other)
    another = {**remembered.doc, "id": "another1"}
    for version in range(remembered.version):  # another game reaches the version remembered
        assert await write(store, CHAT, another, Stored(another, version) if version else None)
    await table.press(person, payload)
    stored = await store.load(CHAT)
    assert stored is not None and stored.version == remembered.version
    assert stored.doc == another


async def test_the_write_that_ends_a_game_counts_it_and_keeps_it_as_the_last_game(
    store: Store, redis_client: aredis.Redis
) -> None:
    assert await write(store, CHAT, {"id": "g1", "moves": [[0, "6-6"]]})
    rows = [MatchRow(ANNA, True, 12), MatchRow(BORIS, False, 3)]
    ending = Ending('{"id":"g1","status":"finished"}', board_writes(CHAT, "tyaga", rows, 86400))
    stale = GameWrite(0, "g1", "{}", ending=ending)
    assert not (await store.write_game(CHAT, stale)).ok
    assert (await store.scoreboard(CHAT, "tyaga")).players == 0  # a lost write counts nothing
    assert (await store.write_game(CHAT, GameWrite(1, "g1", "{}", ending=ending))).ok
    board = await store.scoreboard(CHAT, "tyaga")
    assert [(r.name, r.won, r.points) for r in board.rows] == [("Anna", 1, 12), ("Boris", 0, 3)]
    assert await store.load(CHAT) is None
    assert await store.last_game(CHAT) == {"id": "g1", "status": "finished"}
    assert not await redis_client.exists(keys.moves(CHAT), keys.deals(CHAT))


def test_an_ending_runs_only_the_commands_it_may() -> None:
    with pytest.raises(ValueError, match="FLUSHALL"):
        MatchWrite("FLUSHALL", ())


async def test_a_finished_match_is_on_the_board_as_soon_as_the_game_is_gone(
    store: Store,
) -> None:
    table = make_table(store, CHAT)
    await table.start_match("tyaga", [ANNA, BORIS], "target=30")
    await table.play_out([ANNA, BORIS], random.Random(5))
    last = await table.last_doc()
    assert last is not None and last.status == FINISHED
    board = await store.scoreboard(CHAT, "tyaga")
    assert sorted(r.name for r in board.rows) == ["Anna", "Boris"]
    assert await store.user_stats(ANNA) != []


async def test_a_process_that_never_saw_the_game_replays_only_the_deal_being_played(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = make_table(store, CHAT)
    doc = await in_play(table, 60, random.Random(6))
    assert len(doc.deals) >= 2, "the match should be past its first deal"
    in_this_deal = len(doc.moves) - doc.deal_starts[-1]
    applied: list[int] = []
    original = engine.apply

    def counting(state: Any, move: Any, seat: Any = None) -> Any:
        applied.append(1)
        return original(state, move, seat)

    monkeypatch.setattr(engine, "apply", counting)  # as the replay calls it
    fresh = Sessions(store, SETTINGS, clock=table.clock)
    person, payload = await a_move(table)
    await table.press(person, payload, sessions=fresh)
    later = await table.doc()
    assert later is not None
    made = len(later.moves) - len(doc.moves)  # the press, and the forced draws after it
    assert 0 < len(applied) <= in_this_deal + made


async def test_a_burst_of_500_presses_at_500_games_is_all_applied(
    new_store: Callable[..., Store],
) -> None:
    store = new_store()
    tables = [make_table(store, ChatRef("tg", f"-5{n:04d}"), seed=n) for n in range(500)]
    sessions = Sessions(store, SETTINGS, clock=tables[0].clock, rng=random.Random(1))
    for table in tables:
        table.sessions = sessions
    await asyncio.gather(*(t.command(ANNA, "new", "tyaga", "timer=off") for t in tables))
    outs = await asyncio.gather(
        *(t.press(BORIS, codec.lobby_payload(t.game_id or "", "join")) for t in tables)
    )
    assert all(isinstance(out[0], Answer) and not out[0].alert for out in outs)
    docs = [from_json(to_json(doc)) for doc in [await t.doc() for t in tables] if doc]
    assert len(docs) == 500 and all(len(doc.seats) == 2 for doc in docs)


async def test_an_unreadable_game_is_set_aside_and_the_chat_is_free_at_once(
    store: Store, redis_client: aredis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    table = make_table(store, CHAT)
    await table.start_match("tyaga", [ANNA, BORIS])
    doc = await table.doc()
    assert doc is not None
    broken = {**to_json(doc), "schema": 99}
    await redis_client.hset(keys.game(CHAT), "doc", json.dumps(broken))
    with caplog.at_level(logging.ERROR, logger="bot.table.runner"):
        out = await table.command(ANNA, "new", "kozel")
        again = await table.command(BORIS, "join")
    assert "went wrong" not in info_text(out) + info_text(again)
    fresh = await table.doc()
    assert fresh is not None and fresh.variant == "kozel" and len(fresh.seats) == 2
    kept = json.loads(await redis_client.get(keys.set_aside(CHAT, doc.id)) or "{}")
    assert json.loads(kept["head"])["schema"] == 99 and len(kept["deals"]) == 1
    assert await redis_client.ttl(keys.set_aside(CHAT, doc.id)) > 0
    assert len([r for r in caplog.records if doc.id in r.getMessage()]) == 1


async def test_a_game_whose_moves_no_longer_replay_is_set_aside(
    store: Store, redis_client: aredis.Redis
) -> None:
    table = make_table(store, CHAT)
    await table.start_match("tyaga", [ANNA, BORIS])
    doc = await table.doc()
    assert doc is not None
    await redis_client.rpush(keys.moves(CHAT), "0:9-9@L")
    # A process that reads the game (here: one that has not seen it yet, as after an
    # upgrade); the one that wrote it writes from what it remembers.
    fresh = Sessions(store, SETTINGS, clock=table.clock)
    out = await table.send(Command(CHAT, ANNA, "stop", (), is_admin=True), fresh)
    assert "went wrong" not in info_text(out)
    assert await table.doc() is None
    assert await redis_client.exists(keys.set_aside(CHAT, doc.id))


async def test_a_press_draws_each_hand_once_when_this_process_drew_the_last_ones(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = make_table(store, CHAT)
    await in_play(table, 3, random.Random(8))
    drawn: list[int] = []
    original = updates_module.hand_of

    def counting(*args: Any) -> Any:
        drawn.append(1)
        return original(*args)

    monkeypatch.setattr(updates_module, "hand_of", counting)
    person, payload = await a_move(table)
    await table.press(person, payload)
    assert len(drawn) == 2  # Anna's and Boris's hands after the move, not before it too
    fresh = Sessions(store, SETTINGS, clock=table.clock)
    drawn.clear()
    person, payload = await a_move(table)
    await table.press(person, payload, sessions=fresh)
    assert len(drawn) == 4  # a process that drew nothing before draws the old hands too
