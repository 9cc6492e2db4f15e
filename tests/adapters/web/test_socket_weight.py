"""What an open page costs its worker: its socket declines the compression browsers
offer, whose state each socket would hold for as long as it is open."""

from __future__ import annotations

from adapters.web import frames
from tests.adapters.web.conftest import STATE, Tables, ticket


async def test_a_page_offering_compression_is_served_without_it(tables: Tables) -> None:
    worker = await tables.worker()
    chat = await tables.open(worker)
    socket = await worker.client.ws_connect("/ws", compress=15)  # as a browser offers it
    assert socket.compress == 0
    await socket.send_str(frames.Hello(ticket=ticket(chat)).model_dump_json())
    assert isinstance(STATE.validate_json(await socket.receive_str()), frames.Welcome)
    await socket.close()
