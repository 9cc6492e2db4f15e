"""Whole matches of each game played through the page against computers on the real
server (the core on a real Redis, the web application on loopback): a person's page
plays to the match's end; two seats and a spectator see each version within a second
and the spectator's page names no tile of any hand; a page whose socket drops catches
up with what happened while it was gone."""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import AsyncIterator

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By

import engine
from adapters.web.local import PLATFORM, LocalRequest, open_table
from bot.model import codec
from bot.model.contract import ChatRef, Command, Press, UserRef
from tests.adapters.web.browser.conftest import browser
from tests.adapters.web.browser.playing import play_through, shown_version
from tests.adapters.web.browser.relay import Relay
from tests.adapters.web.conftest import PERSON, Tables, Worker, game_of, ticket

pytestmark = [pytest.mark.redis, pytest.mark.slow]

MATCHES = (
    ("tyaga", 2, ("target=15",)),
    ("kozel", 2, ("target=15",)),
    ("three_guns", 3, ()),
    ("baghdad", 2, ("match=deals:2",)),
)
BOB = UserRef(PLATFORM, "2", "Bob", "en")


@contextlib.asynccontextmanager
async def ticking(worker: Worker) -> AsyncIterator[None]:
    """The computers' moves and the deadlines, played as a chat bot's process would. It
    is stopped between two ticks, not cancelled inside one."""
    stop = asyncio.Event()

    async def tick() -> None:
        while not stop.is_set():
            await worker.sessions.tick(PLATFORM)
            await asyncio.sleep(0.05)

    task = asyncio.create_task(tick())
    try:
        yield
    finally:
        stop.set()
        await asyncio.wait_for(task, 30)


def page_url(worker: Worker, chat: ChatRef, user_key: str | None = PERSON.key) -> str:
    return str(worker.client.make_url("/")) + f"?pass={ticket(chat, user_key)}"


async def shown(driver: webdriver.Chrome, version: int, seconds: float = 10.0) -> float:
    """Waits until the page drew ``version``; when it did, by the monotonic clock."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if await asyncio.to_thread(shown_version, driver) >= version:
            return time.monotonic()
        await asyncio.sleep(0.02)
    raise TimeoutError(f"the page did not draw version {version}")


@pytest.mark.parametrize(("variant", "players", "options"), MATCHES)
async def test_a_whole_match_is_played_through_the_page(
    tables: Tables,
    driver: webdriver.Chrome,
    variant: str,
    players: int,
    options: tuple[str, ...],
) -> None:
    worker = await tables.worker()
    chat = ChatRef(PLATFORM, f"match-{variant}-{time.time_ns()}")
    await open_table(worker.sessions, chat, PERSON, LocalRequest(variant, players, options=options))
    async with ticking(worker):
        await asyncio.to_thread(driver.get, page_url(worker, chat))
        presses = await asyncio.to_thread(play_through, driver, 60.0)
    game = await game_of(worker, chat)
    assert game.state is not None and game.state.match_over
    assert presses > 0
    assert any(seat == 0 for seat, _move in game.doc.moves)
    assert await asyncio.to_thread(shown_version, driver) == game.version
    assert driver.find_element(By.CSS_SELECTOR, "#moves button.rematch").is_displayed()


def command(chat: ChatRef, user: UserRef, name: str, *args: str) -> Command:
    return Command(chat, user, name, args, is_admin=True, chat_title="a table")


async def two_seats(worker: Worker) -> ChatRef:
    """A tyaga table with Ann in seat 0 and Bob in seat 1."""
    chat = ChatRef(PLATFORM, f"two-{time.time_ns()}")
    await worker.sessions.handle(command(chat, PERSON, "new", "tyaga", "timer=off", "pings=off"))
    await worker.sessions.handle(command(chat, BOB, "join"))
    await worker.sessions.handle(command(chat, PERSON, "start"))
    return chat


async def test_two_seats_and_a_spectator_see_a_move_within_a_second(
    tables: Tables, needs_browser: None
) -> None:
    worker = await tables.worker()
    chat = await two_seats(worker)
    pages = [await asyncio.to_thread(browser) for _ in range(3)]
    try:
        ann, bob, watcher = pages
        for page, key in ((ann, PERSON.key), (bob, BOB.key), (watcher, None)):
            await asyncio.to_thread(page.get, page_url(worker, chat, key))
        game = await game_of(worker, chat)
        for page in pages:
            await shown(page, game.version)
        to_move = ann if game.state is not None and game.state.turn == 0 else bob
        pressed = await asyncio.to_thread(press_one_move, to_move)
        assert pressed
        moved = time.monotonic()
        await asyncio.sleep(0.3)
        after = (await game_of(worker, chat)).version
        assert after > game.version
        for page in pages:
            assert await shown(page, after) - moved < 1.0
        # And a move pressed in the chat, through the core, reaches the three pages alike.
        game = await game_of(worker, chat)
        assert game.state is not None and game.state.turn is not None  # one move into a deal
        pressed_at = time.monotonic()
        after = await move_for_whoever(worker, chat)
        assert after > game.version
        for page in pages:
            assert await shown(page, after) - pressed_at < 1.0
        await no_hidden_tile(worker, chat, watcher)
        assert not watcher.find_elements(By.CSS_SELECTOR, "#hand .tile")
    finally:
        for page in pages:
            await asyncio.to_thread(page.quit)


def press_one_move(driver: webdriver.Chrome) -> bool:
    """Presses what plays one move: a tile, and an end if it lit two."""
    for css in ("#hand .tile.playable", "#line .end.lit", "#choices button", "#moves button.move"):
        found = driver.find_elements(By.CSS_SELECTOR, css)
        if found:
            found[0].click()
            if css != "#hand .tile.playable" or not driver.find_elements(
                By.CSS_SELECTOR, "#line .end.lit, #choices button"
            ):
                return True
    return False


async def no_hidden_tile(worker: Worker, chat: ChatRef, page: webdriver.Chrome) -> None:
    """The page names no tile of any hand: not as a drawn tile, not in its words."""
    game = await game_of(worker, chat)
    assert game.state is not None
    hidden = {tile for hand in game.state.hands for tile in hand} | set(game.state.boneyard)
    named = await asyncio.to_thread(
        page.execute_script,
        "return [...document.querySelectorAll('[data-tile]')].map(e => e.dataset.tile)",
    )
    source = await asyncio.to_thread(lambda: page.page_source)
    written = set(re.findall(r"\[(\d)\|(\d)\]", source))
    for tile in hidden:
        assert f"{tile.hi}-{tile.lo}" not in named
        assert (str(tile.hi), str(tile.lo)) not in written
        assert (str(tile.lo), str(tile.hi)) not in written
    assert len(named) >= len(game.state.line)


async def test_a_page_whose_socket_dropped_catches_up(
    tables: Tables, driver: webdriver.Chrome
) -> None:
    worker = await tables.worker()
    chat = await two_seats(worker)
    async with Relay(worker.client.make_url("/")) as relay:
        await asyncio.to_thread(driver.get, relay.url + f"?pass={ticket(chat, BOB.key)}")
        game = await game_of(worker, chat)
        await shown(driver, game.version)
        relay.cut()
        await asyncio.to_thread(lambda: driver.find_element(By.ID, "banner").is_displayed())
        moved = await move_for_whoever(worker, chat)
        assert moved > game.version
        await shown(driver, moved, seconds=15)
        assert relay.connections >= 2


async def move_for_whoever(worker: Worker, chat: ChatRef) -> int:
    """Plays the first legal move of the seat to move, as a chat's button press would;
    the game's step after it."""
    game = await game_of(worker, chat)
    state = game.state
    assert state is not None and state.turn is not None
    user = (PERSON, BOB)[state.turn]
    move = engine.legal_moves(state)[0]
    payload = codec.move_payload(game.doc.id, state.counter, move)
    await worker.sessions.handle(Press(chat, user, payload))
    return (await game_of(worker, chat)).version


