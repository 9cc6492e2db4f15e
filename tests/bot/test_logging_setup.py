"""Log lines: readable text by default, one JSON object a line with LOG_FORMAT=json."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from typing import Literal

import pytest

from bot.app.logging_setup import setup_logging


@pytest.fixture
def restore_root() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


def test_json_format_writes_one_object_per_line_with_extra_fields(restore_root: None) -> None:
    out = io.StringIO()
    setup_logging("json", "INFO", out)
    logging.getLogger("bot.test").info("game %s started", "abc", extra={"chat": "tg:1"})
    entry = json.loads(out.getvalue().strip())
    assert entry["level"] == "INFO"
    assert entry["logger"] == "bot.test"
    assert entry["msg"] == "game abc started"
    assert entry["chat"] == "tg:1"
    assert entry["ts"].endswith("+00:00")


@pytest.mark.logs_exception
def test_json_format_keeps_the_traceback_inside_the_object(restore_root: None) -> None:
    out = io.StringIO()
    setup_logging("json", "INFO", out)
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        logging.getLogger("bot.test").exception("update failed")
    lines = out.getvalue().strip().splitlines()
    assert len(lines) == 1
    assert "RuntimeError: boom" in json.loads(lines[0])["exc"]


def test_text_format_is_one_readable_line(restore_root: None) -> None:
    out = io.StringIO()
    setup_logging("text", "INFO", out)
    logging.getLogger("bot.test").warning("store is slow")
    text = out.getvalue()
    assert "WARNING" in text and "bot.test: store is slow" in text
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)


def test_records_below_the_level_are_dropped(restore_root: None) -> None:
    out = io.StringIO()
    setup_logging("text", "warning", out)
    logging.getLogger("bot.test").info("not shown")
    assert out.getvalue() == ""


def test_a_second_setup_replaces_the_first_handler(restore_root: None) -> None:
    first, second = io.StringIO(), io.StringIO()
    setup_logging("text", "INFO", first)
    setup_logging("json", "INFO", second)
    logging.getLogger("bot.test").info("once")
    assert first.getvalue() == ""
    assert json.loads(second.getvalue())["msg"] == "once"


# -- secrets ---------------------------------------------------------------------------

TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"
DISCORD = "MTE2NzY1NDMyMTA5ODc2NTQzMg.GhIjKl.abcdefghijklmnopqrstuvwxyz0123"


@pytest.mark.logs_exception
@pytest.mark.parametrize("fmt", ["text", "json"])
@pytest.mark.parametrize("logger", ["bot.test", "telegram.Bot", "httpx", "asyncio"])
def test_a_configured_secret_is_hidden_from_every_logger_at_every_level(
    restore_root: None, fmt: Literal["text", "json"], logger: str
) -> None:
    out = io.StringIO()
    setup_logging(fmt, "DEBUG", out, secrets=["hook-Secret_42", 'p@ss"word'])
    log = logging.getLogger(logger)
    log.setLevel(logging.NOTSET)
    log.debug("set webhook with %s", "hook-Secret_42")
    log.critical('connected with p@ss"word', extra={"detail": "hook-Secret_42"})
    try:
        raise ConnectionError("refused for hook-Secret_42")
    except ConnectionError:
        log.warning("retrying", exc_info=True)
    written = out.getvalue()
    assert written.count("***") >= 4
    assert "hook-Secret_42" not in written and "p@ss" not in written


@pytest.mark.parametrize(
    ("line", "kept"),
    [
        (f"Set Bot API URL: https://api.telegram.org/bot{TOKEN}", "https://api.telegram.org/bot"),
        (f"POST https://api.telegram.org/bot{TOKEN}/sendMessage failed", "/sendMessage failed"),
        (f"logging in using static token {DISCORD}", "static token"),
        (
            "POST https://discord.com/api/v10/interactions/1234/aW50ZXJhY3Rpb246MTox/callback",
            "/1234/",
        ),
        ("headers {'Authorization': 'Bot abc.def.ghi'}", "Authorization"),
        ("params {'url': 'https://x.org/hook', 'secret_token': 'zzzzzz'}", "secret_token"),
        ("redis://:hunter2@redis:6379/0 is down", "@redis:6379/0 is down"),
    ],
)
def test_anything_shaped_like_a_secret_is_hidden_unconfigured(
    restore_root: None, line: str, kept: str
) -> None:
    out = io.StringIO()
    setup_logging("text", "DEBUG", out)
    logging.getLogger("some.library").info("%s", line)
    written = out.getvalue()
    assert "***" in written and kept in written
    for secret in (TOKEN, DISCORD, "aW50ZXJhY3Rpb246MTox", "abc.def.ghi", "zzzzzz", "hunter2"):
        assert secret not in written


def test_a_librarys_payloads_keep_only_their_field_names(restore_root: None) -> None:
    out = io.StringIO()
    setup_logging("text", "DEBUG", out)
    keyboard = {"inline_keyboard": [[{"text": "[6|4]", "callback_data": "m:abc:6-4L"}]]}
    library = logging.getLogger("telegram.Bot")
    library.debug("Calling `%s` with `%s`", "sendMessage", {"chat_id": 7, "reply_markup": keyboard})
    library.debug("returned %s", [{"text": "Your tiles: [6|4]"}])
    library.debug("%s has received %s", "POST", '{"components": [{"label": "[6|4]"}]}')
    written = out.getvalue()
    assert "[6|4]" not in written and "6-4L" not in written
    assert "Calling `sendMessage` with `{chat_id, reply_markup: ***}`" in written
    assert "[1 items: ***]" in written


def test_our_own_log_arguments_are_written_as_they_are(restore_root: None) -> None:
    out = io.StringIO()
    setup_logging("text", "DEBUG", out)
    logging.getLogger("bot.test").info("claims %s", [{"game": "abc"}])
    assert "[{'game': 'abc'}]" in out.getvalue()
