"""What an open page costs its worker: its socket declines the compression browsers
offer, whose state each socket would hold for as long as it is open, and the pages that
see a move alike are sent one state, built and serialised once."""

from __future__ import annotations

from adapters.web import frames
from adapters.web.views import StateTexts, state_of
from bot.views.i18n import translator
from tests.adapters.web.conftest import STATE, Tables, game_of, ticket, until_my_turn


async def test_a_page_offering_compression_is_served_without_it(tables: Tables) -> None:
    worker = await tables.worker()
    chat = await tables.open(worker)
    socket = await worker.client.ws_connect("/ws", compress=15)  # as a browser offers it
    assert socket.compress == 0
    await socket.send_str(frames.Hello(ticket=ticket(chat)).model_dump_json())
    assert isinstance(STATE.validate_json(await socket.receive_str()), frames.Welcome)
    await socket.close()


async def test_a_moves_spectators_are_sent_one_state_built_once(tables: Tables) -> None:
    worker = await tables.worker()
    chat = await tables.open(worker)
    game = await until_my_turn(worker, chat)
    watching = [await worker.page(frames.Hello(ticket=ticket(chat, None))) for _ in range(3)]
    player = await worker.page(frames.Hello(ticket=ticket(chat)))
    for page in (*watching, player):
        await page.until(lambda f: isinstance(f, frames.State) and f.version == game.version)
    state = player.got[-1]
    assert isinstance(state, frames.State) and state.hand is not None
    move = state.hand.moves[0]
    await player.send(frames.Play(notation=move.notation, counter=state.hand.counter))
    newer = [
        await page.until(lambda f: isinstance(f, frames.State) and f.version > game.version)
        for page in watching
    ]
    # Built apart, each would carry the server's clock as it read when it was built.
    assert newer[0] == newer[1] == newer[2]
    for page in (*watching, player):
        await page.close()


async def test_a_state_seen_alike_is_made_once(tables: Tables) -> None:
    worker = await tables.worker()
    chat = await tables.open(worker)
    built = worker.table.models.built(await game_of(worker, chat))
    texts = StateTexts(built, now=1.0)
    english, russian = translator("en"), translator("ru")
    state, text = texts.state(None, english, None)
    assert texts.state(None, english, None)[1] is text  # kept, not made again
    assert texts.state(None, russian, None)[1] != text
    assert texts.state(0, english, None)[1] != text
    assert STATE.validate_json(text) == state == state_of(built, None, english, None, 1.0)