async def test_a_rematch_asked_on_the_page_is_drawn_from_its_first_version(
    tables: Tables, driver: webdriver.Chrome
) -> None:
    worker = await tables.worker()
    chat = ChatRef(PLATFORM, f"rematch-{time.time_ns()}")
    await open_table(worker.sessions, chat, PERSON, LocalRequest("tyaga", 2, options=MATCHES[0][2]))
    async with ticking(worker):
        await asyncio.to_thread(driver.get, page_url(worker, chat))
        await asyncio.to_thread(play_through, driver, 60.0)
        ended = await game_of(worker, chat)
        # Pressed again a second later if need be, as a person would: a page that just
        # played a whole match at machine speed may be told it is too fast.
        deadline, pressed = time.monotonic() + 10, 0.0
        while (await game_of(worker, chat)).doc.id == ended.doc.id:
            assert time.monotonic() < deadline, "no rematch was opened"
            if time.monotonic() - pressed > 1.0:
                await asyncio.to_thread(
                    lambda: driver.find_element(By.CSS_SELECTOR, "#moves button.rematch").click()
                )
                pressed = time.monotonic()
            await asyncio.sleep(0.05)
        await worker.sessions.handle(command(chat, PERSON, "start"))
        rematch = await game_of(worker, chat)
        assert rematch.version < ended.version
        deadline = time.monotonic() + 10
        while await asyncio.to_thread(drawn, driver) != (rematch.doc.id, str(rematch.version)):
            assert time.monotonic() < deadline, "the rematch was not drawn"
            await asyncio.sleep(0.05)
        assert not driver.find_element(By.ID, "result").is_displayed()
        assert driver.find_elements(By.CSS_SELECTOR, "#hand .tile")


def drawn(driver: webdriver.Chrome) -> tuple[str, str]:
    """The game and the version the page drew last."""
    found = driver.execute_script(
        "return [document.body.dataset.gameId, document.body.dataset.version]"
    )
    return found[0], found[1]
