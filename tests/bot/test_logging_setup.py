"""Log lines: readable text by default, one JSON object a line with LOG_FORMAT=json."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest

from bot.logging_setup import setup_logging


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
