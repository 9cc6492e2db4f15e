"""Many processes, one Redis: a move applies exactly once, and two processes
serving one chat play a game to its end with no move lost or doubled."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable

from bot.model import codec
from bot.model.contract import Answer, Press
from bot.storage.store import Store
from bot.table.sessions import Sessions
from engine import format_move
from tests.bot.driver import SETTINGS, Clock, Table, make_table, move_buttons, user

ANNA, BORIS = user(1, "Anna"), user(2, "Boris")


async def two_people_playing(table: Table) -> None:
    await table.start_match("tyaga", [ANNA, BORIS])


def sessions_on_own_connections(
    new_store: Callable[..., Store], clock: Clock, n: int
) -> list[Sessions]:
    return [Sessions(new_store(), SETTINGS, clock=clock, rng=random.Random(i)) for i in range(n)]


async def test_fifty_presses_of_one_button_at_once_apply_exactly_once(
    new_store: Callable[..., Store],
) -> None:
    table = make_table(new_store())
    await two_people_playing(table)
    state = await table.state()
    assert state is not None and state.turn is not None
    mover = (ANNA, BORIS)[state.turn]
    press = Press(table.chat, mover, move_buttons(table.hand(mover))[0].payload or "")
    crowd = sessions_on_own_connections(new_store, table.clock, 50)

    results = await asyncio.gather(*(s.handle(press) for s in crowd))

    answers = [out[0] for out in results if isinstance(out[0], Answer)]
    assert len(answers) == len(results)  # every press is answered first
    assert answers.count(Answer("")) == 1
    refused = {a.text for a in answers if a != Answer("")}
    assert refused <= {
        f"Not your turn — waiting for \u2068{(ANNA, BORIS)[1 - state.turn].name}\u2069",
        "That button is out of date: use the new ones.",
    }
    doc = await table.doc()
    assert doc is not None
    assert sum(1 for seat, _text in doc.moves if seat == state.turn) == 1


async def test_two_processes_play_a_game_to_its_end_without_losing_or_doubling_a_move(
    new_store: Callable[..., Store],
) -> None:
    table = make_table(new_store())
    await table.start_match("kozel", [ANNA, BORIS], "target=30", computers=1)
    pair = sessions_on_own_connections(new_store, table.clock, 2)
    rng = random.Random(4)
    applied: list[tuple[int, str]] = []  # (turn counter, move) of each press that applied

    for _ in range(3000):
        if await table.store.load(table.chat) is None:
            break
        mover = next((p for p in (ANNA, BORIS) if move_buttons(table.hand(p))), None)
        if mover is None:
            table.clock.advance(6.0)
            results = await asyncio.gather(*(s.tick() for s in pair))
            for out in results:
                table.take(out)
            continue
        choice = rng.choice(move_buttons(table.hand(mover)))
        press = Press(table.chat, mover, choice.payload or "")
        results = await asyncio.gather(*(s.handle(press) for s in pair))
        for out in results:
            table.take(out)
        assert [out[0] == Answer("") for out in results].count(True) == 1
        decoded = codec.decode(press.payload)
        assert isinstance(decoded, codec.MovePress)
        applied.append((decoded.counter, format_move(decoded.move)))
    else:
        raise AssertionError("the match did not end")

    doc = await table.last_doc()
    assert doc is not None and doc.status == "finished"
    for counter, move in applied:
        assert doc.moves[counter][1] == move
    state = await table.state()
    assert state is not None and state.match_over
    board = await table.store.scoreboard(table.chat, "kozel")
    assert sorted(r.played for r in board.rows) == [1, 1]
