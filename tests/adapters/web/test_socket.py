"""A page on the table's socket: welcomed as its seat, sent the table, its moves
pressed through the core, its refusals told and nothing changed."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from adapters.web import frames
from adapters.web.app import STATIC
from adapters.web.local import PLATFORM
from bot.model.contract import Answer, ChatRef, Command, Outbound, Show, SlotKind
from bot.model.events import Drew
from tests.adapters.web.conftest import PERSON, Page, Tables, seated_page, ticket, until_my_turn

# The JavaScript MIME types a browser takes a module script as (the system's own
# mime.types may name either; RFC 9239 prefers the first).
JAVASCRIPT = {"text/javascript", "application/javascript"}


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
    seated = await seated_page(tables)
    page, state = seated.page, seated.state
    assert state.hand is not None
    move = state.hand.moves[0]
    await page.send(frames.Play(notation=move.notation, counter=state.hand.counter))
    answer = await page.answer()
    assert answer == frames.Answer(ok=True, text="")
    newer = await page.until(lambda f: isinstance(f, frames.State) and f.version > state.version)
    assert isinstance(newer, frames.State) and newer.events
    assert await seated.stored_version() > seated.version
    # His move, in words, first: a computer quick to answer it may be told after it.
    assert newer.said and "Ann" in newer.said[0]
    await page.close()


async def test_each_tile_that_cannot_go_says_why_in_the_cores_words(tables: Tables) -> None:
    worker = await tables.worker()
    chat = await tables.open(worker)
    game = await until_my_turn(worker, chat)
    page = await worker.page(frames.Hello(ticket=ticket(chat)))
    mine = await page.until(lambda f: isinstance(f, frames.State) and f.version == game.version)
    assert isinstance(mine, frames.State) and mine.hand is not None
    playable = {m.tile for m in mine.hand.moves} | {m.second for m in mine.hand.moves}
    stuck = {f"{t.hi}-{t.lo}": t for t in mine.hand.tiles if t not in playable}
    assert mine.why.keys() == stuck.keys()
    assert all(text == f"[{stuck[k].hi}|{stuck[k].lo}] doesn't fit" for k, text in mine.why.items())
    move = next(m for m in mine.hand.moves if m.tile is not None)
    await page.send(frames.Play(notation=move.notation, counter=mine.hand.counter))
    theirs = await page.until(lambda f: isinstance(f, frames.State) and f.version > game.version)
    assert isinstance(theirs, frames.State) and theirs.hand is not None
    assert theirs.table is not None and theirs.table.turn is not None
    assert theirs.table.turn.seat == 1  # the computer moves on a tick, which has not come
    assert theirs.why == {f"{t.hi}-{t.lo}": "It is not your turn" for t in theirs.hand.tiles}
    await page.close()


async def test_a_lobby_is_a_state_with_no_table(tables: Tables) -> None:
    worker = await tables.worker()
    chat = ChatRef(PLATFORM, uuid.uuid4().hex)
    await worker.sessions.handle(Command(chat, PERSON, "new", ("tyaga",), is_admin=True))
    page = await worker.page(frames.Hello(ticket=ticket(chat)))
    welcome = await page.next()
    assert isinstance(welcome, frames.Welcome) and welcome.seat == 0
    lobby = await page.next()
    assert isinstance(lobby, frames.State) and lobby.table is None and lobby.hand is None
    assert lobby.version > 0
    await page.close()


async def test_a_table_that_is_not_there_is_said_gone(tables: Tables) -> None:
    worker = await tables.worker()
    chat = ChatRef(PLATFORM, uuid.uuid4().hex)
    page = await worker.page(frames.Hello(ticket=ticket(chat)))
    assert isinstance(await page.next(), frames.Welcome)
    assert await page.next() == frames.Gone(text="That game is over.")
    await page.close()


async def test_what_the_core_says_to_the_chat_is_delivered(tables: Tables) -> None:
    delivered: list[Outbound] = []

    async def deliver(outbound: Sequence[Outbound]) -> None:
        delivered.extend(outbound)

    seated = await seated_page(tables, deliver)
    page, state = seated.page, seated.state
    assert state.hand is not None
    await page.send(frames.Play(notation=state.hand.moves[0].notation, counter=state.hand.counter))
    assert await page.answer() == frames.Answer(ok=True)
    tables_shown = [o for o in delivered if isinstance(o, Show) and o.slot.kind is SlotKind.TABLE]
    assert [show.version for show in tables_shown] == [seated.version + 1]
    assert not any(isinstance(o, Answer) for o in delivered)  # the page had its answer
    await page.close()


async def test_the_page_and_its_files_are_served(tables: Tables) -> None:
    worker = await tables.worker()
    health = await worker.client.get("/healthz")
    assert health.status == 200 and await health.json() == {"ok": True}
    index = await worker.client.get("/")
    assert index.status == 200 and "<html" in await index.text()
    missing = await worker.client.get("/static/no-such-file.js")
    assert missing.status == 404
    for path in STATIC.glob("*.js"):  # a browser runs no module served as another type
        script = await worker.client.get(f"/static/{path.name}")
        assert script.status == 200 and script.content_type in JAVASCRIPT, path.name


async def test_a_players_own_draw_names_the_tiles_he_drew(tables: Tables) -> None:
    worker = await tables.worker()
    for _table in range(8):  # a deal where seat 0 must draw comes soon
        chat = await tables.open(worker, options=("hand_size=3",))
        page = await worker.page(frames.Hello(ticket=ticket(chat)))
        await page.next()
        before = await page.next()
        assert isinstance(before, frames.State)
        while True:
            game = await until_my_turn(worker, chat, or_over=True)
            state = before
            if state.version < game.version:
                state = await newer_than(page, state.version)
                assert state.version == game.version
            assert state.hand is not None and before.hand is not None
            # The core draws for him when nothing fits: his hand gains the tiles.
            draws = [e for e in state.events if isinstance(e, Drew) and e.seat == 0]
            if len(draws) == 1 and state is not before:
                gained = [t for t in state.hand.tiles if t not in before.hand.tiles]
                assert len(gained) == draws[0].count
                named = " ".join(f"[{t.hi}|{t.lo}]" for t in gained)
                assert f"You drew {named}" in state.said
                await page.close()
                return
            if game.state is None or game.state.turn is None:
                break  # the deal is over with no draw of his
            move = state.hand.moves[0]
            await page.send(frames.Play(notation=move.notation, counter=state.hand.counter))
            before = await newer_than(page, state.version)
        await page.close()
    raise AssertionError("no draw in eight deals")


async def newer_than(page: Page, version: int) -> frames.State:
    """The page's first state after ``version``."""
    while True:
        frame = await page.until(lambda f: isinstance(f, frames.State))
        if isinstance(frame, frames.State) and frame.version > version:
            return frame


async def test_a_delivery_that_fails_leaves_the_page_its_answer_and_state(tables: Tables) -> None:
    async def broken(outbound: Sequence[Outbound]) -> None:
        raise ConnectionError("the chat's platform is down")

    seated = await seated_page(tables, broken)
    page, state = seated.page, seated.state
    assert state.hand is not None
    await page.send(frames.Play(notation=state.hand.moves[0].notation, counter=state.hand.counter))
    assert await page.answer() == frames.Answer(ok=True)
    assert (await newer_than(page, seated.version)).version == seated.version + 1
    await page.close()
