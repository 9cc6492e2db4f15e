"""A page in a busy group: once a play or an act is sent, the hand waits for its answer
(or a newer state), dimmed and aria-busy, and a second tap sends nothing; a refusal of a
move the table has since moved past is not shown; Kozel's teams show who plays with whom."""

from __future__ import annotations

import re
import time

from selenium import webdriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from adapters.web.frames import Act, Answer
from bot.model.parts import TileRef
from tests.adapters.web.browser.scenes import KOZEL_TEAMS, Scene, find, mid_deal
from tests.adapters.web.browser.test_page_draws import greeted, opened
from tests.adapters.web.browser.test_page_plays import sent, tap, tiles_where

ISOLATES = re.compile("[\u2066-\u2069]")


def tile_css(tile: TileRef) -> str:
    return f'#hand .tile[data-tile="{tile.hi}-{tile.lo}"]'


def hand_busy(driver: webdriver.Chrome) -> bool:
    return driver.find_element(By.ID, "hand").get_attribute("aria-busy") == "true"


def settle() -> None:
    """Time for a frame a tap might have sent to reach the fixture's server."""
    time.sleep(0.4)


def one_move_tile(scene: Scene) -> TileRef:
    return tiles_where(scene, 1)[0]


def test_a_double_click_on_a_tile_sends_one_play_until_the_answer(
    driver: webdriver.Chrome,
) -> None:
    scene = find("kozel", lambda s: bool(tiles_where(s, 1)))
    tile = one_move_tile(scene)
    with greeted(scene) as server:
        opened(driver, server, scene.table.version)
        ActionChains(driver).double_click(
            driver.find_element(By.CSS_SELECTOR, tile_css(tile))
        ).perform()
        settle()
        assert len(server.plays()) == 1
        assert hand_busy(driver)
        assert "busy" in str(driver.find_element(By.ID, "mine").get_attribute("class"))
        dimmed = "return getComputedStyle(document.getElementById('hand')).opacity"
        assert float(driver.execute_script(dimmed)) < 1
        driver.execute_script(  # ten more taps, as some press
            "for (let i = 0; i < 10; i += 1) document.querySelector(arguments[0]).click();",
            tile_css(tile),
        )
        settle()
        assert len(server.plays()) == 1
        server.send(Answer(ok=True))
        WebDriverWait(driver, 5).until(lambda d: not hand_busy(d))
        assert float(driver.execute_script(dimmed)) == 1
        tap(driver, tile)
        assert len(sent(server, 2)) == 2


def test_a_quick_double_tap_on_an_end_sends_one_play(driver: webdriver.Chrome) -> None:
    scene = find("tyaga", lambda s: bool(tiles_where(s, 2)))
    tile = tiles_where(scene, 2)[0]
    with greeted(scene) as server:
        opened(driver, server, scene.table.version)
        tap(driver, tile)
        end = driver.find_element(By.CSS_SELECTOR, '#line .end[data-side="R"]')
        ActionChains(driver).double_click(end).perform()
        settle()
        assert len(server.plays()) == 1
        assert hand_busy(driver)


def test_an_act_pressed_twice_is_sent_once(driver: webdriver.Chrome) -> None:
    over = find("tyaga", lambda s: s.state.deal_over and not s.state.match_over)
    with greeted(over) as server:
        opened(driver, server, over.table.version)
        button = driver.find_element(By.CSS_SELECTOR, "#moves button.next_deal")
        ActionChains(driver).double_click(button).perform()
        settle()
        assert [f for f in server.received if isinstance(f, Act)] == [Act(act="next_deal")]


def test_a_refusal_of_a_move_the_table_has_moved_past_is_not_shown(
    driver: webdriver.Chrome,
) -> None:
    scene = find("kozel", lambda s: bool(tiles_where(s, 1)))
    version = scene.table.version
    with greeted(scene) as server:
        opened(driver, server, version)
        tap(driver, one_move_tile(scene))
        assert len(sent(server)) == 1
        # The table moves on before the answer (the turn's time ran out): the hand is
        # free again at once, and the move's refusal, when it comes, is not shown.
        server.send(scene.frame().model_copy(update={"version": version + 1}))
        WebDriverWait(driver, 5).until(lambda d: not hand_busy(d))
        server.send(Answer(ok=False, text="That button is out of date: use the new ones."))
        server.send(scene.frame().model_copy(update={"version": version + 2}))
        WebDriverWait(driver, 5).until(
            lambda d: (
                d.find_element(By.TAG_NAME, "body").get_attribute("data-version")
                == str(version + 2)
            )
        )
        assert driver.find_element(By.ID, "notice").text == ""


def test_kozel_teams_show_who_plays_with_whom(driver: webdriver.Chrome) -> None:
    scene = find("kozel", mid_deal, table=KOZEL_TEAMS)
    teams = scene.table.teams
    assert len(teams) == 2
    names = [ISOLATES.sub("", name) for name in scene.frame().names]
    with greeted(scene) as server:
        opened(driver, server, scene.table.version)
        for number, team in enumerate(teams, start=1):
            for seat in team:
                card = driver.find_element(By.CSS_SELECTOR, f'#seats .seat[data-seat="{seat}"]')
                assert card.get_attribute("data-team") == str(number)
                assert card.find_element(By.CSS_SELECTOR, ".team .number").text == f"Team {number}"
                (partner,) = (other for other in team if other != seat)
                shown = card.find_element(By.CSS_SELECTOR, ".team .partner").text
                assert ISOLATES.sub("", shown) == f"Partner: {names[partner]}"


def test_kozel_without_teams_shows_none(driver: webdriver.Chrome) -> None:
    scene = find("kozel", mid_deal)
    assert scene.table.teams == ()
    with greeted(scene) as server:
        opened(driver, server, scene.table.version)
        assert driver.find_elements(By.CSS_SELECTOR, "#seats .team") == []
