"""Pages are kept live by the chat's channel, whoever writes the game: a page on another
worker, a chat's button pressed through the core, the computers' moves on a tick. A
page that comes back says the version it drew and is sent what happened since."""

from __future__ import annotations

import asyncio

import pytest

from adapters.web import frames
from bot.model import codec
from bot.model.contract import Answer, Press
from bot.model.events import DealStarted
from bot.storage import keys
from bot.storage.store import Store, connect
from bot.table.sessions import Sessions
from engine import view
from tests.adapters.web.conftest import PERSON, QUICK, Page, Tables, ticket, until_my_turn


async def state_at(page: Page, version: int) -> frames.State:
    state = await page.until(lambda f: isinstance(f, frames.State) and f.version >= version)
    assert isinstance(state, frames.State)
    return state


async def test_a_move_made_on_one_worker_reaches_a_page_on_another(tables: Tables) -> None:
    one, two = await tables.worker(), await tables.worker()
    chat = await tables.open(one)
    game = await until_my_turn(one, chat)
    far = await two.page(frames.Hello(ticket=ticket(chat, None)))
    near = await one.page(frames.Hello(ticket=ticket(chat)))
    assert (await state_at(far, game.version)).version == game.version
    state = await state_at(near, game.version)
    assert state.hand is not None
    await near.send(frames.Play(notation=state.hand.moves[0].notation, counter=state.hand.counter))
    heard = await state_at(far, game.version + 1)
    assert heard.table is not None and heard.events
    assert all(event.version > game.doc.step for event in heard.events)
    await far.close()
    await near.close()


async def test_a_chats_press_through_the_core_reaches_the_page(tables: Tables) -> None:
    worker = await tables.worker()
    chat = await tables.open(worker)
    game = await until_my_turn(worker, chat)
    page = await worker.page(frames.Hello(ticket=ticket(chat)))
    await state_at(page, game.version)
    assert game.state is not None
    move = view(game.state, 0).legal[0]
    payload = codec.move_payload(game.doc.id, game.state.counter, move)
    out = await worker.sessions.handle(Press(chat, PERSON, payload))
    assert out[0] == Answer()
    heard = await state_at(page, game.version + 1)
    assert heard.version == game.version + 1
    await page.close()


async def test_the_computers_moves_on_a_tick_reach_the_page(tables: Tables) -> None:
    worker = await tables.worker()
    chat = await tables.open(worker)
    game = await until_my_turn(worker, chat)
    page = await worker.page(frames.Hello(ticket=ticket(chat)))
    state = await state_at(page, game.version)
    assert state.hand is not None
    await page.send(frames.Play(notation=state.hand.moves[0].notation, counter=state.hand.counter))
    assert await page.answer() == frames.Answer(ok=True)
    after = await until_my_turn(worker, chat)  # the computer moved on a tick
    assert after.version >= game.version + 2
    assert (await state_at(page, after.version)).version == after.version
    await page.close()


async def test_a_page_that_comes_back_is_sent_what_happened_since(tables: Tables) -> None:
    worker = await tables.worker()
    chat = await tables.open(worker)
    game = await until_my_turn(worker, chat)
    page = await worker.page(frames.Hello(ticket=ticket(chat)))
    drawn = await state_at(page, game.version)
    assert drawn.hand is not None
    await page.close()
    assert game.state is not None
    move = view(game.state, 0).legal[0]
    payload = codec.move_payload(game.doc.id, game.state.counter, move)
    await worker.sessions.handle(Press(chat, PERSON, payload))
    later = await until_my_turn(worker, chat)
    back = await worker.page(frames.Hello(ticket=ticket(chat), version=drawn.version))
    await back.next()  # welcome
    state = await back.next()
    assert isinstance(state, frames.State) and state.version == later.version
    assert state.events and all(e.version > game.doc.step for e in state.events)
    assert len(state.said) >= 2  # his move and the computer's, in words
    # A page that drew another game, or says nothing of what it drew, is told the deal
    # from its start.
    other = await worker.page(
        frames.Hello(ticket=ticket(chat), version=drawn.version, game="another")
    )
    await other.next()
    told = await other.next()
    assert isinstance(told, frames.State) and isinstance(told.events[0], DealStarted)
    await other.close()
    fresh = await worker.page(frames.Hello(ticket=ticket(chat)))
    await fresh.next()
    whole = await fresh.next()
    assert isinstance(whole, frames.State)
    assert isinstance(whole.events[0], DealStarted)
    await back.close()
    await fresh.close()


