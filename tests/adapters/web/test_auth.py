"""Nothing about a table reaches a page before it has proved who it is: a forged or
expired pass, bad initData, or a first frame that is no hello closes the socket with
4401 and a short reason. Telegram's initData seats its user by his Telegram id."""

from __future__ import annotations

import time

from aiohttp import WSMsgType

from adapters.web import frames
from bot.model import web_pass
from bot.model.contract import UserRef
from tests.adapters.web.conftest import SECRET, Page, Tables, Worker, ticket
from tests.adapters.web.test_init_data import fields, signed

TOKEN = "123456:TEST-token-for-init-data"  # the workers' bot token (see conftest)


async def closed_with(page: Page) -> tuple[int, str]:
    """The close code and reason, after checking nothing else came first."""
    message = await page.socket.receive(timeout=10)
    assert message.type is WSMsgType.CLOSE, message
    return int(message.data), str(message.extra)


async def refused(worker: Worker, frame: frames.Hello | frames.Play) -> tuple[int, str]:
    socket = await worker.client.ws_connect("/ws")
    await socket.send_str(frame.model_dump_json())
    return await closed_with(Page(socket))


async def test_a_pass_signed_with_another_secret_is_refused(tables: Tables) -> None:
    worker = await tables.worker()
    chat = await tables.open(worker)
    forged = web_pass.sign("not the secret", chat, "web:1", int(time.time()) + 3600)
    assert await refused(worker, frames.Hello(ticket=forged)) == (4401, "no such table")


async def test_an_altered_pass_is_refused(tables: Tables) -> None:
    worker = await tables.worker()
    chat = await tables.open(worker)
    good = ticket(chat)
    body, mac = good.rsplit(".", 1)
    altered = f"{body}.{'A' if mac[0] != 'A' else 'B'}{mac[1:]}"
    assert (await refused(worker, frames.Hello(ticket=altered)))[0] == 4401


async def test_an_expired_pass_is_refused(tables: Tables) -> None:
    worker = await tables.worker()
    chat = await tables.open(worker)
    old = web_pass.sign(SECRET, chat, "web:1", int(time.time()) - 1)
    assert await refused(worker, frames.Hello(ticket=old)) == (4401, "this link has expired")


async def test_a_first_frame_that_is_no_hello_is_refused(tables: Tables) -> None:
    worker = await tables.worker()
    assert (await refused(worker, frames.Play(notation="6-6", counter=0)))[0] == 4401
    assert (await refused(worker, frames.Hello()))[0] == 4401


async def test_bad_init_data_is_refused(tables: Tables) -> None:
    worker = await tables.worker()
    chat = await tables.open(worker)
    param = web_pass.start_param(ticket(chat))
    wrong_bot = signed({**fields(), "start_param": param}, token="654321:another-bot")
    assert (await refused(worker, frames.Hello(init_data=wrong_bot)))[0] == 4401
    stale = signed({**fields(auth_date=time.time() - 2 * 86_400), "start_param": param})
    assert (await refused(worker, frames.Hello(init_data=stale)))[0] == 4401


async def test_init_data_seats_its_telegram_user_and_ignores_the_pass_person(
    tables: Tables,
) -> None:
    worker = await tables.worker()
    tom = UserRef("tg", "777", "Tom", "en")
    chat = await tables.open(worker, host=tom)
    # The pass in start_param names nobody: the Mini App's user is who he is.
    param = web_pass.start_param(ticket(chat, None))
    data = signed({**fields(user_id=777, auth_date=time.time()), "start_param": param}, TOKEN)
    page = await worker.page(frames.Hello(init_data=data))
    welcome = await page.next()
    assert isinstance(welcome, frames.Welcome) and welcome.seat == 0
    state = await page.next()
    assert isinstance(state, frames.State) and state.hand is not None
    await page.close()
    # Anyone else with the same link watches.
    other = signed({**fields(user_id=778, auth_date=time.time()), "start_param": param}, TOKEN)
    watcher = await worker.page(frames.Hello(init_data=other))
    welcome = await watcher.next()
    assert isinstance(welcome, frames.Welcome) and welcome.seat is None
    await watcher.close()
