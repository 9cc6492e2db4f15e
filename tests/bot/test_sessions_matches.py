"""Whole matches of every game, played through the core by pressing the buttons
it returned, with computers filling seats and time driven by a test clock."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from bot.model.contract import Document, Outbound, Screen, Show, SlotKind, UserRef
from bot.storage.store import Store
from engine import apply, new_match, next_deal, parse_move
from engine.state import Fixture
from engine.tiles import Tile
from tests.bot.driver import make_table, shows, user

ANNA, BORIS, CHEN = user(1, "Anna"), user(2, "Boris"), user(3, "Chen")

# game, options, people, computers
MATCHES = [
    ("tyaga", ("target=40",), [ANNA, BORIS], 1),
    ("kozel", ("target=30",), [ANNA, BORIS], 2),
    ("baghdad", ("match=deals:2",), [ANNA, BORIS], 0),
    ("three_guns", (), [ANNA], 2),
]


def at_most_one_update_per_slot(out: list[Outbound]) -> bool:
    keys = Counter(o.slot.key for o in out if isinstance(o, Show))
    return all(n == 1 for n in keys.values())


@pytest.mark.parametrize(("variant", "options", "people", "computers"), MATCHES)
async def test_a_whole_match_is_played_through_the_core_and_counted_once(
    fake_store: Store, variant: str, options: tuple[str, ...], people: list[UserRef], computers: int
) -> None:
    table = make_table(fake_store)
    await table.start_match(variant, people, *options, computers=computers)
    await table.play_out(people, random.Random(7))

    board = await fake_store.scoreboard(table.chat, variant, 10)
    assert sorted(row.user_key for row in board.rows) == sorted(p.key for p in people)
    assert all(row.played == 1 for row in board.rows)
    state = await table.state()
    assert state is not None and state.match_over
    assert "The match is over" in table.table().plain_text()


@pytest.mark.parametrize(("variant", "options", "people", "computers"), MATCHES)
async def test_every_event_updates_the_table_once_and_each_hand_at_most_once(
    fake_store: Store, variant: str, options: tuple[str, ...], people: list[UserRef], computers: int
) -> None:
    table = make_table(fake_store)
    await table.start_match(variant, people, *options, computers=computers)
    await table.play_out(people, random.Random(3))
    showing: dict[str, Screen] = {}
    left_alone = 0  # events after which some player's hand stayed as it was
    for out in table.log:
        assert len(shows(out, SlotKind.TABLE)) <= 1
        assert at_most_one_update_per_slot(out)
        hands = shows(out, SlotKind.HAND)
        for hand in hands:
            assert hand.screen != showing.get(hand.slot.key), "an unchanged hand was sent"
            showing[hand.slot.key] = hand.screen
        if shows(out, SlotKind.TABLE) and len(hands) < len(people):
            left_alone += 1
    assert left_alone > 0


async def test_the_exported_replay_reproduces_the_match(fake_store: Store) -> None:
    table = make_table(fake_store)
    await table.start_match("kozel", [ANNA, BORIS], "target=30", computers=1)
    await table.play_out([ANNA, BORIS], random.Random(5))
    played = await table.state()
    assert played is not None

    out = await table.command(ANNA, "export")
    document = out[0]
    assert isinstance(document, Document)
    replay = json.loads(document.data)
    state = new_match(
        replay["variant"],
        replay["players"],
        replay["options"],
        replay["seed"],
        _fixture(replay["deals"][0]),
    )
    for seat, text in replay["moves"]:
        if state.deal_over:
            state = next_deal(state, _fixture(replay["deals"][state.deal_number]))
        state, _events = apply(state, parse_move(text), seat)
    assert state.match_over
    assert state.match_scores == played.match_scores
    assert state.winners == played.winners


def _fixture(data: dict[str, Any]) -> Fixture:
    hands = tuple(tuple(Tile.parse(t) for t in hand) for hand in data["hands"])
    return Fixture(hands, tuple(Tile.parse(t) for t in data["boneyard"]), data.get("leader"))
