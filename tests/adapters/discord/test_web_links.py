"""The links to the web table as Discord shows them: link buttons to the table's page
with a pass, on the channel's table to watch, on a player's ephemeral hand naming him,
and on the answer to ``/domino watch``."""

from __future__ import annotations

import random
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

import aiohttp
import discord
import pytest
import redis.asyncio as aredis

from adapters.discord.render import render
from adapters.discord.web_links import link_screen, page_delivery
from adapters.web import frames
from adapters.web.host import Deliveries, hosted_table, serving
from adapters.web_address import WebAddress
from bot.app.config import Settings
from bot.model import codec, web_pass
from bot.model.contract import Button, ChatRef, Screen
from bot.storage.store import Store
from bot.table.sessions import Sessions
from tests.adapters.discord.conftest import ALICE, BOB, CAROL
from tests.adapters.discord.fake_api import EPHEMERAL, FakeDiscord, Json
from tests.adapters.discord.harness import CHANNEL_ID, Bot, buttons_of
from tests.adapters.discord.matches import (
    QuickSettings,
    Referee,
    custom_id_for,
    open_table,
    plain_text,
    table_message,
)

SECRET = "d" * 32
PAGE = "https://domino.example"
CHAT = ChatRef("dc", str(CHANNEL_ID))
LINK = 5  # Discord's component style of a link button


@dataclass(frozen=True)
class WebSettings(QuickSettings):
    """A bot whose web table is set up."""

    web_public_url: str = PAGE
    web_secret: str = SECRET
    web_pass_hours: float = 24


@pytest.fixture
async def bot(fake: FakeDiscord, redis_client: aredis.Redis) -> AsyncIterator[Bot]:
    """A bot process with its web table set up (this module's own, in place of the shared one)."""
    store = Store(redis_client)
    core = Sessions(store, WebSettings(), rng=random.Random(7))
    people = [ALICE, BOB, CAROL]
    running = await Bot.boot(fake, core, redis_client, people, web=WebAddress(PAGE))
    try:
        yield running
    finally:
        await running.close()


def passes_on(message: Json) -> list[web_pass.WebPass]:
    """The passes of the message's link buttons to the table's page, checked."""
    links = [b for b in buttons_of(message) if b.get("style") == LINK]
    assert all(b["url"].startswith(PAGE + "/?pass=") for b in links)
    tokens = [parse_qs(urlsplit(b["url"]).query)["pass"][0] for b in links]
    return [web_pass.check(SECRET, token, time.time()) for token in tokens]


async def test_the_channels_table_links_to_the_web_table_to_watch(bot: Bot) -> None:
    await open_table(bot, "tyaga", 0)
    (given,) = passes_on(table_message(bot))
    assert (given.chat, given.user_key) == (CHAT, None)


async def test_an_ephemeral_hand_links_to_the_web_table_as_its_player(bot: Bot) -> None:
    await open_table(bot, "tyaga", 0)
    table = table_message(bot)
    tiles = custom_id_for(table, codec.TilesPress)
    assert tiles is not None
    for person in (ALICE, BOB):
        hand = bot.reply_to(await bot.press(person, table, tiles))
        assert hand["flags"] & EPHEMERAL
        (given,) = passes_on(hand)
        assert (given.chat, given.user_key) == (CHAT, f"dc:{person.id}")


async def test_watch_answers_with_a_link_to_watch(bot: Bot) -> None:
    await open_table(bot, "tyaga", 0)
    reply = bot.reply_to(await bot.command(CAROL, "watch"))
    assert plain_text(reply) == "Watch the table in your browser:"
    (given,) = passes_on(reply)
    assert (given.chat, given.user_key) == (CHAT, None)


async def test_watch_with_no_game_says_so_and_links_nowhere(bot: Bot) -> None:
    reply = bot.reply_to(await bot.command(CAROL, "watch"))
    assert plain_text(reply) == "No game is running here."
    assert passes_on(reply) == []


