"""Webhook mode: the secret token is checked, health is reported, updates reach the core."""

from __future__ import annotations

import socket
from typing import Any

import aiohttp
import pytest

from adapters.telegram.webhook import SECRET_HEADER, UpdateLedger, webhook_path
from bot.model.contract import Command
from bot.storage.store import connect
from tests.adapters.delivery.vclock import VirtualClock
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.harness import running
from tests.adapters.telegram.test_app import GROUP_ID, EchoCore

SECRET = "s3cret-token_0123456789"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def command_update(update_id: int, text: str) -> dict[str, Any]:
    return {
        "update_id": update_id,
        "message": {
            "message_id": update_id,
            "date": 0,
            "chat": {"id": GROUP_ID, "type": "supergroup", "title": "Dominoes"},
            "from": {"id": 42, "is_bot": False, "first_name": "Ann"},
            "text": text,
            "entities": [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}],
        },
    }


@pytest.fixture
def port() -> int:
    return free_port()


def webhook_settings(port: int) -> dict[str, Any]:
    return {
        "telegram_webhook_url": "https://bot.example.org/tg/hook",
        "telegram_webhook_secret": SECRET,
        "telegram_webhook_listen": "127.0.0.1",
        "telegram_webhook_port": port,
    }


async def post(port: int, body: Any, secret: str | None) -> int:
    headers = {SECRET_HEADER: secret} if secret is not None else {}
    async with aiohttp.ClientSession() as session:
        url = f"http://127.0.0.1:{port}/tg/hook"
        async with session.post(url, json=body, headers=headers) as response:
            return response.status


def test_the_webhook_path_comes_from_the_public_url() -> None:
    assert webhook_path("https://bot.example.org/tg/hook") == "/tg/hook"
    assert webhook_path("https://bot.example.org") == "/"


async def test_the_webhook_is_set_with_its_secret_token(
    fake: FakeBotApi, clock: VirtualClock, port: int
) -> None:
    async with running(fake, EchoCore(), clock, **webhook_settings(port)):
        pass
    assert fake.webhook["url"] == "https://bot.example.org/tg/hook"
    assert fake.webhook["secret_token"] == SECRET
    assert fake.calls_to("getUpdates") == []


async def test_an_update_with_the_right_secret_reaches_the_core(
    fake: FakeBotApi, clock: VirtualClock, port: int
) -> None:
    fake.add_group(GROUP_ID, "Dominoes")
    ann = fake.add_user(42, "Ann")
    core = EchoCore()
    async with running(fake, core, clock, **webhook_settings(port)) as bot:
        fake.deliver_to([f"http://127.0.0.1:{port}/tg/hook"], SECRET)
        fake.type_text(ann, GROUP_ID, "/join")
        await bot.drain()
    assert [c.name for c in core.seen if isinstance(c, Command)] == ["join"]
    assert fake.feed.hook_posts == [(f"http://127.0.0.1:{port}/tg/hook", 200)]


@pytest.mark.parametrize("secret", ["wrong", None])
async def test_an_update_without_the_right_secret_is_refused(
    fake: FakeBotApi, clock: VirtualClock, port: int, secret: str | None
) -> None:
    core = EchoCore()
    async with running(fake, core, clock, **webhook_settings(port)) as bot:
        assert await post(port, command_update(1, "/join"), secret) == 403
        await bot.drain()
    assert core.seen == []


async def test_a_body_that_is_no_update_is_refused(
    fake: FakeBotApi, clock: VirtualClock, port: int
) -> None:
    async with running(fake, EchoCore(), clock, **webhook_settings(port)):
        assert await post(port, {"hello": 1}, SECRET) == 400
        assert await post(port, [1, 2], SECRET) == 400


async def test_health_is_reported_for_load_balancers(
    fake: FakeBotApi, clock: VirtualClock, port: int
) -> None:
    async with (
        running(fake, EchoCore(), clock, **webhook_settings(port)),
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}/healthz") as response,
    ):
        assert response.status == 200


async def test_an_update_is_handled_when_a_cluster_that_cannot_be_reached_cannot_mark_it_taken(
    port: int,
) -> None:
    """The cluster client's "cannot be connected" is no ``RedisError``; it is the store
    being down all the same, so the update is handled (and told the table is unavailable)."""
    client = connect(f"redis://127.0.0.1:{port}/0", timeout=1.0, cluster=True)
    try:
        assert await UpdateLedger(client).take(7)
    finally:
        await client.aclose()
