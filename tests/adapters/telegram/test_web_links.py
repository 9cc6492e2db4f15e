"""The links to the web table as Telegram shows them: the group's table opens the Mini App
by its direct link (or the table's page, where no Mini App is named), since Telegram
opens a Mini App from a button in a private chat alone; a private hand opens it there
as its player; ``/watch`` answers with the group's link to watch."""

from __future__ import annotations

import random
import time
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import redis.asyncio as aredis

from bot.model import web_pass
from bot.model.contract import ChatRef
from bot.storage.store import Store
from bot.table.sessions import Sessions
from tests.adapters.delivery.vclock import VirtualClock
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.harness import Running, running, settings_for
from tests.adapters.telegram.players import buttons
from tests.adapters.telegram.tables import GROUP_ID, PACE, started_table

pytestmark = pytest.mark.slow

SECRET = "t" * 32
PAGE = "https://domino.example/play"
GROUP = ChatRef("tg", str(GROUP_ID))


@pytest.fixture(params=["mini_app", "page"])
def short_name(request: pytest.FixtureRequest) -> str | None:
    """The Mini App's short name, or none registered."""
    return "table" if request.param == "mini_app" else None


@pytest.fixture
async def service(
    fake: FakeBotApi,
    clock: VirtualClock,
    store: Store,
    adapter_redis: aredis.Redis,
    short_name: str | None,
) -> AsyncIterator[Running]:
    """The bot with its web table set up (this module's own, in place of the shared one)."""
    web = {"web_public_url": PAGE, "web_secret": SECRET, "web_app_short_name": short_name}
    sessions = Sessions(store, settings_for(fake, **PACE, **web), rng=random.Random(11))
    async with running(fake, sessions, clock, redis=adapter_redis, **PACE, **web) as bot:
        yield bot


def web_buttons(message: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The buttons that lead out of Telegram to a page (a link or a Mini App)."""
    assert message is not None
    return [b for b in buttons(message) if "url" in b or "web_app" in b]


def pass_in_page(url: str) -> str:
    """The pass the table's page address carries."""
    assert url.startswith(PAGE + "/?pass=")
    return parse_qs(urlsplit(url).query)["pass"][0]


def pass_of_group_link(url: str, short_name: str | None) -> str:
    if short_name is None:
        return pass_in_page(url)
    prefix = f"https://t.me/domino_test_bot/{short_name}?startapp="
    assert url.startswith(prefix)
    return web_pass.from_start_param(url.removeprefix(prefix))


async def test_the_groups_table_links_to_the_web_table_to_watch(
    make_driver: Any, people: dict[str, FakeUser], short_name: str | None
) -> None:
    ann, bob = people["ann"], people["bob"]
    d = make_driver()
    game_id = await started_table(d, ann, "/newgame tyaga", bob)
    links = [b for b in web_buttons(await d.table(game_id)) if b["text"] == "Open the table"]
    (link,) = links
    assert "web_app" not in link  # Telegram refuses a Mini App button in a group
    token = pass_of_group_link(link["url"], short_name)
    given = web_pass.check(SECRET, token, time.time())
    assert (given.chat, given.user_key) == (GROUP, None)


async def test_a_private_hand_opens_the_web_table_inside_telegram_as_its_player(
    make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob = people["ann"], people["bob"]
    d = make_driver()
    game_id = await started_table(d, ann, "/newgame tyaga", bob)
    for person in (ann, bob):
        (link,) = web_buttons(await d.hand(person, game_id))
        assert link["text"] == "Play in the web table" and "url" not in link
        token = pass_in_page(link["web_app"]["url"])
        given = web_pass.check(SECRET, token, time.time())
        assert (given.chat, given.user_key) == (GROUP, f"tg:{person.id}")


async def test_watch_answers_in_the_group_with_the_link_to_watch(
    make_driver: Any, people: dict[str, FakeUser], short_name: str | None
) -> None:
    ann, bob, cy = people["ann"], people["bob"], people["cy"]
    d = make_driver()
    await started_table(d, ann, "/newgame tyaga", bob)
    await d.say(cy, "/watch")
    said = d.fake.bot_messages(GROUP_ID)[-1]
    assert said["text"] == "Watch the table in your browser:"
    (link,) = web_buttons(said)
    given = web_pass.check(SECRET, pass_of_group_link(link["url"], short_name), time.time())
    assert (given.chat, given.user_key) == (GROUP, None)
