"""What a tap on the page sends: a tile lights the ends its legal moves go to and a lit
end plays it, a tile with one move plays at once, one that goes to an end in two ways
asks which, a refused tile says why; the server's refusal is shown; a 4401 close is
final and any other drop reconnects with the version last drawn."""

from __future__ import annotations

import time

from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

import engine
from adapters.web.frames import Act, Answer, FromPage, Hello, Play, ToPage
from bot.model.parts import TileRef
from tests.adapters.web.browser.fixture_table import FixtureTable
from tests.adapters.web.browser.scenes import Scene, find
from tests.adapters.web.browser.test_page_draws import greeted, opened


def tiles_where(scene: Scene, how_many_ends: int) -> list[TileRef]:
    """The hand's tiles whose moves go to exactly ``how_many_ends`` ends, one move each."""
    if scene.seat is None or scene.state.deal_over or scene.state.turn != scene.seat:
        return []
    found = []
    for tile in map(TileRef.of, engine.view(scene.state, scene.seat).hand):
        moves = scene.plays(tile)
        ends = {m.end for m in moves}
        if len(ends) == how_many_ends and len(moves) == how_many_ends:
            found.append(tile)
    return found


def tap(driver: webdriver.Chrome, tile: TileRef) -> None:
    driver.find_element(By.CSS_SELECTOR, f'#hand .tile[data-tile="{tile.hi}-{tile.lo}"]').click()


def sent(server: FixtureTable, how_many: int = 1) -> list[Play]:
    deadline = time.monotonic() + 5
    while len(server.plays()) < how_many and time.monotonic() < deadline:
        time.sleep(0.02)
    return server.plays()


def test_a_tile_lights_the_ends_of_its_moves_and_a_lit_end_plays_it(
    driver: webdriver.Chrome,
) -> None:
    scene = find("tyaga", lambda s: bool(tiles_where(s, 2)))
    tile = tiles_where(scene, 2)[0]
    hand = scene.hand
    assert hand is not None
    with greeted(scene) as server:
        opened(driver, server, scene.table.version)
        assert driver.find_elements(By.CSS_SELECTOR, "#line .end.lit") == []
        tap(driver, tile)
        lit = driver.find_elements(By.CSS_SELECTOR, "#line .end.lit")
        assert sorted(str(e.get_attribute("data-side")) for e in lit) == ["L", "R"]
        tap(driver, tile)  # again: put back
        assert driver.find_elements(By.CSS_SELECTOR, "#line .end.lit") == []
        tap(driver, tile)
        assert server.plays() == []
        driver.find_element(By.CSS_SELECTOR, '#line .end[data-side="R"]').click()
        right = next(m for m in scene.plays(tile) if m.end == "R")
        assert sent(server) == [Play(notation=right.notation, counter=hand.counter)]


def test_a_tile_with_one_move_plays_at_once(driver: webdriver.Chrome) -> None:
    scene = find("kozel", lambda s: bool(tiles_where(s, 1)))
    tile = tiles_where(scene, 1)[0]
    hand = scene.hand
    assert hand is not None
    with greeted(scene) as server:
        opened(driver, server, scene.table.version)
        tap(driver, tile)
        (move,) = scene.plays(tile)
        assert sent(server) == [Play(notation=move.notation, counter=hand.counter)]


def test_a_tile_going_to_one_end_in_two_ways_asks_which(driver: webdriver.Chrome) -> None:
    def two_ways(scene: Scene) -> tuple[TileRef, str] | None:
        if scene.state.deal_over or scene.seat is None:
            return None
        for tile in engine.view(scene.state, scene.seat).hand:
            moves = scene.plays(TileRef.of(tile))
            for end in ("L", "R"):
                if sum(1 for m in moves if m.end == end) == 2:
                    return TileRef.of(tile), end
        return None

    scene = find("three_guns", lambda s: two_ways(s) is not None)
    found = two_ways(scene)
    assert found is not None and scene.hand is not None
    tile, end = found
    with greeted(scene) as server:
        opened(driver, server, scene.table.version)
        tap(driver, tile)
        if not driver.find_elements(By.CSS_SELECTOR, "#choices button"):
            driver.find_element(By.CSS_SELECTOR, f'#line .end[data-side="{end}"]').click()
        choices = driver.find_elements(By.CSS_SELECTOR, "#choices button")
        assert sorted(c.text for c in choices) == ["Across", "Along"]
        assert server.plays() == []
        next(c for c in choices if c.text == "Across").click()
        across = next(m for m in scene.plays(tile) if m.across and m.end == end)
        assert sent(server) == [Play(notation=across.notation, counter=scene.hand.counter)]


