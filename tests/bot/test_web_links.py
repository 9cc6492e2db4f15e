"""The screens' links to the web table: the group's table offers it to watch, each hand
offers it as its player, and ``watch`` answers with it; only where the bot is set up
for it, with passes that last until a whole hour so that a screen drawn again within
the hour is the same screen."""

from __future__ import annotations

import random

import pytest

from bot.app.config import Settings
from bot.model import codec, web_pass
from bot.model.contract import Answer, Button, Outbound, Response, Screen, Show
from bot.storage.store import Store
from bot.table.sessions import Sessions
from bot.views.web_links import pass_expiry
from engine import DOUBLE_SIX
from tests.bot.driver import (
    SETTINGS,
    Clock,
    Table,
    button,
    buttons,
    deal,
    make_table,
    responses,
    scripted,
    user,
)

ANNA, BORIS = user(1, "Anna"), user(2, "Boris")
SECRET = "s" * 32
WEB = SETTINGS.model_copy(
    update={"web_public_url": "https://domino.example", "web_secret": SECRET, "web_pass_hours": 2}
)
SHORT = deal(DOUBLE_SIX, "6-6 6-5 5-5", "6-4 4-4 4-3", leader=0)
HOUR = 3600
THREE: dict[str, str | int] = {"hand_size": 3}


def web_table(store: Store, settings: Settings = WEB, lang_seed: int = 1) -> Table:
    clock = Clock()
    sessions = Sessions(store, settings, clock=clock, rng=random.Random(lang_seed))
    table = make_table(store)
    table.sessions, table.clock = sessions, clock
    return table


def web_buttons(screen: Screen | None) -> list[Button]:
    return [b for b in buttons(screen) if b.web is not None]


def screens_of(out: list[Outbound]) -> list[Screen]:
    found: list[Screen] = []
    for item in out:
        screen = item.screen if isinstance(item, Show | Response | Answer) else None
        if screen is not None:
            found.append(screen)
    return found


def checked(button: Button, now: float) -> web_pass.WebPass:
    assert button.web is not None
    return web_pass.check(SECRET, button.web, now)


def test_a_pass_expires_at_the_whole_hour_after_its_hours() -> None:
    assert pass_expiry(10 * HOUR, 2) == 12 * HOUR
    assert pass_expiry(10 * HOUR + 1, 2) == 13 * HOUR
    assert pass_expiry(11 * HOUR - 1, 2) == 13 * HOUR
    assert pass_expiry(10 * HOUR, 0.5) == 11 * HOUR


async def test_the_group_table_offers_the_web_table_to_watch(fake_store: Store) -> None:
    table = web_table(fake_store)
    await scripted(table, "tyaga", [ANNA, BORIS], SHORT, options=THREE)
    await table.open_hands(ANNA, BORIS)
    await table.press(ANNA, button(table.hand(ANNA), "[6|6]").payload)
    (link,) = web_buttons(table.table())
    assert link.label == "Open the table"
    given = checked(link, table.clock())
    assert (given.chat, given.user_key) == (table.chat, None)
    assert given.expires == pass_expiry(table.clock(), 2)


async def test_each_hand_offers_the_web_table_as_its_own_player(fake_store: Store) -> None:
    table = web_table(fake_store)
    await scripted(table, "tyaga", [ANNA, BORIS], SHORT, options=THREE)
    await table.open_hands(ANNA, BORIS)
    for person in (ANNA, BORIS):
        (link,) = web_buttons(table.hand(person))
        given = checked(link, table.clock())
        assert (given.chat, given.user_key) == (table.chat, person.key)


async def test_the_hand_a_press_shows_the_presser_offers_it_as_him(fake_store: Store) -> None:
    """The hand of "My tiles" (Discord shows it to the presser alone) has the link too."""
    table = web_table(fake_store)
    await scripted(table, "tyaga", [ANNA, BORIS], SHORT, options=THREE)
    out = await table.press(BORIS, codec.tiles_payload("scripted"))
    reply = out[0]
    assert isinstance(reply, Answer) and reply.screen is not None
    (link,) = web_buttons(reply.screen)
    assert checked(link, table.clock()).user_key == BORIS.key


async def test_a_steady_hand_offers_it_too(fake_store: Store) -> None:
    table = web_table(fake_store)
    table.sessions.steady_hands("tg")
    await scripted(table, "tyaga", [ANNA, BORIS], SHORT, options=THREE)
    await table.open_hands(ANNA, BORIS)
    (link,) = web_buttons(table.hand(ANNA))
    assert checked(link, table.clock()).user_key == ANNA.key


