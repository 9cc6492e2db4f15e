"""A page that sends too much, or what is not ours, on the real server: frames beyond the
socket's pace are answered "too fast" and never reach the core, a page that keeps
flooding is closed with 4429, and a frame that is not JSON, not one of ours, binary or
too large is answered or closed clearly, with no traceback logged and nothing written."""

from __future__ import annotations

import asyncio
import logging

import pytest
from aiohttp import WSCloseCode, WSMessage, WSMsgType

from adapters.web import frames
from adapters.web.app import FLOODED, MAX_FRAME
from adapters.web.limiter import BURST
from tests.adapters.web.conftest import Page, Tables, seated_page

TOO_FAST = frames.Answer(ok=False, text="Too fast: wait a moment before the next move")
NOT_UNDERSTOOD = frames.Answer(ok=False, text="The table did not understand the page: reload it")


async def closing(page: Page) -> WSMessage:
    """The close the server sends, past the frames it sent before it."""
    async with asyncio.timeout(10):
        while True:
            message = await page.socket.receive()
            if message.type is not WSMsgType.TEXT:
                return message
            page.got.append(frames.TO_PAGE.validate_json(message.data))


class StillClock:
    """The sockets' pace clock, which moves only when the test moves it: how long the
    server took over a frame, on a busy machine, changes nothing."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def quiet(caplog: pytest.LogCaptureFixture) -> bool:
    """Nothing logged above info, and no traceback at all."""
    return not [r for r in caplog.records if r.levelno > logging.INFO or r.exc_info]


async def test_frames_beyond_the_pace_are_answered_too_fast_and_reach_no_core(
    tables: Tables,
) -> None:
    clock = StillClock()
    seated = await seated_page(tables, pace_clock=clock)
    page, state = seated.page, seated.state
    assert state.hand is not None
    for _ in range(int(BURST)):  # the burst, spent on hellos, which change nothing
        await page.send(frames.Hello(version=state.version, game=state.game))
    move = frames.Play(notation=state.hand.moves[0].notation, counter=state.hand.counter)
    await page.send(move)  # a legal move, but one frame too many
    assert await page.answer() == TOO_FAST
    assert await seated.stored_version() == seated.version
    clock.now += 1  # the bucket fills again
    await page.send(move)
    assert await page.answer() == frames.Answer(ok=True)
    assert await seated.stored_version() == seated.version + 1
    await page.close()


async def test_a_page_that_keeps_flooding_is_closed(
    tables: Tables, caplog: pytest.LogCaptureFixture
) -> None:
    seated = await seated_page(tables, pace_clock=StillClock())
    page = seated.page
    caplog.set_level(logging.INFO)
    stale = frames.Play(notation="draw", counter=0)
    for _ in range(80):  # four seconds of twenty a second, sent at once
        await page.send(stale)
    closed = await closing(page)
    assert (closed.type, closed.data, closed.extra) == (WSMsgType.CLOSE, FLOODED, "too many frames")
    answers = [f for f in page.got if isinstance(f, frames.Answer)]
    assert answers.count(TOO_FAST) >= 30
    assert await seated.stored_version() == seated.version
    assert quiet(caplog)


@pytest.mark.parametrize(
    "text", ["not json at all", '{"type": "dance"}', '{"type": "play", "notation": "6-6"}']
)
async def test_a_text_frame_that_is_none_of_ours_is_answered(
    tables: Tables, caplog: pytest.LogCaptureFixture, text: str
) -> None:
    seated = await seated_page(tables)
    caplog.set_level(logging.INFO)
    await seated.page.socket.send_str(text)
    assert await seated.page.answer() == NOT_UNDERSTOOD
    assert await seated.stored_version() == seated.version
    assert quiet(caplog)
    await seated.page.close()


async def test_a_binary_frame_closes_the_socket(
    tables: Tables, caplog: pytest.LogCaptureFixture
) -> None:
    seated = await seated_page(tables)
    assert seated.state.hand is not None
    move = frames.Play(
        notation=seated.state.hand.moves[0].notation, counter=seated.state.hand.counter
    )
    await seated.page.socket.send_bytes(move.model_dump_json().encode())
    closed = await closing(seated.page)
    assert (closed.type, closed.data) == (WSMsgType.CLOSE, WSCloseCode.UNSUPPORTED_DATA)
    assert closed.extra == "text frames only"
    assert await seated.stored_version() == seated.version
    assert quiet(caplog)


async def test_a_frame_too_large_closes_the_socket(
    tables: Tables, caplog: pytest.LogCaptureFixture
) -> None:
    seated = await seated_page(tables)
    assert seated.state.hand is not None
    notation = seated.state.hand.moves[0].notation
    padded = frames.Play(notation=notation, counter=seated.state.hand.counter).model_dump_json()
    await seated.page.socket.send_str(padded[:-1] + ', "pad": "' + "x" * MAX_FRAME + '"}')
    closed = await closing(seated.page)
    assert (closed.type, closed.data) == (WSMsgType.CLOSE, WSCloseCode.MESSAGE_TOO_BIG)
    assert await seated.stored_version() == seated.version
    assert quiet(caplog)
