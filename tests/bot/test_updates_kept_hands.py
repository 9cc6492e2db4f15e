"""A hand is drawn again only when a write may have changed it: the screen kept for a
seat whose hand was not drawn is one that could not have looked different."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.model import codec
from bot.model.contract import Outbound, Screen, UserRef
from bot.model.decision import Game
from bot.storage.store import Store
from bot.table import updates as updates_module
from bot.table.steady_presses import distinct_moves
from bot.table.updates import hand_of
from tests.bot.driver import Table, buttons, make_table, move_buttons, user

ANNA, BORIS, CHEN, DARIA = user(1, "Anna"), user(2, "Boris"), user(3, "Chen"), user(4, "Daria")

# game, options, people, computers
MATCHES = [
    ("tyaga", ("target=60",), [ANNA, BORIS, CHEN, DARIA], 0),
    ("kozel", ("target=30",), [ANNA, BORIS, CHEN], 1),
    ("baghdad", ("match=deals:2",), [ANNA, BORIS], 0),
    ("three_guns", (), [ANNA, BORIS], 1),
]


async def _open(
    table: Table, variant: str, options: tuple[str, ...], people: list[UserRef], n: int
) -> None:
    """A table with a turn timer, so that seats also run out of time."""
    host = people[0]
    await table.command(host, "new", variant, *options, "timer=60")
    for person in people[1:]:
        await table.command(person, "join")
    for _ in range(n):
        await table.command(host, "add_computer")
    await table.command(host, "start")


async def _step(table: Table, people: list[UserRef], rng: random.Random) -> list[Outbound]:
    """Mostly a move; now and then someone leaves or comes back, time runs out, or the
    next deal is asked for."""
    roll = rng.random()
    if roll < 0.04:
        return await table.command(rng.choice(people), "leave")
    if roll < 0.08:
        return await table.command(rng.choice(people), "join")
    if roll < 0.12:
        table.clock.advance(61.0)
        return await table.tick()
    for person in rng.sample(people, len(people)):
        moves = move_buttons(table.hand(person))
        if moves:
            return await table.press(person, rng.choice(moves).payload)
    next_deal = [b for b in buttons(table.table()) if b.payload and "Next deal" in b.label]
    if next_deal:
        return await table.press(people[0], next_deal[0].payload)
    table.clock.advance(6.0)
    return await table.tick()


@pytest.mark.parametrize("steady", [False, True], ids=["moves", "steady"])
@pytest.mark.parametrize(("variant", "options", "people", "computers"), MATCHES)
async def test_a_hand_not_drawn_again_could_not_have_changed(
    fake_store: Store,
    monkeypatch: pytest.MonkeyPatch,
    variant: str,
    options: tuple[str, ...],
    people: list[UserRef],
    computers: int,
    steady: bool,
) -> None:
    """For hands that list the moves, and for steady hands (whose buttons are the tiles
    whoever's turn it is: a press may ask where a tile goes, or be refused)."""
    kept: list[Screen] = []
    changed: list[tuple[Screen, Screen]] = []  # kept, though it would have looked different
    judged = updates_module._hand_kept

    def checked(before: Game, after: Game, seat: int, stays: bool = False) -> bool:
        assert stays == steady
        if not judged(before, after, seat, stays):
            return False
        assert before.state is not None and after.state is not None
        was = hand_of(before.doc, before.state, seat, stays)
        now = hand_of(after.doc, after.state, seat, stays)
        kept.append(was)
        if not updates_module._looks_the_same(was, now):
            changed.append((was, now))
        return True

    monkeypatch.setattr(updates_module, "_hand_kept", checked)
    table = make_table(fake_store, seed=3)
    if steady:
        table.sessions.steady_hands(table.chat.platform)
    await _open(table, variant, options, people, computers)
    rng = random.Random(11)
    for _ in range(3000):
        if await fake_store.load(table.chat) is None:
            break
        await _step(table, people, rng)
    else:
        raise AssertionError("the match did not end")
    assert changed == []
    assert kept


async def test_a_move_draws_the_hands_it_may_change_and_no_other(
    fake_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[int] = []
    original = updates_module.hand_of

    def counted(doc: Any, state: Any, seat: int, steady: bool = False, table: Any = None) -> Any:
        drawn.append(seat)
        return original(doc, state, seat, steady, table)

    people = [ANNA, BORIS, CHEN, DARIA]
    table = make_table(fake_store)
    await table.start_match("tyaga", people)
    monkeypatch.setattr(updates_module, "hand_of", counted)
    for _ in range(8):
        state = await table.state()
        assert state is not None and state.turn is not None and not state.deal_over
        mover = people[state.turn]
        drawn.clear()
        await table.press(mover, move_buttons(table.hand(mover))[0].payload)
        after = await table.state()
        assert after is not None and after.turn is not None
        assert sorted(drawn) == sorted({state.turn, after.turn})


async def test_with_steady_hands_a_move_draws_only_the_hands_whose_tiles_changed(
    fake_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The turn passing changes nothing a steady hand shows: the next player's hand is
    not drawn for it, only the hands that gained or lost tiles."""
    drawn: list[int] = []
    original = updates_module.hand_of

    def counted(doc: Any, state: Any, seat: int, steady: bool = False, table: Any = None) -> Any:
        assert steady
        drawn.append(seat)
        return original(doc, state, seat, steady, table)

    people = [ANNA, BORIS, CHEN, DARIA]
    table = make_table(fake_store)
    table.sessions.steady_hands(table.chat.platform)
    await table.start_match("tyaga", people)
    monkeypatch.setattr(updates_module, "hand_of", counted)
    passed = 0
    for _ in range(8):
        state = await table.state()
        assert state is not None and state.turn is not None and not state.deal_over
        mover = people[state.turn]
        drawn.clear()
        await table.press(mover, _one_move_tile(table.hand(mover), state))
        after = await table.state()
        assert after is not None and after.turn is not None
        changed = {s for s in range(len(people)) if state.hands[s] != after.hands[s]}
        assert sorted(drawn) == sorted(changed)
        passed += after.turn not in changed
    assert passed, "the turn never passed to a player whose tiles stayed"


def _one_move_tile(hand: Screen | None, state: Any) -> str:
    """The payload of a steady hand's tile that has one move now."""
    for pressed in buttons(hand):
        action = codec.decode(pressed.payload or "")
        tile = action.tile if isinstance(action, codec.HandPress) else None
        if tile is not None and len(distinct_moves(state, tile)) == 1:
            assert pressed.payload is not None
            return pressed.payload
    raise AssertionError("no tile with one move")
