"""Log lines for people or for log collectors.

``text`` writes one readable line per record; ``json`` writes one JSON object per
line with fixed keys (``ts``, ``level``, ``logger``, ``msg``), any ``extra=``
fields the call passed, and the traceback as ``exc`` when there is one. Logs go
to standard error, so standard output stays free for what a command prints.

Whatever a record says, from our loggers or a library's, at any level, passes
through :class:`Redactor` on its way out: the configured secrets (tokens, the
webhook secret, the Redis password) and anything shaped like a Telegram or Discord
token, an interaction token in a URL, or a secret field are replaced with ``***``.
The libraries' payload dumps (python-telegram-bot and discord.py log every request
and answer at DEBUG, private hands and their buttons included) keep only their
field names. Redaction works on the finished line, so a traceback or an ``extra=``
field is covered as well as the message.
"""

from __future__ import annotations

import copy
import enum
import json
import logging
import re
import sys
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Final, Literal, TextIO

if TYPE_CHECKING:
    from bot.app.config import Settings

TEXT_FORMAT: Final = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"

# Attributes every LogRecord has; anything else on a record came from `extra=`.
_STANDARD: Final = frozenset(
    vars(logging.LogRecord("", logging.INFO, "", 0, "", None, None)).keys()
) | {"message", "asctime", "taskName"}

# Libraries that narrate every request at INFO; their warnings still come through.
_CHATTY: Final = ("httpx", "httpcore", "discord.gateway", "discord.client", "aiohttp.access")


# Loggers whose records are ours; every other logger is a library's.
_OWN: Final = ("bot", "adapters", "engine", "__main__")
HIDDEN: Final = "***"

# Secrets recognised by their shape, configured or not.
_SHAPES: Final = (
    # A Telegram bot token, alone or in a Bot API URL (…/bot123456:AA…/sendMessage).
    re.compile(r"\d{3,}:[A-Za-z0-9_-]{20,}"),
    # A Discord bot token: three dot-separated base64 parts.
    re.compile(r"[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{20,}"),
)
# A secret that follows its name: an interaction or webhook token in a URL path, a
# token, secret or password field in a payload or header, a password in a URL.
_NAMED: Final = (
    re.compile(r"(/(?:interactions|webhooks)/\d+/)[^/\s'\"?]+"),
    re.compile(
        r"""((?:token|secret|password|authorization)["']?\s*[:=]\s*["']?(?:Bot |Bearer )?)"""
        r"""[^\s"',}&]+""",
        re.IGNORECASE,
    ),
    re.compile(r"(://[^:/@\s]*:)[^@/\s]+(?=@)"),
)


class Redactor:
    """Replaces secrets in finished log text."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        # The longest first, so a secret that contains another is hidden whole; each
        # also as JSON writes it, for the json format.
        known = {s for s in secrets if s} | {json.dumps(s)[1:-1] for s in secrets if s}
        self._secrets = sorted(known, key=len, reverse=True)

    def __call__(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, HIDDEN)
        for shape in _SHAPES:
            text = shape.sub(HIDDEN, text)
        for named in _NAMED:
            text = named.sub(lambda m: m.group(1) + HIDDEN, text)
        return text


def secrets_of(settings: Settings) -> tuple[str, ...]:
    """The values in ``settings`` that no log line may show."""
    from urllib.parse import urlsplit

    found = [
        secret.get_secret_value()
        for secret in (
            settings.telegram_token,
            settings.discord_token,
            settings.telegram_webhook_secret,
        )
        if secret is not None
    ]
    if settings.redis_url and urlsplit(settings.redis_url).password:
        found.append(str(urlsplit(settings.redis_url).password))
    return tuple(found)


def _payload_summary(value: object) -> object:
    """A library's logged payload by its shape only: field names, a length, or a type.
    Plain values and errors are kept: they say what happened without any content."""
    if value is None or isinstance(value, (int, float, type, enum.Enum, BaseException)):
        return value
    if isinstance(value, Mapping):
        return "{" + ", ".join(str(k) for k in value) + ": " + HIDDEN + "}"
    if isinstance(value, (list, tuple, set, frozenset)):
        return f"[{len(value)} items: {HIDDEN}]"
    if isinstance(value, (str, bytes)):
        return (
            f"<{len(value)} characters: {HIDDEN}>" if value[:1] in ("{", "[", b"{", b"[") else value
        )
    return f"<{type(value).__name__}: {HIDDEN}>"


class RedactingFormatter(logging.Formatter):
    """Formats with ``inner``, having hidden a library's payloads, then redacts."""

    def __init__(self, inner: logging.Formatter, redact: Redactor) -> None:
        super().__init__()
        self._inner = inner
        self._redact = redact

    def format(self, record: logging.LogRecord) -> str:
        args = record.args
        if args and not record.name.startswith(_OWN):
            record = copy.copy(record)
            record.args = (
                {k: _payload_summary(v) for k, v in args.items()}
                if isinstance(args, Mapping)
                else tuple(_payload_summary(a) for a in args)
            )
        return self._redact(self._inner.format(record))


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
    fmt: Literal["text", "json"] = "text",
    level: str = "INFO",
    stream: TextIO | None = None,
    secrets: Iterable[str] = (),
) -> logging.Handler:
    """Send every log record at ``level`` or above to ``stream`` (standard error) in
    ``fmt``, with ``secrets`` (and anything shaped like one) hidden; replaces handlers
    a previous call installed. Returns the handler."""
    handler = _OwnHandler(stream if stream is not None else sys.stderr)
    inner = JsonFormatter() if fmt == "json" else logging.Formatter(TEXT_FORMAT)
    handler.setFormatter(RedactingFormatter(inner, Redactor(secrets)))
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