async def test_a_screen_drawn_again_within_the_hour_is_the_same_screen(
    fake_store: Store,
) -> None:
    table = web_table(fake_store)
    table.clock.now = 500 * HOUR + 60  # a minute into an hour
    await scripted(table, "tyaga", [ANNA, BORIS], SHORT, options=THREE)
    first = await table.sessions.redraw(table.chat)
    table.clock.advance(HOUR - 120)  # still the same hour
    again = await table.sessions.redraw(table.chat)
    assert first is not None and again is not None
    assert first.screens[0].screen == again.screens[0].screen
    (link,) = web_buttons(first.screens[0].screen)
    assert checked(link, table.clock()).expires == 503 * HOUR
    table.clock.advance(120)  # the next hour: a pass that lasts an hour longer
    later = await table.sessions.redraw(table.chat)
    assert later is not None
    (link,) = web_buttons(later.screens[0].screen)
    assert checked(link, table.clock()).expires == 504 * HOUR


async def test_a_lobby_and_a_finished_match_offer_no_web_table(fake_store: Store) -> None:
    table = web_table(fake_store)
    out = await table.command(ANNA, "new", "tyaga", "target=20", "timer=off")
    assert screens_of(out) and not any(web_buttons(s) for s in screens_of(out))
    await table.command(BORIS, "join")
    await table.command(ANNA, "start")
    await table.play_out([ANNA, BORIS], random.Random(3))
    assert web_buttons(table.table()) == []


async def test_without_the_web_settings_no_screen_offers_the_web_table(
    fake_store: Store,
) -> None:
    """A whole match, its lookups and its hands, on a bot with no web table set up."""
    table = make_table(fake_store)
    await table.start_match("tyaga", [ANNA, BORIS], "target=20")
    await table.press(BORIS, codec.tiles_payload(table.game_id or ""))
    await table.command(ANNA, "table")
    await table.play_out([ANNA, BORIS], random.Random(5))
    offered = [s for out in table.log for s in screens_of(out) if web_buttons(s)]
    assert offered == []


@pytest.mark.parametrize("half", ["url", "secret"])
async def test_half_the_web_settings_offer_nothing(fake_store: Store, half: str) -> None:
    given = {"url": {"web_public_url": "https://domino.example"}, "secret": {"web_secret": SECRET}}
    table = web_table(fake_store, SETTINGS.model_copy(update=given[half]))
    await scripted(table, "tyaga", [ANNA, BORIS], SHORT, options=THREE)
    await table.open_hands(ANNA, BORIS)
    drawn = await table.sessions.redraw(table.chat)
    assert drawn is not None and web_buttons(drawn.screens[0].screen) == []
    assert table.hand(ANNA) is not None and web_buttons(table.hand(ANNA)) == []


async def test_watch_answers_with_a_link_to_watch_the_chats_table(fake_store: Store) -> None:
    table = web_table(fake_store)
    await scripted(table, "tyaga", [ANNA, BORIS], SHORT, options=THREE)
    (said,) = responses(await table.command(user(3, "Vera"), "watch"))
    (link,) = web_buttons(said.screen)
    given = checked(link, table.clock())
    assert (given.chat, given.user_key) == (table.chat, None)


async def test_watch_says_when_no_game_is_played_here(fake_store: Store) -> None:
    table = web_table(fake_store)
    (said,) = responses(await table.command(ANNA, "watch"))
    assert said.screen.plain_text() == "No game is running here."
    assert web_buttons(said.screen) == []


async def test_watch_says_when_the_bot_has_no_web_table(fake_store: Store) -> None:
    table = make_table(fake_store)
    await scripted(table, "tyaga", [ANNA, BORIS], SHORT, options=THREE)
    (said,) = responses(await table.command(ANNA, "watch"))
    assert said.screen.plain_text() == "The web table is not set up on this bot."


async def test_watch_speaks_the_askers_language(fake_store: Store) -> None:
    table = web_table(fake_store)
    await scripted(table, "tyaga", [ANNA, BORIS], SHORT, options=THREE)
    await table.command(ANNA, "lang", "ru")
    (said,) = responses(await table.command(ANNA, "watch"))
    assert said.screen.plain_text() == "Смотрите игру за столом в браузере:"
    assert [b.label for b in web_buttons(said.screen)] == ["Открыть стол"]