async def test_a_page_that_resyncs_on_its_socket_gets_the_table_again(tables: Tables) -> None:
    worker = await tables.worker()
    chat = await tables.open(worker)
    game = await until_my_turn(worker, chat)
    page = await worker.page(frames.Hello(ticket=ticket(chat)))
    first = await state_at(page, game.version)
    await page.send(frames.Hello(ticket=ticket(chat), version=first.version))
    again = await page.next()
    assert isinstance(again, frames.State) and again.version == first.version
    assert again.events == ()  # it had them all
    await page.close()


async def test_a_page_is_never_sent_a_version_it_has(tables: Tables) -> None:
    worker = await tables.worker()
    chat = await tables.open(worker)
    game = await until_my_turn(worker, chat)
    page = await worker.page(frames.Hello(ticket=ticket(chat)))
    await state_at(page, game.version)
    worker.table.live.heard(chat)  # as if the channel spoke with nothing new
    with pytest.raises(TimeoutError):
        await page.next(timeout=0.5)
    await page.close()


async def test_a_chats_channel_is_heard_while_one_of_its_pages_is_open(tables: Tables) -> None:
    worker = await tables.worker()
    chat = await tables.open(worker)
    redis = connect(tables.redis_url)
    channel = keys.live(chat)

    version = (await redis.info("server"))["redis_version"]
    sharded = int(str(version).split(".")[0]) >= 7  # as the store publishes

    async def listeners() -> int:
        asked = "SHARDNUMSUB" if sharded else "NUMSUB"
        counted = await redis.execute_command("PUBSUB", asked, channel)
        return int(counted[1])

    first = await worker.page(frames.Hello(ticket=ticket(chat)))
    await first.next()
    assert await listeners() == 1
    second = await worker.page(frames.Hello(ticket=ticket(chat, None)))
    await second.next()
    assert await listeners() == 1  # one subscription a worker, however many pages
    await first.close()
    await second.close()
    async with asyncio.timeout(5):
        while await listeners():
            await asyncio.sleep(0.05)
    await redis.aclose()


async def test_a_move_whose_message_was_missed_reaches_the_page_all_the_same(
    tables: Tables, redis_url: str
) -> None:
    worker = await tables.worker()
    worker.table.live.look_again = 0.5
    chat = await tables.open(worker)
    game = await until_my_turn(worker, chat)
    page = await worker.page(frames.Hello(ticket=ticket(chat)))
    await state_at(page, game.version)
    # A process whose writes publish nothing: as if the message was lost on the way.
    silent_store = Store(connect(redis_url))
    silent = Sessions(silent_store, QUICK)
    assert game.state is not None
    move = view(game.state, 0).legal[0]
    out = await silent.handle(
        Press(chat, PERSON, codec.move_payload(game.doc.id, game.state.counter, move))
    )
    assert out[0] == Answer()
    heard = await state_at(page, game.version + 1)
    assert heard.version == game.version + 1
    await page.close()
    await silent_store.close()


async def test_a_page_that_comes_back_to_another_worker_is_told_only_what_came_after(
    tables: Tables,
) -> None:
    one, two = await tables.worker(), await tables.worker()
    chat = await tables.open(one)
    game = await until_my_turn(one, chat)
    page = await one.page(frames.Hello(ticket=ticket(chat)))
    drawn = await state_at(page, game.version)
    assert drawn.step == game.doc.step
    await page.close()
    assert game.state is not None
    move = view(game.state, 0).legal[0]
    await one.sessions.handle(
        Press(chat, PERSON, codec.move_payload(game.doc.id, game.state.counter, move))
    )
    later = await until_my_turn(one, chat)
    hello = frames.Hello(
        ticket=ticket(chat), version=drawn.version, game=drawn.game, step=drawn.step
    )
    back = await two.page(hello)  # a worker that never drew the game
    await back.next()  # welcome
    state = await back.next()
    assert isinstance(state, frames.State) and state.version == later.version
    assert state.events and all(e.version > drawn.step for e in state.events)
    assert not any(isinstance(e, DealStarted) for e in state.events)
    await back.close()
