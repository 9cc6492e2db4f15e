"""A page on the table's socket: welcomed as its seat, sent the table, its moves
pressed through the core, its refusals told and nothing changed."""

from __future__ import annotations

from adapters.web import frames
from tests.adapters.web.conftest import Tables, game_of, ticket, until_my_turn


async def test_a_seat_is_welcomed_then_sent_the_table(tables: Tables) -> None:
    worker = await tables.worker()
    chat = await tables.open(worker)
    page = await worker.page(frames.Hello(ticket=ticket(chat)))
    welcome = await page.next()
    assert isinstance(welcome, frames.Welcome)
    assert welcome.seat == 0 and welcome.lang == "en"
    assert welcome.words["your_turn"] == "Your turn"
    state = await page.next()
    assert isinstance(state, frames.State)
    assert state.table is not None and state.hand is not None
    assert state.hand.seat == 0
    assert state.names[0] == "\u2068Ann\u2069"  # isolated, as the table writes names
    await page.close()


async def test_a_legal_move_is_taken_and_a_newer_state_follows(tables: Tables) -> None:
    worker = await tables.worker()
    chat = await tables.open(worker)
    game = await until_my_turn(worker, chat)
    page = await worker.page(frames.Hello(ticket=ticket(chat)))
    await page.next()
    state = await page.until(lambda f: isinstance(f, frames.State) and f.version == game.version)
    assert isinstance(state, frames.State) and state.hand is not None
    move = state.hand.moves[0]
    await page.send(frames.Play(notation=move.notation, counter=state.hand.counter))
    answer = await page.until(lambda f: isinstance(f, frames.Answer))
    assert answer == frames.Answer(ok=True, text="")
    newer = await page.until(lambda f: isinstance(f, frames.State) and f.version > state.version)
    assert isinstance(newer, frames.State) and newer.events
    assert (await game_of(worker, chat)).version > game.version
    await page.close()