def test_a_pass_not_made_a_link_is_left_out_rather_than_shown_dead() -> None:
    screen = Screen((("Deal 1",),), ((Button("Tiles", "1t_x"), Button("Open", web="a.b.c.d")),))
    view = render(screen).view
    assert view is not None and [c.item.label for c in view.children] == ["Tiles"]  # type: ignore[attr-defined]
    linked = link_screen(screen, WebAddress(PAGE))
    assert [b.url for b in linked.buttons[0]] == [None, PAGE + "/?pass=a.b.c.d"]


def test_a_hand_too_big_for_discord_keeps_its_link_and_its_last_row_as_buttons() -> None:
    """Discord shows five rows: the rest of the buttons go into select menus, which
    cannot hold a link, and the last row (draw, pass) stays buttons."""
    tiles = tuple((Button(f"[{n}|{n}]", f"1m_{n}"),) * 5 for n in range(6))
    words = (Button("Draw", "1m_draw"),)
    web = (Button("Play in the web table", web="a.b.c.d"),)
    screen = link_screen(Screen((("Your tiles",),), (*tiles, words, web)), WebAddress(PAGE))
    view = render(screen).view
    assert view is not None
    shown = [getattr(c, "item", c) for c in view.children]
    assert [b.url for b in shown if isinstance(b, discord.ui.Button) and b.url] == [
        PAGE + "/?pass=a.b.c.d"
    ]
    assert "Draw" in [b.label for b in shown if isinstance(b, discord.ui.Button)]


async def test_a_move_made_on_the_page_is_shown_in_the_channel(
    bot: Bot, redis_client: aredis.Redis
) -> None:
    """The web table served beside the bot: the channel's table follows a page's move,
    carried by the bot's own delivery."""
    await Store(redis_client).tell_pages()  # as the bot's process does when it opens its store
    await open_table(bot, "tyaga", 0)
    table = table_message(bot)
    tiles = custom_id_for(table, codec.TilesPress)
    assert tiles is not None
    found = await Referee(bot, Store(redis_client)).state()
    assert found is not None and found[1] is not None
    doc, state = found
    mover = next(p for p in (ALICE, BOB) if str(p.id) == doc.seats[state.turn].user.user_id)
    hand = bot.reply_to(await bot.press(mover, table, tiles))
    (link,) = [b for b in buttons_of(hand) if b.get("style") == LINK]
    ticket = parse_qs(urlsplit(link["url"]).query)["pass"][0]
    pages = Deliveries()
    pages.by_platform["dc"] = page_delivery(bot.adapter, WebAddress(PAGE))
    settings = Settings(_env_file=None, web_public_url=PAGE, web_secret=SECRET)
    core = Sessions(Store(redis_client), WebSettings())
    web = hosted_table(settings, core, redis_client, pages)
    assert web is not None
    before = plain_text(table_message(bot))
    async with serving(web, "127.0.0.1", 0) as port, aiohttp.ClientSession() as client:
        socket = await client.ws_connect(f"http://127.0.0.1:{port}/ws")
        await socket.send_str(frames.Hello(ticket=ticket).model_dump_json())
        state = await next_state(socket)
        assert state.hand is not None
        play = frames.Play(notation=state.hand.moves[0].notation, counter=state.hand.counter)
        await socket.send_str(play.model_dump_json())
        while not isinstance(answer := await next_frame(socket), frames.Answer):
            pass
        assert answer.ok, answer
        await socket.close()
    await bot.adapter.drain()
    after = plain_text(table_message(bot))
    assert after != before and "led with" in after


async def next_frame(socket: aiohttp.ClientWebSocketResponse) -> frames.ToPage:
    message = await socket.receive(timeout=10)
    assert message.type is aiohttp.WSMsgType.TEXT, message
    return frames.TO_PAGE.validate_json(message.data)


async def next_state(socket: aiohttp.ClientWebSocketResponse) -> frames.State:
    while not isinstance(frame := await next_frame(socket), frames.State):
        pass
    return frame
