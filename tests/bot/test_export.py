"""Export writes the replay from the stored game, which holds the whole match: every
deal as dealt and every move as applied, each stored once."""

from __future__ import annotations

import json
import random
from typing import Any

import fakeredis

from bot import keys
from bot.contract import Document
from bot.gamedoc import GameDoc, replay_json, to_json
from bot.replay import build_state
from bot.store import Store
from engine.replay import fixture_json, parse_replay, run
from tests.bot.driver import Table, make_table, user

ANNA, BORIS = user(1, "Anna"), user(2, "Boris")


async def finished_match(table: Table) -> GameDoc:
    await table.start_match("kozel", [ANNA, BORIS], "target=61", computers=1)
    await table.play_out([ANNA, BORIS], random.Random(7))
    doc = await table.last_doc()
    assert doc is not None and doc.status == "finished" and len(doc.deals) > 1
    return doc


async def exported(table: Table) -> dict[str, Any]:
    document = next(o for o in await table.command(ANNA, "export") if isinstance(o, Document))
    data = json.loads(document.data)
    assert isinstance(data, dict)
    return data


async def test_the_finished_game_is_kept_whole_and_compact(
    fake_store: Store, fake_server: fakeredis.FakeServer
) -> None:
    table = make_table(fake_store)
    doc = await finished_match(table)
    client = fakeredis.FakeAsyncRedis(server=fake_server, decode_responses=True)
    kept = await client.get(keys.last_game(table.chat))
    await client.aclose()
    assert isinstance(kept, str) and kept.startswith("z:")  # compressed
    assert len(kept) < len(json.dumps(to_json(doc))) / 2
    assert [fixture_json(f) for f in doc.deals] == [
        fixture_json(f) for f in (await table.last_doc() or doc).deals
    ]


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
