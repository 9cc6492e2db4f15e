"""Inside Telegram (the address's hash holds ``tgWebAppData``) the page says who it is
with ``Telegram.WebApp.initData``, tells the Mini App it is ready and wants the whole
height, takes Telegram's theme colours, and buzzes on a play and on a refusal. The
WebApp object is put in the page before it loads, as a Telegram client may do (the
tests fetch nothing from the internet); outside Telegram nothing but the table's own
server is asked for anything."""

from __future__ import annotations

import json

from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.adapters.web.browser.scenes import Scene, find, mid_deal
from tests.adapters.web.browser.test_page_draws import greeted
from tests.adapters.web.browser.test_page_plays import sent, tap, tiles_where

INIT_DATA = "query_id=AAE&user=%7B%22id%22%3A7%7D&auth_date=1796000000&hash=00ff"
WEB_APP = """
window.telegramCalls = [];
const called = (name) => (...args) => window.telegramCalls.push([name, ...args].join(':'));
window.Telegram = {WebApp: {
  initData: INIT_DATA,
  themeParams: {bg_color: '#102030', text_color: '#fafafa', button_color: '#ff0000'},
  ready: called('ready'), expand: called('expand'), onEvent: called('onEvent'),
  HapticFeedback: {impactOccurred: called('impact'), notificationOccurred: called('notification')},
}};
""".replace("INIT_DATA", json.dumps(INIT_DATA))


def calls(driver: webdriver.Chrome) -> list[str]:
    return list(driver.execute_script("return window.telegramCalls"))


def test_inside_telegram_the_page_speaks_as_a_mini_app(driver: webdriver.Chrome) -> None:
    def both(scene: Scene) -> bool:
        hand = scene.hand if tiles_where(scene, 1) else None
        return hand is not None and any(not scene.plays(tile) for tile in hand.tiles)

    scene = find("kozel", both)
    refused = next(iter(scene.frame().why))
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WEB_APP})
    with greeted(scene) as server:
        driver.get(f"{server.url}#tgWebAppData={INIT_DATA}&tgWebAppVersion=8.0")
        WebDriverWait(driver, 10).until(
            lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-version")
        )
        hello = server.hellos()[0]
        assert (hello.init_data, hello.ticket) == (INIT_DATA, None)
        assert calls(driver)[:2] == ["ready", "expand"]
        background = driver.execute_script("return getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(16, 32, 48)"
        driver.find_element(By.CSS_SELECTOR, f'#hand .tile[data-tile="{refused}"]').click()
        assert calls(driver)[-1] == "notification:error"
        tap(driver, tiles_where(scene, 1)[0])
        assert sent(server)
        assert calls(driver)[-1] == "impact:light"


def test_outside_telegram_the_page_asks_its_own_server_alone(driver: webdriver.Chrome) -> None:
    scene = find("baghdad", mid_deal)
    with greeted(scene) as server:
        driver.get(f"{server.url}?pass=abc.def")
        WebDriverWait(driver, 10).until(
            lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-version")
        )
        asked = driver.execute_script(
            "return performance.getEntriesByType('resource').map((e) => e.name)"
        )
        assert asked and all(name.startswith(server.url) for name in asked)
        assert driver.execute_script("return window.Telegram === undefined")
