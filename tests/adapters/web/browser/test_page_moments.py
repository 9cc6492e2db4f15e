"""Moments of a match the page shows as they come: Thief of Baghdad's steal and Kozel's
two doubles at once as buttons, a lobby waiting, a turn counted down on the server's
clock, a finished match's points, winners and rematch, and a table that is gone."""

from __future__ import annotations

import time
from collections.abc import Callable

from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from adapters.web.frames import Act, FromPage, Gone, Hello, Play, State, ToPage
from tests.adapters.web.browser.fixture_table import FixtureTable
from tests.adapters.web.browser.scenes import Scene, find
from tests.adapters.web.browser.test_page_draws import greeted, opened
from tests.adapters.web.browser.test_page_plays import sent


def kind_of_move(kind: str) -> Callable[[Scene], bool]:
    """Whether the seat to move may make a move of ``kind``."""
    return lambda scene: any(m.kind == kind for m in scene.moves)


def test_a_steal_is_a_button_naming_its_thief(driver: webdriver.Chrome) -> None:
    scene = find("baghdad", kind_of_move("steal"))
    steal = next(m for m in scene.moves if m.kind == "steal")
    assert steal.tile is not None and scene.hand is not None
    with greeted(scene) as server:
        opened(driver, server, scene.table.version)
        button = driver.find_element(By.CSS_SELECTOR, "#moves button.steal")
        assert button.text == f"Steal [{steal.tile.hi}|{steal.tile.lo}]"
        button.click()
        assert sent(server) == [Play(notation=steal.notation, counter=scene.hand.counter)]


def test_two_doubles_at_once_are_a_button(driver: webdriver.Chrome) -> None:
    scene = find("kozel", kind_of_move("double"))
    double = next(m for m in scene.moves if m.kind == "double")
    assert double.tile is not None and double.second is not None and scene.hand is not None
    with greeted(scene) as server:
        opened(driver, server, scene.table.version)
        button = driver.find_element(By.CSS_SELECTOR, "#moves button.double")
        first, second = double.tile, double.second
        assert button.text == f"[{first.hi}|{first.lo}] + [{second.hi}|{second.lo}]"
        button.click()
        assert sent(server) == [Play(notation=double.notation, counter=scene.hand.counter)]


def test_a_lobby_waits_for_the_game_to_start(driver: webdriver.Chrome) -> None:
    scene = find("tyaga", lambda s: True)

    def reply(frame: FromPage) -> list[ToPage]:
        if isinstance(frame, Hello):
            return [scene.welcome(), State(version=3, now=time.time(), table=None)]
        return []

    with FixtureTable(reply) as server:
        opened(driver, server, 3)
        assert driver.find_element(By.ID, "deal").text == "Waiting for the game to start"
        assert driver.find_elements(By.CSS_SELECTOR, ".tile, .seat") == []


def test_a_turn_is_counted_down_on_the_servers_clock(driver: webdriver.Chrome) -> None:
    scene = find("tyaga", lambda s: not s.state.deal_over)
    turn = scene.table.turn
    assert turn is not None and turn.deadline is not None
    # The game's deadline is long past by this machine's clock; the server says 30 s left.
    frame = scene.frame(now=turn.deadline - 30)

    def reply(got: FromPage) -> list[ToPage]:
        return [scene.welcome(), frame] if isinstance(got, Hello) else []

    with FixtureTable(reply) as server:
        opened(driver, server, frame.version)
        clock = driver.find_element(By.CSS_SELECTOR, ".seat.turn .clock")
        assert clock.text in ("30s", "29s")
        WebDriverWait(driver, 5).until(lambda _: clock.text == "28s")


def test_a_finished_match_shows_its_points_its_winners_and_a_rematch(
    driver: webdriver.Chrome,
) -> None:
    scene = find("tyaga", lambda s: s.state.match_over)
    table = scene.table
    assert table.deal_result is not None and table.match_result is not None
    with greeted(scene) as server:
        opened(driver, server, table.version)
        points = driver.find_elements(By.CSS_SELECTOR, "#result .points li")
        assert len(points) == len(table.seats)
        for line, seat in zip(points, table.seats, strict=True):
            assert line.text.endswith(f"→ {seat.total}")
        names = scene.frame().names
        winners = driver.find_element(By.CSS_SELECTOR, "#result .winners").text
        assert all(names[seat] in winners for seat in table.match_result.winners)
        driver.find_element(By.CSS_SELECTOR, "#moves button.rematch").click()
        WebDriverWait(driver, 5).until(lambda _: Act(act="rematch") in server.received)
        # The rematch is a game of its own, whose versions count again from 1.
        fresh = find("tyaga", lambda s: s.doc.step == 1)
        server.send(fresh.frame().model_copy(update={"game": "rematch"}))
        WebDriverWait(driver, 5).until(
            lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-version") == "1"
        )
        assert driver.find_element(By.ID, "result").is_displayed() is False


def test_a_table_gone_is_said_and_not_asked_for_again(driver: webdriver.Chrome) -> None:
    scene = find("tyaga", lambda s: not s.state.deal_over)
    with greeted(scene) as server:
        opened(driver, server, scene.table.version)
        server.send(Gone(text="This table was closed."))
        WebDriverWait(driver, 5).until(
            lambda d: d.find_element(By.ID, "banner").text == "This table was closed."
        )
        time.sleep(1.5)
        assert len(server.hellos()) == 1
