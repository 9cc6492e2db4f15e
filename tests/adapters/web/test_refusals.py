"""A move the core would refuse from a chat's button is refused from a page the same
way: with its words, and with nothing written (the stored version stays)."""

from __future__ import annotations

import engine
from adapters.web import frames
from bot.model.parts import TileRef
from engine import Move, Tile
from tests.adapters.web.conftest import Page, Tables, game_of, seated_page, ticket, until_my_turn


async def refusal(page: Page) -> frames.Answer:
    answer = await page.answer()
    assert isinstance(answer, frames.Answer)
    return answer


async def test_a_move_from_an_older_hand_is_refused(tables: Tables) -> None:
    seated = await seated_page(tables)
    page, state = seated.page, seated.state
    assert state.hand is not None and state.table is not None
    stale = state.hand.counter + 1
    await page.send(frames.Play(notation=state.hand.moves[0].notation, counter=stale))
    answer = await refusal(page)
    assert answer == frames.Answer(ok=False, text="That button is out of date: use the new ones.")
    assert await seated.stored_version() == seated.version
    await page.close()


async def test_a_tile_not_in_the_hand_is_refused_with_the_cores_words(tables: Tables) -> None:
    seated = await seated_page(tables)
    page, state = seated.page, seated.state
    assert state.hand is not None and state.table is not None
    held = set(state.hand.tiles) | {laid.tile for laid in state.table.line}
    tile = next(
        Tile(hi, lo)
        for hi in range(7)
        for lo in range(hi + 1)
        if TileRef.of(Tile(hi, lo)) not in held
    )
    notation = engine.format_move(Move.play(tile, "L") if state.table.line else Move.lead(tile))
    await page.send(frames.Play(notation=notation, counter=state.hand.counter))
    answer = await refusal(page)
    assert not answer.ok and answer.text == f"[{tile.hi}|{tile.lo}] is not in your hand"
    assert await seated.stored_version() == seated.version
    await page.close()


async def test_words_that_are_no_move_are_refused(tables: Tables) -> None:
    seated = await seated_page(tables)
    page, state = seated.page, seated.state
    assert state.hand is not None
    await page.send(frames.Play(notation="seven", counter=state.hand.counter))
    assert await refusal(page) == frames.Answer(ok=False, text="That is not a move")
    await page.close()


async def test_a_spectators_move_is_refused_and_changes_nothing(tables: Tables) -> None:
    worker = await tables.worker()
    chat = await tables.open(worker)
    game = await until_my_turn(worker, chat)
    watcher = await worker.page(frames.Hello(ticket=ticket(chat, None)))
    welcome = await watcher.next()
    assert isinstance(welcome, frames.Welcome) and welcome.seat is None
    state = await watcher.next()
    assert isinstance(state, frames.State) and state.hand is None and state.actions == ()
    assert game.state is not None
    seat_move = engine.view(game.state, 0).legal[0]
    notation = engine.format_move(seat_move)
    await watcher.send(frames.Play(notation=notation, counter=game.state.counter))
    assert await refusal(watcher) == frames.Answer(ok=False, text="You are watching")
    assert (await game_of(worker, chat)).version == game.version
    await watcher.close()