def test_a_tile_that_cannot_go_shows_why(driver: webdriver.Chrome) -> None:
    def refused(scene: Scene) -> bool:
        if scene.state.deal_over or scene.state.turn != scene.seat or scene.seat is None:
            return False
        playable = {m.tile for m in scene.moves}
        return any(TileRef.of(t) not in playable for t in engine.view(scene.state, scene.seat).hand)

    scene = find("tyaga", refused)
    frame = scene.frame()
    tile, why = next(iter(frame.why.items()))
    with greeted(scene) as server:
        opened(driver, server, scene.table.version)
        driver.find_element(By.CSS_SELECTOR, f'#hand .tile[data-tile="{tile}"]').click()
        assert driver.find_element(By.ID, "notice").text == why
        assert "fit" in why
        assert server.plays() == []


def test_keys_walk_the_hand_and_enter_plays(driver: webdriver.Chrome) -> None:
    scene = find("kozel", lambda s: bool(tiles_where(s, 1)))
    hand = scene.hand
    assert hand is not None
    tile = tiles_where(scene, 1)[0]
    at = hand.tiles.index(tile)
    with greeted(scene) as server:
        opened(driver, server, scene.table.version)
        first = driver.find_element(By.CSS_SELECTOR, "#hand .tile")
        first.send_keys(Keys.ARROW_LEFT)  # wraps round to the last tile
        for _ in range(len(hand.tiles) - 1):
            driver.switch_to.active_element.send_keys(Keys.ARROW_LEFT)
        for _ in range(at):
            driver.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
        focused = driver.switch_to.active_element
        assert focused.get_attribute("data-tile") == f"{tile.hi}-{tile.lo}"
        assert focused.get_attribute("aria-label") == f"{words(tile.hi)}-{words(tile.lo)}"
        focused.send_keys(Keys.ENTER)
        (move,) = scene.plays(tile)
        assert sent(server) == [Play(notation=move.notation, counter=hand.counter)]


def words(pips: int) -> str:
    return ("blank", "one", "two", "three", "four", "five", "six")[pips]


def test_moves_without_a_tile_and_actions_are_buttons(driver: webdriver.Chrome) -> None:
    def draws(scene: Scene) -> bool:
        hand = scene.hand
        return hand is not None and any(m.kind == "draw" for m in hand.moves)

    scene = find("tyaga", draws)
    hand = scene.hand
    assert hand is not None
    with greeted(scene) as server:
        opened(driver, server, scene.table.version)
        driver.find_element(By.CSS_SELECTOR, "#moves button.draw").click()
        assert sent(server) == [Play(notation="draw", counter=hand.counter)]
    over = find("tyaga", lambda s: s.state.deal_over and not s.state.match_over)
    with greeted(over) as server:
        opened(driver, server, over.table.version)
        assert driver.find_element(By.ID, "result").is_displayed()
        driver.find_element(By.CSS_SELECTOR, "#moves button.next_deal").click()
        WebDriverWait(driver, 5).until(lambda _: Act(act="next_deal") in server.received)


def test_a_refusal_from_the_server_is_shown(driver: webdriver.Chrome) -> None:
    scene = find("kozel", lambda s: bool(tiles_where(s, 1)))

    def reply(frame: FromPage) -> list[ToPage]:
        if isinstance(frame, Hello):
            return [scene.welcome(), scene.frame()]
        return [Answer(ok=False, text="That button is out of date: use the new ones.")]

    with FixtureTable(reply) as server:
        opened(driver, server, scene.table.version)
        tap(driver, tiles_where(scene, 1)[0])
        WebDriverWait(driver, 5).until(
            lambda d: d.find_element(By.ID, "notice").text.startswith("That button")
        )


def test_a_refused_hello_shows_the_reason_and_is_not_tried_again(
    driver: webdriver.Chrome,
) -> None:
    with FixtureTable(lambda frame: []) as server:
        server.refuse = "This link has expired"
        driver.get(f"{server.url}?pass=old")
        WebDriverWait(driver, 5).until(
            lambda d: d.find_element(By.ID, "banner").text == "This link has expired"
        )
        time.sleep(1.5)
        assert server.connections == 1


def test_a_dropped_socket_reconnects_and_says_the_version_it_drew(
    driver: webdriver.Chrome,
) -> None:
    scene = find("baghdad", lambda s: not s.state.deal_over and s.doc.step > 5)
    with greeted(scene) as server:
        opened(driver, server, scene.table.version)
        server.drop()
        WebDriverWait(driver, 10).until(lambda _: len(server.hellos()) == 2)
        assert server.hellos()[1].version == scene.table.version
        assert server.hellos()[1].game == scene.doc.id
        assert server.hellos()[1].step == scene.doc.step
        assert server.hellos()[1].ticket == "abc.def"
