"""A deal snapshot is data: the state at a deal's start comes back equal, every game's;
anything else of this engine is refused in one line, never run, and moved aside, and the
game goes on from its moves."""

from __future__ import annotations

import dataclasses
import logging
import random
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as aredis

import engine
from bot.model.contract import Answer, ChatRef, Command
from bot.storage import deal_snapshot, keys
from bot.storage.deal_snapshot import BadSnapshot, Snapshot, dump, engine_digest, load
from bot.storage.store import SET_ASIDE_TTL, Store
from bot.table.sessions import Sessions
from engine import State, api
from engine.variants.baghdad_caravans import BaghdadDetail, Caravan
from engine.variants.kozel import KozelDetail
from engine.variants.three_guns import GunsDetail
from engine.variants.tyaga import TyagaDetail
from tests.bot.driver import SETTINGS, info_text, make_table, move_buttons, user
from tests.crafted import old_snapshot

ANNA, BORIS = user(1, "Anna"), user(2, "Boris")
CHAT = ChatRef("tg", "-100778")

TABLES: list[tuple[str, int, dict[str, str | int]]] = [
    ("tyaga", 2, {}),
    ("tyaga", 3, {"opening": "highest_double", "no_double": "blank"}),
    ("tyaga", 6, {"opening": "double_six", "hand_size": 4}),
    ("kozel", 2, {}),
    ("kozel", 3, {"double_move": "on"}),
    ("kozel", 4, {"teams": "on", "target": 51}),
    ("three_guns", 3, {}),
    ("baghdad", 2, {"match": "deals:4"}),
    ("baghdad", 2, {"match": "target:60"}),
]


def states_of_a_match(variant: str, players: int, options: dict[str, Any], seed: int) -> Any:
    """Every state of a whole match, each deal's first one included."""
    rng = random.Random(seed)
    state = api.new_match(variant, players, options, seed)
    yield state
    while not state.match_over:
        if state.deal_over:
            state = api.next_deal(state)
        else:
            state, _ = api.apply(state, rng.choice(api.legal_moves(state)))
        yield state


@pytest.mark.parametrize(("variant", "players", "options"), TABLES)
def test_every_state_of_every_game_comes_back_equal(
    variant: str, players: int, options: dict[str, Any]
) -> None:
    kinds: set[str] = set()
    for seed in (1, 2):
        for state in states_of_a_match(variant, players, options, seed):
            back = load(dump(state))
            assert back == state
            assert back is not None and type(back.detail) is type(state.detail)
            assert dict(back.options) == dict(state.options)
            if isinstance(state.detail, BaghdadDetail):
                kinds |= {c.status for c in state.detail.caravans}
    if variant == "baghdad":
        assert kinds >= {"stolen"}, "no caravan was ever stolen in these matches"


def test_the_stored_shape_has_every_field_of_the_engines_state() -> None:
    """A field the engine adds fails here rather than being lost on the way."""
    assert set(Snapshot.model_fields) == set(State._fields)
    by_game = {
        KozelDetail: "_Kozel",
        TyagaDetail: "_Tyaga",
        GunsDetail: "_Guns",
        BaghdadDetail: "_Baghdad",
        Caravan: "_Caravan",
    }
    for detail, model_name in by_game.items():
        model = getattr(deal_snapshot, model_name)
        wanted = {f.name for f in dataclasses.fields(detail)}
        assert set(model.model_fields) - {"game"} == wanted, detail.__name__


def test_a_snapshot_of_another_engine_is_ignored() -> None:
    text = dump(api.new_match("kozel", 3, {}, 4))
    assert load("000000000000:" + text.partition(":")[2]) is None
    assert load(None) is None and load("") is None


