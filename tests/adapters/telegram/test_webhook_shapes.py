"""What the webhook takes from a post with the right secret: an update of the shape the
bot reads, answered 200 and marked taken in Redis; anything else (not JSON, nested
beyond reason, an update id that is no whole number, a part of the wrong type) answered
400 with nothing marked. Posts are drawn from the full Unicode range and arbitrary JSON,
and a flood of posts with a wrong secret is told in the log once a minute."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis.asyncio as aredis
from aiohttp.test_utils import TestClient, TestServer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from telegram import Bot, Update
from telegram.ext import Application

from adapters.telegram.webhook import SECRET_HEADER, UpdateLedger, WrongSecretLog, webhook_app
from bot.storage import keys
from tests.adapters.delivery.vclock import VirtualClock
from tests.adapters.telegram.test_webhook import SECRET
from tests.adapters.telegram.test_webhook import command_update as typed_update

PATH = "/tg/hook"
USER = {"id": 42, "is_bot": False, "first_name": "Ann"}
GROUP = {"id": -100123, "type": "supergroup", "title": "Dominoes"}


def command_update(update_id: int) -> dict[str, Any]:
    return typed_update(update_id, "/join")


def press_update(update_id: int) -> dict[str, Any]:
    message = {"message_id": 7, "date": 1, "chat": GROUP, "from": {**USER, "id": 1, "is_bot": True}}
    query = {"id": "q1", "from": USER, "chat_instance": "c", "message": message, "data": "x"}
    return {"update_id": update_id, "callback_query": query}


def removed_update(update_id: int) -> dict[str, Any]:
    bot = {**USER, "id": 1, "is_bot": True}
    change = {
        "chat": GROUP,
        "from": USER,
        "date": 1,
        "old_chat_member": {"status": "member", "user": bot},
        "new_chat_member": {"status": "kicked", "user": bot, "until_date": 0},
    }
    return {"update_id": update_id, "my_chat_member": change}


class Hook:
    """The webhook app on loopback, with a real Application and a ledger in Redis."""

    def __init__(
        self,
        client: TestClient[Any, Any],
        application: Application[Any, Any, Any, Any, Any, Any],
        redis: aredis.Redis,
    ) -> None:
        self.client = client
        self.application = application
        self.redis = redis

    async def post(self, body: bytes, secret: str = SECRET) -> int:
        response = await self.client.post(PATH, data=body, headers={SECRET_HEADER: secret})
        return response.status

    async def taken(self) -> list[str]:
        """Every key in the test's database (emptied when it began): the updates taken."""
        return sorted(str(key) for key in await self.redis.keys("*"))

    def queued(self) -> list[Update]:
        updates = []
        while not self.application.update_queue.empty():
            update = self.application.update_queue.get_nowait()
            assert isinstance(update, Update)
            updates.append(update)
        return updates


def make_app(
    bot: Bot, redis: aredis.Redis, told: WrongSecretLog | None = None
) -> tuple[Any, Application[Any, Any, Any, Any, Any, Any]]:
    application = Application.builder().bot(bot).updater(None).build()
    return webhook_app(application, PATH, SECRET, UpdateLedger(redis), told), application


@pytest.fixture
async def hook(bot: Bot, redis_client: aredis.Redis) -> AsyncIterator[Hook]:
    app, application = make_app(bot, redis_client)
    server: TestServer = TestServer(app)
    async with server, TestClient(server) as client:
        yield Hook(client, application, redis_client)


def dumped(value: Any) -> bytes:
    return json.dumps(value).encode()


@pytest.mark.parametrize("make", [command_update, press_update, removed_update])
async def test_an_update_the_bot_reads_is_taken_once_and_queued(hook: Hook, make: Any) -> None:
    assert await hook.post(dumped(make(5))) == 200
    assert await hook.post(dumped(make(5))) == 200  # posted again: taken already
    assert await hook.taken() == [keys.telegram_update(5)]
    [update] = hook.queued()
    assert update.update_id == 5 and update.to_dict()  # python-telegram-bot read it whole


async def test_an_update_of_a_kind_the_bot_does_not_read_is_taken_with_its_id_alone(
    hook: Hook,
) -> None:
    assert await hook.post(dumped({"update_id": 9, "poll": {"id": [[5]]}})) == 200
    [update] = hook.queued()
    assert update.update_id == 9 and update.poll is None


DEEP = b'{"update_id": 1, "message": ' + b"[" * 50_000 + b"]" * 50_000 + b"}"


