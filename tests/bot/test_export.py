"""Export writes the replay from the stored game, which holds the whole match: every
deal as dealt and every move as applied, each stored once. A match still being played
is written up to its last finished deal and without its seed, so that nothing in the
file deals a deal to come."""

from __future__ import annotations

import json
import random
from typing import Any

import fakeredis

from bot.model.contract import ChatRef, Document, UserRef
from bot.model.game_state import build_state
from bot.model.gamedoc import GameDoc, replay_json, to_json
from bot.storage import keys
from bot.storage.store import Store
from engine import api
from engine.replay import FORMAT, fixture_json, parse_replay, run
from tests.bot.driver import Table, make_table, user

ANNA, BORIS, CARL = user(1, "Anna"), user(2, "Boris"), user(3, "Carl")


async def finished_match(table: Table) -> GameDoc:
    await table.start_match("kozel", [ANNA, BORIS], "target=61", computers=1)
    await table.play_out([ANNA, BORIS], random.Random(7))
    doc = await table.last_doc()
    assert doc is not None and doc.status == "finished" and len(doc.deals) > 1
    return doc


async def exported(table: Table, who: UserRef = ANNA) -> dict[str, Any]:
    document = next(o for o in await table.command(who, "export") if isinstance(o, Document))
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
    assert replay["seed"] == doc.seed and replay["format"] == FORMAT  # it is over: no secret


async def in_second_deal(table: Table) -> GameDoc:
    """Anna and Boris play Tyaga until its second deal has been dealt."""
    await table.start_match("tyaga", [ANNA, BORIS], "target=1000")
    rng = random.Random(3)
    for _ in range(500):
        doc = await table.doc()
        assert doc is not None and doc.status == "running"
        if len(doc.deals) == 2:
            return doc
        await table.step([ANNA, BORIS], rng)
    raise AssertionError("the second deal never came")


async def test_a_running_matchs_export_does_not_deal_the_next_deal(fake_store: Store) -> None:
    table = make_table(fake_store)
    doc = await in_second_deal(table)
    second = doc.deals[1]
    for who in (ANNA, BORIS, CARL):  # players and someone watching alike
        replay = await exported(table, who)
        assert "seed" not in replay
        assert str(doc.seed) not in json.dumps(replay)
        assert [fixture_json(f) for f in doc.deals[:1]] == replay["deals"]
        after_first = run(parse_replay(replay)).state
        assert after_first.deal_over and not after_first.match_over
        guessed = api.next_deal(after_first)  # what the file's reader could deal
        assert guessed.dealt.hands != second.hands
        assert set(guessed.dealt.hands[0]) != set(second.hands[0])


async def test_seeds_are_too_long_to_find_by_trying_them(fake_store: Store) -> None:
    """A deal seen narrows the seed down; 63 bits keep trying every seed out of reach."""
    seeds = []
    for number in range(8):
        table = make_table(fake_store, ChatRef("tg", f"-{200 + number}"), seed=number)
        await table.command(ANNA, "new", "tyaga")
        doc = await table.doc()
        assert doc is not None
        seeds.append(doc.seed)
    assert all(0 <= seed < 2**63 for seed in seeds)
    assert max(seeds) >= 2**32