def _with(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


SOUND = dump(api.new_match("tyaga", 2, {}, 4))


@pytest.mark.parametrize(
    ("broken", "named"),
    [
        (engine_digest() + ":not json", "json"),
        (engine_digest() + ":[]", "object"),
        (_with(SOUND, '"players":2', '"players":"2"'), "players"),
        (_with(SOUND, '"counter":0', '"counter":0,"code":"os.system"'), "code"),
        (_with(SOUND, '"boneyard":["', '"boneyard":["7-1","'), "boneyard"),
        (_with(SOUND, '"boneyard":["', '"boneyard":["4-6","'), "boneyard"),
        (_with(SOUND, '"game":"tyaga"', '"game":"kozel"'), "detail"),
        (_with(SOUND, '"variant":"tyaga"', '"variant":"chess"'), "variant"),
        (_with(SOUND, '"deal_number":1', '"deal_number":0'), "deal_number"),
    ],
)
def test_a_snapshot_that_is_no_state_is_refused_in_one_line(broken: str, named: str) -> None:
    with pytest.raises(BadSnapshot) as refused:
        load(broken)
    said = str(refused.value)
    assert "\n" not in said and named in said.lower()


def test_a_pickled_snapshot_is_refused_and_runs_nothing(tmp_path: Path) -> None:
    made = tmp_path / "made"
    with pytest.raises(BadSnapshot):
        load(old_snapshot(engine_digest(), str(made)))
    assert not made.exists()


async def test_a_bad_snapshot_is_set_aside_and_the_game_goes_on(
    store: Store,
    redis_client: aredis.Redis,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    table = make_table(store, CHAT)
    await table.start_match("tyaga", [ANNA, BORIS], "target=500")
    doc = await table.doc()
    assert doc is not None
    made = tmp_path / "made"
    crafted = old_snapshot(engine_digest(), str(made))
    await redis_client.hset(keys.game(CHAT), "snap", crafted)
    fresh = Sessions(store, SETTINGS, clock=table.clock)  # a process that never saw the game
    person = next(p for p in (ANNA, BORIS) if move_buttons(table.hand(p)))
    payload = move_buttons(table.hand(person))[0].payload
    with caplog.at_level(logging.ERROR, logger="bot.table.runner"):
        out = await table.press(person, payload, sessions=fresh)
    assert out[0] == Answer("")  # the move was made
    assert not made.exists()
    after = await table.doc()
    assert after is not None and len(after.moves) == len(doc.moves) + 1
    aside = keys.snapshot_aside(CHAT, doc.id)
    assert await redis_client.get(aside) == crafted
    assert 0 < await redis_client.ttl(aside) <= SET_ASIDE_TTL
    assert await redis_client.hget(keys.game(CHAT), "snap") != crafted
    (record,) = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert aside in record.getMessage() and "\n" not in record.getMessage()
    await redis_client.hset(keys.game(CHAT), "snap", crafted)  # again, for the export
    exporter = Sessions(store, SETTINGS, clock=table.clock)
    told = await table.send(Command(CHAT, ANNA, "export"), exporter)
    assert "Nothing to export until the first deal is over." in info_text(told)
    assert not made.exists()


async def test_a_snapshot_of_another_game_is_set_aside(
    store: Store, redis_client: aredis.Redis
) -> None:
    table = make_table(store, CHAT)
    await table.start_match("tyaga", [ANNA, BORIS], "target=500")
    doc = await table.doc()
    assert doc is not None
    other = dump(engine.new_match("tyaga", 2, {}, doc.seed + 1))
    await redis_client.hset(keys.game(CHAT), "snap", other)
    fresh = Sessions(store, SETTINGS, clock=table.clock)
    person = next(p for p in (ANNA, BORIS) if move_buttons(table.hand(p)))
    out = await table.press(person, move_buttons(table.hand(person))[0].payload, sessions=fresh)
    assert out[0] == Answer("")
    after = await table.doc()
    assert after is not None and len(after.moves) == len(doc.moves) + 1
    assert await redis_client.get(keys.snapshot_aside(CHAT, doc.id)) == other
