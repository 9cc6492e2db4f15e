"""The page draws what a State says: the line's tiles, the hand's, the seats and each
game's own parts, from frames made with the real models of real games; a spectator sees
no hand, and a phone's width needs no sideways scrolling."""

from __future__ import annotations

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from adapters.web.app import STATIC
from adapters.web.frames import FromPage, Hello, ToPage
from tests.adapters.web.browser.conftest import browser
from tests.adapters.web.browser.fixture_table import FixtureTable
from tests.adapters.web.browser.scenes import Scene, find, mid_deal


def greeted(scene: Scene) -> FixtureTable:
    """A table that answers every hello with the scene's Welcome and State."""

    def reply(frame: FromPage) -> list[ToPage]:
        if isinstance(frame, Hello):
            return [scene.welcome(), scene.frame(since=frame.version)]
        return []

    return FixtureTable(reply)


def opened(driver: webdriver.Chrome, table: FixtureTable, version: int) -> None:
    """Opens the page with a pass and waits until it drew ``version``."""
    driver.get(f"{table.url}?pass=abc.def")
    WebDriverWait(driver, 10).until(
        lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-version") == str(version)
    )


def count(driver: webdriver.Chrome, css: str) -> int:
    return len(driver.find_elements(By.CSS_SELECTOR, css))


def test_the_page_runs_every_one_of_its_modules_from_beside_it(driver: webdriver.Chrome) -> None:
    scene = find("kozel", mid_deal)
    with greeted(scene) as server:
        opened(driver, server, scene.table.version)
        fetched = driver.execute_script(
            "return performance.getEntriesByType('resource')"
            ".filter((e) => e.initiatorType === 'script').map((e) => new URL(e.name).pathname)"
        )
    assert sorted(fetched) == sorted(f"/static/{path.name}" for path in STATIC.glob("*.js"))


@pytest.mark.parametrize("game", ["tyaga", "kozel", "three_guns", "baghdad"])
def test_the_page_draws_the_line_the_hand_and_the_seats(
    driver: webdriver.Chrome, game: str
) -> None:
    scene = find(game, mid_deal)
    table, hand = scene.table, scene.hand
    assert hand is not None
    with greeted(scene) as server:
        opened(driver, server, table.version)
        assert server.hellos()[0].ticket == "abc.def"
        assert count(driver, "#line .tile") == len(table.line)
        assert count(driver, "#hand .tile") == len(hand.tiles)
        held = [
            t.get_attribute("data-tile")
            for t in driver.find_elements(By.CSS_SELECTOR, "#hand .tile")
        ]
        assert held == [f"{t.hi}-{t.lo}" for t in hand.tiles]
        assert count(driver, "#seats .seat") == len(table.seats)
        backs = [count(driver, f'.seat[data-seat="{s.seat}"] .back') for s in table.seats]
        assert backs == [s.tiles for s in table.seats]
        assert count(driver, "#line .end") == 2
        assert driver.find_element(By.CSS_SELECTOR, ".seat.turn").get_attribute("data-seat") == str(
            scene.seat
        )
        assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en"


def test_three_guns_shows_its_pool_its_cardinal_and_the_tile_set_aside(
    driver: webdriver.Chrome,
) -> None:
    scene = find("three_guns", mid_deal)
    parts = scene.table.parts
    assert parts.game == "three_guns"
    with greeted(scene) as server:
        opened(driver, server, scene.table.version)
        aside = driver.find_element(By.CSS_SELECTOR, "#parts .aside .tile")
        assert aside.get_attribute("data-tile") == f"{parts.aside.hi}-{parts.aside.lo}"
        assert driver.find_element(By.CSS_SELECTOR, "#parts .pool").text.endswith(str(parts.pool))
        cardinal = driver.find_element(By.CSS_SELECTOR, f'.seat[data-seat="{parts.cardinal}"]')
        assert cardinal.find_elements(By.CSS_SELECTOR, ".mark.cardinal")


def test_baghdad_shows_each_caravan_with_its_status_and_closing_tiles(
    driver: webdriver.Chrome,
) -> None:
    def stolen(scene: Scene) -> bool:
        parts = scene.table.parts
        return parts.game == "baghdad" and any(c.status == "stolen" for c in parts.caravans)

    scene = find("baghdad", stolen)
    parts = scene.table.parts
    assert parts.game == "baghdad"
    with greeted(scene) as server:
        opened(driver, server, scene.table.version)
        shown = driver.find_elements(By.CSS_SELECTOR, "#parts .caravan")
        assert [c.get_attribute("data-status") for c in shown] == [c.status for c in parts.caravans]
        thieves = driver.find_elements(By.CSS_SELECTOR, "#parts .caravan .thief")
        assert len(thieves) == sum(1 for c in parts.caravans if c.thief is not None)


def test_kozel_shows_whose_sheet_is_open(driver: webdriver.Chrome) -> None:
    def some_open(scene: Scene) -> bool:
        parts = scene.table.parts
        return parts.game == "kozel" and any(parts.opened) and not all(parts.opened)

    scene = find("kozel", some_open)
    parts = scene.table.parts
    assert parts.game == "kozel"
    with greeted(scene) as server:
        opened(driver, server, scene.table.version)
        sheets = driver.find_elements(By.CSS_SELECTOR, "#seats .sheet")
        assert ["open" in (s.get_attribute("class") or "") for s in sheets] == list(parts.opened)


def test_a_spectator_sees_no_hand_but_a_watching_note(driver: webdriver.Chrome) -> None:
    scene = find("tyaga", mid_deal, spectator=True)
    with greeted(scene) as server:
        opened(driver, server, scene.table.version)
        assert count(driver, "#hand .tile") == 0
        note = driver.find_element(By.ID, "watching")
        assert note.is_displayed() and note.text == "You are watching"
        assert count(driver, "#line .tile") == len(scene.table.line)


@pytest.mark.parametrize("game", ["tyaga", "kozel", "three_guns", "baghdad"])
def test_a_long_line_fits_a_phone_360_pixels_wide(needs_browser: None, game: str) -> None:
    def long(scene: Scene) -> bool:
        if scene.state.deal_over or len(scene.state.line) < 12:
            return False
        parts = scene.table.parts
        return parts.game != "baghdad" or any(c.status != "open" for c in parts.caravans)

    scene = find(game, long)
    chrome = browser(360, 740)
    try:
        with greeted(scene) as server:
            opened(chrome, server, scene.table.version)
            inner = chrome.execute_script("return window.innerWidth")
            wide = chrome.execute_script("return document.documentElement.scrollWidth")
            assert inner == 360
            assert wide <= inner
            assert count(chrome, "#line .tile") == len(scene.table.line)
    finally:
        chrome.quit()
