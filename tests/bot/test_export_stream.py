"""Export rebuilds the replay from the game's event stream, which holds the whole
match: what was played, every deal as dealt and every move as applied."""

from __future__ import annotations

import json
import logging
import random
from typing import Any

import fakeredis
import pytest

from bot import keys
from bot.contract import Document
from bot.gamedoc import GameDoc, replay_json
from bot.replay import build_state
from bot.replay_stream import replay_from_stream
from bot.store import Store
from engine.replay import fixture_json, parse_replay, run
from tests.bot.driver import Table, make_table, user

ANNA, BORIS = user(1, "Anna"), user(2, "Boris")


async def finished_match(table: Table) -> GameDoc:
    await table.start_match("kozel", [ANNA, BORIS], "target=25", computers=1)
    await table.play_out([ANNA, BORIS], random.Random(7))
    doc = await table.last_doc()
    assert doc is not None and doc.status == "finished" and len(doc.deals) > 1
    return doc


async def exported(table: Table) -> dict[str, Any]:
    document = next(o for o in await table.command(ANNA, "export") if isinstance(o, Document))
    data = json.loads(document.data)
    assert isinstance(data, dict)
    return data


async def test_the_stream_holds_the_match_every_deal_and_every_move(fake_store: Store) -> None:
    table = make_table(fake_store)
    doc = await finished_match(table)
    events = await fake_store.events(table.chat, doc.id)
    [header] = [e for e in events if e["kind"] == "match"]
    assert (header["variant"], header["players"], header["seed"]) == ("kozel", 3, doc.seed)
    deals = [e for e in events if e["kind"] == "deal"]
    assert [d["fixture"] for d in deals] == [fixture_json(f) for f in doc.deals]
    assert [d["start"] for d in deals] == list(doc.deal_starts)
    moves = [e for e in events if e["kind"] == "move"]
    assert [m["index"] for m in moves] == list(range(len(doc.moves)))
    assert [(m["seat"], m["move"]) for m in moves] == list(doc.moves)


async def test_the_export_replays_to_the_match_the_game_reached(fake_store: Store) -> None:
    table = make_table(fake_store)
    doc = await finished_match(table)
    replay = await exported(table)
    state = build_state(doc)
    outcome = run(parse_replay(replay))
    assert outcome.failed_at is None and outcome.state.match_over
    assert outcome.state.match_scores == state.match_scores
    assert outcome.state.winners == state.winners
    assert replay == replay_json(doc, state.options, len(doc.deals))


async def test_without_its_stream_the_export_comes_from_the_document_and_says_so(
    fake_store: Store, fake_server: fakeredis.FakeServer, caplog: pytest.LogCaptureFixture
) -> None:
    table = make_table(fake_store)
    doc = await finished_match(table)
    from_stream = await exported(table)
    client = fakeredis.FakeAsyncRedis(server=fake_server)
    await client.delete(keys.events(table.chat, doc.id))  # expired, say
    await client.aclose()
    with caplog.at_level(logging.WARNING, logger="bot.lookups"):
        from_document = await exported(table)
    assert from_document == from_stream
    assert f"game {doc.id}: its event stream is gone" in caplog.text


def test_a_stream_appended_out_of_order_and_twice_rebuilds_in_order() -> None:
    header = {"kind": "match", "variant": "tyaga", "players": 2, "options": {}, "seed": 1}
    deal = {"kind": "deal", "deal": 1, "start": 0, "fixture": {"hands": [], "boneyard": []}}
    first = {"kind": "move", "index": 0, "seat": 0, "move": "6-6"}
    second = {"kind": "move", "index": 1, "seat": 1, "move": "6-4@L"}
    events = [header, deal, second, first, second, {"kind": "penalty", "seat": 1}]
    replay = replay_from_stream(events, 1, 2)
    assert replay is not None and replay["moves"] == [[0, "6-6"], [1, "6-4@L"]]


def test_a_stream_missing_a_move_or_the_match_rebuilds_nothing() -> None:
    header = {"kind": "match", "variant": "tyaga", "players": 2, "options": {}, "seed": 1}
    deal = {"kind": "deal", "deal": 1, "start": 0, "fixture": {"hands": [], "boneyard": []}}
    second = {"kind": "move", "index": 1, "seat": 1, "move": "6-4@L"}
    assert replay_from_stream([header, deal, second], 1, 2) is None
    assert replay_from_stream([deal, second], 1, 1) is None