@pytest.mark.parametrize(
    "body",
    [
        DEEP,
        b"[" * 50_000 + b"]" * 50_000,
        dumped({"update_id": "abc"}),
        dumped({"update_id": None}),
        dumped({"update_id": [1]}),
        dumped({"update_id": "%d"}),
        dumped({"update_id": 1.5}),
        dumped({"update_id": "7"}),
        dumped({"update_id": True}),
        dumped({"update_id": -1}),
        dumped({"update_id": 2**64}),
        dumped({"update_id": 1, "message": 5}),
        dumped({**command_update(1), "message": {**command_update(1)["message"], "date": 10**30}}),
        dumped({**command_update(1), "message": {**command_update(1)["message"], "text": 5}}),
        dumped(removed_update(1) | {"my_chat_member": {"chat": GROUP}}),
        dumped({"hello": 1}),
        dumped([1, 2]),
        b"not json",
        b"\xff\xfe",
        b"",
    ],
    ids=lambda body: body[:40].decode("utf-8", "replace"),
)
async def test_a_post_that_is_no_update_of_the_shape_the_bot_reads_is_refused_and_marks_nothing(
    hook: Hook, body: bytes
) -> None:
    assert await hook.post(body) == 400
    assert await hook.taken() == []
    assert hook.queued() == []


async def test_an_administrator_record_without_its_flags_is_refused(hook: Hook) -> None:
    update = removed_update(3)
    update["my_chat_member"]["new_chat_member"]["status"] = "administrator"
    assert await hook.post(dumped(update)) == 400
    assert await hook.taken() == []


async def test_a_refused_post_is_logged_without_what_it_said(
    hook: Hook, caplog: pytest.LogCaptureFixture
) -> None:
    update = typed_update(4, "/join my-private-words")
    update["message"]["date"] = "yesterday"
    with caplog.at_level(logging.DEBUG, logger="adapters.telegram.webhook"):
        assert await hook.post(dumped(update)) == 400
    [line] = [r.getMessage() for r in caplog.records]
    assert line == "a webhook post was no update: int_type at message.date"
    assert "private" not in caplog.text and "yesterday" not in caplog.text


# -- drawn from everything ------------------------------------------------------------------

TEXT = st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=()))
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)


@st.composite
def bent(draw: st.DrawFn, value: Any) -> Any:
    """``value`` with some of its parts dropped, replaced by any JSON, or joined by new ones."""
    if isinstance(value, dict):
        out = {}
        for key, part in value.items():
            choice = draw(st.integers(0, 9))
            if choice == 0:
                continue
            out[key] = draw(JSON) if choice == 1 else draw(bent(part))
        out.update(draw(st.dictionaries(TEXT, JSON, max_size=2)))
        return out
    if isinstance(value, list):
        return [draw(bent(part)) for part in value]
    return draw(JSON) if draw(st.integers(0, 5)) == 0 else value


UPDATES = st.sampled_from([command_update(11), press_update(12), removed_update(13)]).flatmap(bent)
ANY_ID = st.one_of(st.integers(), st.floats(), TEXT, st.none(), JSON)


async def _answer_changes_only_what_it_should(hook: Hook, body: Any) -> None:
    before = await hook.taken()
    status = await hook.post(json.dumps(body).encode())
    assert status in (200, 400)
    after = await hook.taken()
    update_id = body.get("update_id") if isinstance(body, dict) else None
    if status == 400:
        assert after == before
        return
    assert type(update_id) is int and update_id >= 0
    assert keys.telegram_update(update_id) in after


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=UPDATES)
async def test_updates_of_any_shape_are_answered_200_or_400_and_a_refused_one_marks_nothing(
    hook: Hook, body: Any
) -> None:
    await _answer_changes_only_what_it_should(hook, body)
    hook.queued()


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(update_id=ANY_ID, rest=st.dictionaries(TEXT, JSON, max_size=3))
async def test_any_update_id_is_answered_200_or_400_and_only_a_whole_number_is_marked(
    hook: Hook, update_id: Any, rest: dict[str, Any]
) -> None:
    await _answer_changes_only_what_it_should(hook, {**rest, "update_id": update_id})
    hook.queued()


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=JSON)
async def test_any_json_is_answered_200_or_400(hook: Hook, body: Any) -> None:
    await _answer_changes_only_what_it_should(hook, body)
    hook.queued()


# -- a wrong secret -----------------------------------------------------------------------


async def test_a_flood_of_posts_with_a_wrong_secret_is_told_once_a_minute_with_its_count(
    bot: Bot, redis_client: aredis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    clock = VirtualClock()
    app, _application = make_app(bot, redis_client, WrongSecretLog(clock.now))
    body = dumped(command_update(1))
    server: TestServer = TestServer(app)
    async with server, TestClient(server) as client:
        with caplog.at_level(logging.WARNING, logger="adapters.telegram.webhook"):
            for _ in range(50):
                response = await client.post(PATH, data=body, headers={SECRET_HEADER: "wrong"})
                assert response.status == 403
            clock.advance(30)
            await client.post(PATH, data=body)
            clock.advance(31)
            await client.post(PATH, data=body, headers={SECRET_HEADER: "wrong"})
    lines = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(lines) == 2, lines
    assert lines[0].startswith("1 webhook post(s) with a wrong secret")
    assert lines[1].startswith("51 webhook post(s) with a wrong secret")
    assert await redis_client.keys("*") == []
