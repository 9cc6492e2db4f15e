"""``domino-bot web`` in-process: the table opened through a group's commands, served on
loopback, its link letting a browser's socket play seat 0 while this process ticks the
computers' moves; a match played to its end and a rematch asked for from the page."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

from adapters.web import frames
from adapters.web.app import TOO_FAST
from adapters.web.limiter import RATE
from adapters.web.local import LocalRequest, local_table
from bot.storage.store import Store, connect
from bot.table.sessions import Sessions
from tests.adapters.web.conftest import QUICK, Page

SHORT_MATCH = ("target=10", "hand_size=3")


@pytest.fixture
async def sessions(redis_client: object, redis_url: str) -> AsyncIterator[Sessions]:
    store = Store(connect(redis_url))
    await store.tell_pages()
    try:
        yield Sessions(store, QUICK)
    finally:
        await store.close()


async def test_the_local_table_is_played_from_its_link(sessions: Sessions, redis_url: str) -> None:
    request = LocalRequest("tyaga", 2, options=SHORT_MATCH)
    redis = connect(redis_url)
    async with local_table(sessions, redis, request) as table, aiohttp.ClientSession() as http:
        address = urlsplit(table.url)
        assert address.hostname == "127.0.0.1"
        index = await http.get(f"http://{address.netloc}/")
        assert index.status == 200
        ticket = parse_qs(address.query)["pass"][0]
        socket = await http.ws_connect(f"http://{address.netloc}/ws")
        page = Page(socket)
        await page.send(frames.Hello(ticket=ticket))
        welcome = await page.next()
        assert isinstance(welcome, frames.Welcome) and welcome.seat == 0
        final = await play_to_the_end(page)
        first_id = final.game
        answered = await pressed(page, frames.Act(act="rematch"))
        assert answered == frames.Answer(ok=True, text="A rematch: the same players are seated.")
        # The lobby is started by the local process, as a group's host would.
        started = await page.until(
            lambda f: (
                isinstance(f, frames.State) and f.table is not None and f.table.table != first_id
            )
        )
        assert isinstance(started, frames.State) and started.table is not None
        assert started.table.status == "running"
        # Versions count within a game: the page knows the new one by its id.
        assert started.game == started.table.table != final.game
        assert started.version < final.version
        await socket.close()
    await redis.aclose()


async def pressed(page: Page, frame: frames.Play | frames.Act) -> frames.Answer:
    """``frame`` sent and answered, sent again after a pause while the server finds the
    page too fast (this player taps far quicker than a person would: the computers
    answer at once)."""
    while True:
        await page.send(frame)
        answered = await page.answer()
        if answered.text != TOO_FAST:
            return answered
        await asyncio.sleep(1 / RATE)


async def play_to_the_end(page: Page) -> frames.State:
    """Play seat 0's first legal move at each of its turns, and the next deal when one
    ends, until the match is over; its final state."""
    moves = 0
    async with asyncio.timeout(90):
        while True:
            state = await page.until(lambda f: isinstance(f, frames.State))
            assert isinstance(state, frames.State)
            if state.table is None:
                continue
            acts = [a.act for a in state.actions]
            if "rematch" in acts:
                assert moves >= 1 and state.game == state.table.table
                return state
            if "next_deal" in acts:
                await pressed(page, frames.Act(act="next_deal"))
                continue
            hand = state.hand
            turn = state.table.turn
            if hand is not None and hand.moves and turn is not None and turn.seat == 0:
                await pressed(
                    page, frames.Play(notation=hand.moves[0].notation, counter=hand.counter)
                )
                moves += 1
