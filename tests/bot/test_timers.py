"""Turn timers live in Redis: an expired turn is played once however many
processes poll, and a player who keeps running out of time loses his seat to a
computer for the rest of the match."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import pytest

import engine
from bot.ai import Allowance
from bot.model import codec
from bot.model.contract import ChatRef, Notice, Slot, SlotKind, Unreachable
from bot.model.gamedoc import GameDoc
from bot.storage.store import Store
from bot.table import match_steps
from bot.table import runner as runner_module
from bot.table.sessions import Sessions
from engine import DOUBLE_SIX, DRAW, Move, State, Tile
from tests.bot.driver import (
    SETTINGS,
    Table,
    deal,
    make_table,
    move_buttons,
    responses,
    scripted,
    shows,
    user,
)

ANNA, BORIS = user(1, "Anna"), user(2, "Boris")
# Both always hold a playable tile for a while: every turn is a real choice.
HANDS = deal(
    DOUBLE_SIX,
    "6-6 6-5 6-4 6-3 5-5 5-4 4-4",
    "6-2 6-1 6-0 5-3 4-3 3-3 5-2",
    leader=0,
)


async def timed_game(table: Table, timer: int = 30) -> None:
    await scripted(table, "tyaga", [ANNA, BORIS], HANDS, timer=timer)
    await table.open_hands(ANNA, BORIS)


async def test_an_expired_turn_is_played_once_with_two_processes_polling(
    new_store: Callable[..., Store],
) -> None:
    table = make_table(new_store())
    await timed_game(table)
    pair = [Sessions(new_store(), SETTINGS, clock=table.clock) for _ in range(2)]
    table.clock.advance(29)
    assert await asyncio.gather(*(s.tick() for s in pair)) == [[], []]
    table.clock.advance(2)

    results = await asyncio.gather(*(s.tick() for s in pair))

    assert sum(len(shows(out, SlotKind.TABLE)) for out in results) == 1
    doc = await table.doc()
    assert doc is not None and len(doc.moves) == 1 and doc.timed_out == (0,)
    assert doc.seats[0].timeouts == 1
    for out in results:
        table.take(out)
    table_lines = table.table().plain_text().splitlines()
    led = [line for line in table_lines if "\u2068Anna\u2069 led" in line]
    assert len(led) == 1 and led[0].endswith("(time ran out)")


async def test_a_turn_is_not_timed_out_when_the_player_moved_in_time(store: Store) -> None:
    table = make_table(store)
    await timed_game(table)
    await table.press(ANNA, codec.move_payload("scripted", 0, Move.lead(Tile(6, 6))))
    table.clock.advance(25)
    assert await table.tick() == []
    doc = await table.doc()
    assert doc is not None and doc.timed_out == () and len(doc.moves) == 1


async def test_three_timeouts_in_a_row_give_the_seat_to_a_computer(store: Store) -> None:
    table = make_table(store)
    await timed_game(table)
    rng = random.Random(1)
    notices: list[Notice] = []
    for _ in range(40):
        doc = await table.doc()
        assert doc is not None
        if doc.seats[0].away is not None:
            break
        moves = move_buttons(table.hand(BORIS))
        if moves:
            await table.press(BORIS, rng.choice(moves).payload)
            continue
        table.clock.advance(31)
        out = await table.tick()
        notices += [o for o in out if isinstance(o, Notice)]
    doc = await table.doc()
    assert doc is not None
    assert doc.seats[0].away == "timeout" and doc.seats[0].timeouts == 3
    assert len(doc.timed_out) == 3
    assert (
        len(notices) == 1
        and "\u2068Anna\u2069 ran out of time 3 times in a row" in notices[0].screen.plain_text()
    )
    assert doc.due is not None and doc.due.kind in ("computer", "turn", "deal")
    hand = table.hand(ANNA)
    assert hand is not None and "a computer plays your seat" in hand.plain_text()
    assert "join to take it back" in hand.plain_text()  # as /help says of join
    (back,) = responses(await table.command(ANNA, "join"))
    assert "your seat is yours again" in back.screen.plain_text()
    doc = await table.doc()
    assert doc is not None and doc.seats[0].away is None and doc.seats[0].timeouts == 0


async def test_a_move_of_ones_own_resets_the_timeout_count(store: Store) -> None:
    table = make_table(store)
    await timed_game(table)
    table.clock.advance(31)
    await table.tick()  # Anna times out once
    doc = await table.doc()
    assert doc is not None and doc.seats[0].timeouts == 1
    await table.press(BORIS, move_buttons(table.hand(BORIS))[0].payload)
    await table.press(ANNA, move_buttons(table.hand(ANNA))[0].payload)
    doc = await table.doc()
    assert doc is not None and doc.seats[0].timeouts == 0


async def test_a_deadline_the_game_has_moved_past_does_nothing(store: Store) -> None:
    table = make_table(store)
    await timed_game(table)
    await store.schedule(table.chat, "scripted", 99, table.clock() - 1)
    assert await table.tick() == []
    doc = await table.doc()
    assert doc is not None and doc.moves == ()


async def test_no_timer_means_no_timeout(store: Store) -> None:
    table = make_table(store)
    await timed_game(table, timer=0)
    table.clock.advance(10_000)
    assert await table.tick() == []


class ProcessDied(BaseException):
    """The process stops dead: nothing after this line of the core runs."""


async def test_a_computer_still_moves_when_the_process_died_just_after_the_write(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = make_table(store)
    await scripted(table, "tyaga", [ANNA, "greedy"], HANDS)

    def dies(*_args: object) -> None:
        raise ProcessDied

    with monkeypatch.context() as patched:
        patched.setattr(runner_module, "game_updates", dies)
        with pytest.raises(ProcessDied):
            await table.press(ANNA, codec.move_payload("scripted", 0, Move.lead(Tile(6, 6))))
    doc = await table.doc()
    assert doc is not None and len(doc.moves) == 1  # written with its deadline

    restarted = Sessions(store, SETTINGS, clock=table.clock)
    table.clock.advance(SETTINGS.computer_delay + 1)
    await table.tick(restarted)

    doc = await table.doc()
    assert doc is not None and len(doc.moves) == 2 and doc.moves[1][0] == 1


async def test_a_game_read_without_its_deadline_gets_it_back(store: Store) -> None:
    table = make_table(store)
    await scripted(table, "tyaga", [ANNA, "greedy"], HANDS)
    await table.press(ANNA, codec.move_payload("scripted", 0, Move.lead(Tile(6, 6))))
    await store.unschedule(table.chat, "scripted")  # the deadline is lost somehow
    table.clock.advance(SETTINGS.computer_delay + 1)
    assert await table.tick() == []

    await table.press(ANNA, codec.tiles_payload("scripted"))  # any look at the game
    await table.tick()

    doc = await table.doc()
    assert doc is not None and len(doc.moves) == 2 and doc.moves[1][0] == 1


async def test_arming_a_deadline_never_moves_one_already_set(store: Store) -> None:
    chat = make_table(store).chat
    await store.schedule(chat, "g1", 5, 100.0)
    assert not await store.arm(chat, "g1", 5, 50.0)
    assert await store.claim_due(60.0) == []
    assert await store.arm(chat, "g1", 6, 200.0)
    claimed = await store.claim_due(300.0)
    assert sorted(c.counter for c in claimed) == [5, 6]


# Thief of Baghdad: Anna leads, and six tiles are left to draw, the first of them 6-0.
CARAVANS = deal(
    DOUBLE_SIX,
    "5-5 5-4 5-3 5-2 5-1 5-0 4-4 4-3 4-2 4-1 4-0",
    "3-3 3-2 3-1 3-0 2-2 2-1 2-0 1-1 1-0 0-0 6-5",
    leader=0,
)


async def test_a_timer_run_out_mid_turn_has_the_computer_finish_the_turn_at_its_pace(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    chooses = match_steps.computer_move

    def draws_when_it_may(
        doc: GameDoc,
        state: State[Any],
        level: str,
        allowance: Allowance,
        chosen: Move | None = None,
    ) -> Move:
        return DRAW if DRAW in engine.legal_moves(state) else chooses(doc, state, level, allowance)

    monkeypatch.setattr(match_steps, "computer_move", draws_when_it_may)
    table = make_table(store)
    await scripted(table, "baghdad", [ANNA, BORIS], CARAVANS, timer=30)
    await table.open_hands(ANNA, BORIS)
    table.clock.advance(31)
    await table.tick()  # the computer draws for Anna: she may lay the 6-0 or end her turn
    doc, state = await table.doc(), await table.state()
    assert doc is not None and state is not None
    assert doc.moves == ((0, "draw"),) and state.turn == 0
    assert doc.due is not None and doc.due.kind == "turn"
    assert doc.due.at == table.clock() + SETTINGS.computer_delay  # not a fresh 30 s
    for _ in range(3):  # the computer ends her turn: a camel, and maybe its extra, or done
        table.clock.advance(SETTINGS.computer_delay)
        await table.tick()
        state = await table.state()
        assert state is not None
        if state.turn != 0:
            break
    doc = await table.doc()
    assert doc is not None and state.turn == 1
    assert doc.seats[0].timeouts == 1  # one turn, one timeout
    anna = [i for i, (seat, _move) in enumerate(doc.moves) if seat == 0]
    assert len(anna) >= 2 and set(anna) <= set(doc.timed_out)
    assert doc.due is not None and doc.due.at == table.clock() + 30  # Boris has his own timer


async def test_an_unreachable_players_turns_run_on_the_short_timer(store: Store) -> None:
    table = make_table(store)
    await timed_game(table, timer=60)
    doc = await table.doc()
    assert doc is not None and doc.due is not None
    game = await table.sessions._runner.load(table.chat)
    assert game is not None and game.state is not None
    turn = game.state.turn
    assert turn is not None
    user = doc.seats[turn].user
    assert user is not None
    hand = Slot(SlotKind.HAND, ChatRef("tg", user.user_id), doc.id, user, table.chat)
    await table.send(Unreachable(user, hand))  # he blocked the bot: his turn is short now
    doc = await table.doc()
    assert doc is not None and doc.due is not None and doc.due.kind == "turn"
    assert doc.due.at == table.clock.now + SETTINGS.unreachable_turn_timeout
