"""The stored game document and the engine state rebuilt from it."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from bot.model.contract import ChatRef, UserRef
from bot.model.game_state import build_state, deal_start_state, fits
from bot.model.gamedoc import (
    RESIGNED,
    BadDocument,
    Due,
    GameDoc,
    Seat,
    TableSettings,
    deal_entry,
    deals_from,
    from_json,
    from_parts,
    head_json,
    move_entry,
    moves_from,
    replay_json,
    to_json,
)
from engine import apply, format_move, legal_moves, new_match

ANNA = UserRef("tg", "1", "Anna", "en")


def started(moves: int = 0) -> GameDoc:
    state = new_match("kozel", 3, {"target": 51}, seed=9)
    doc = GameDoc(
        id="abcdefgh",
        chat=ChatRef("tg", "-100", "5"),
        status="running",
        variant="kozel",
        options={"target": 51},
        seed=9,
        seats=(Seat(user=ANNA), Seat(computer="random"), Seat(computer="greedy")),
        host=ANNA.key,
        settings=TableSettings(45, True, False, "en"),
        created=12.5,
        deals=(state.dealt,),
        deal_starts=(0,),
    )
    done: list[tuple[int, str]] = []
    for _ in range(moves):
        move = legal_moves(state)[0]
        assert state.turn is not None
        done.append((state.turn, format_move(move)))
        state, _events = apply(state, move)
    return doc.but(moves=tuple(done))


def test_a_document_survives_json_unchanged() -> None:
    doc = started(5).but(
        due=Due("turn", 99.5, 8),
        pinged=0,
        timed_out=(3,),
        seats=(Seat(user=ANNA, away=RESIGNED, timeouts=2), *started().seats[1:]),
    )
    assert from_json(json.loads(json.dumps(to_json(doc)))) == doc


def test_a_changed_copy_keeps_every_other_field_and_refuses_an_unknown_one() -> None:
    doc = started(3).but(due=Due("turn", 99.5, 8), chat_title="Room", extra={"x": 1})
    copy = doc.but(pinged=1, panel="settings")
    assert (copy.pinged, copy.panel) == (1, "settings")
    assert replace(copy, pinged=doc.pinged, panel=doc.panel) == doc
    assert (doc.pinged, doc.panel) == (None, "main")  # the original is as it was
    with pytest.raises(TypeError, match="nope"):
        doc.but(nope=1)


def test_fields_a_newer_version_added_are_kept_on_rewrite() -> None:
    data = to_json(started())
    data["newer_field"] = {"x": 1}
    assert to_json(from_json(data))["newer_field"] == {"x": 1}


def test_an_unknown_schema_is_refused() -> None:
    data = to_json(started())
    data["schema"] = 99
    with pytest.raises(BadDocument):
        from_json(data)


def test_a_broken_document_is_refused() -> None:
    data = to_json(started())
    del data["players"]
    with pytest.raises(BadDocument):
        from_json(data)


def test_the_state_is_rebuilt_by_replaying_the_moves() -> None:
    doc = started(6)
    state = build_state(doc)
    assert state.counter == 6 and state.dealt == doc.deals[0]


def test_a_state_continues_from_an_earlier_state_of_the_same_game() -> None:
    early = started(2)
    later = started(7)
    assert build_state(later, build_state(early)) == build_state(later)


def test_a_state_ahead_of_the_document_does_not_fit_it() -> None:
    ahead, behind = started(7), started(3)
    assert not fits(build_state(ahead), behind)
    assert fits(build_state(behind), ahead)


def test_the_deal_start_state_is_the_state_before_the_deals_first_move() -> None:
    doc = started(5)
    assert deal_start_state(doc) == build_state(doc.but(moves=()))
    assert deal_start_state(doc, build_state(started(3))) == deal_start_state(doc)


def test_a_document_round_trips_through_its_stored_parts() -> None:
    doc = started(6)
    head = head_json(doc)
    assert "moves" not in head and "deals" not in head
    moves = moves_from([move_entry(m) for m in doc.moves])
    deals = deals_from([deal_entry(d) for d in doc.deals])
    assert from_parts(head, deals, moves) == doc


@pytest.mark.parametrize("schema", [1, 99, None])
def test_a_document_of_another_schema_is_refused_whole_or_in_parts(schema: int | None) -> None:
    doc = started(4)
    with pytest.raises(BadDocument, match=f"schema {schema}"):
        from_json({**to_json(doc), "schema": schema})
    with pytest.raises(BadDocument, match=f"schema {schema}"):
        from_parts({**head_json(doc), "schema": schema}, doc.deals, doc.moves)


def test_the_replay_file_has_the_engine_format() -> None:
    doc = started(4)
    replay = replay_json(doc, build_state(doc).options, 1)
    # A match still being played: no seed, which would deal every deal to come.
    assert set(replay) == {"format", "variant", "players", "options", "deals", "moves"}
    assert replay["players"] == 3 and replay["options"]["target"] == 51
    assert replay["options"]["double_move"] == "on"  # defaults written out
    assert replay["moves"] == [list(m) for m in doc.moves]
    assert len(replay["deals"][0]["hands"]) == 3
