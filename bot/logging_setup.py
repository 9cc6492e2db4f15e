"""Log lines for people or for log collectors.

``text`` writes one readable line per record; ``json`` writes one JSON object per
line with fixed keys (``ts``, ``level``, ``logger``, ``msg``), any ``extra=``
fields the call passed, and the traceback as ``exc`` when there is one. Logs go
to standard error, so standard output stays free for what a command prints.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any, Final, Literal, TextIO

TEXT_FORMAT: Final = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"

# Attributes every LogRecord has; anything else on a record came from `extra=`.
_STANDARD: Final = frozenset(
    vars(logging.LogRecord("", logging.INFO, "", 0, "", None, None)).keys()
) | {"message", "asctime", "taskName"}

# Libraries that narrate every request at INFO; their warnings still come through.
_CHATTY: Final = ("httpx", "httpcore", "discord.gateway", "discord.client", "aiohttp.access")


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for name, value in vars(record).items():
            if name not in _STANDARD and not name.startswith("_"):
                entry[name] = value
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exc"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


class _OwnHandler(logging.StreamHandler[TextIO]):
    """The handler :func:`setup_logging` installs, told apart from anyone else's."""


def setup_logging(
    fmt: Literal["text", "json"] = "text", level: str = "INFO", stream: TextIO | None = None
) -> logging.Handler:
    """Send every log record at ``level`` or above to ``stream`` (standard error) in
    ``fmt``; replaces handlers a previous call installed. Returns the handler."""
    handler = _OwnHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter(TEXT_FORMAT))
    root = logging.getLogger()
    # Only our own handler is replaced: a test runner's capture handlers stay.
    for old in [h for h in root.handlers if isinstance(h, _OwnHandler)]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    for name in _CHATTY:
        logging.getLogger(name).setLevel(max(logging.WARNING, root.level))
    logging.captureWarnings(True)
    return handler
