"""What the fake Discord API is made of: its records, and responses shaped as Discord
shapes them (JSON with exactly ``application/json``, errors with codes, 429s with the
headers discord.py reads)."""

from __future__ import annotations

import json
import re
import time
import unicodedata
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import BodyPartReader, web

API_PREFIX = "/api/v10"
EPHEMERAL = 64
LOADING = 128
TOKEN_LIFETIME = 15 * 60
SEND_MESSAGES = 1 << 11
ALL_PERMISSIONS = (1 << 53) - 1

Json = dict[str, Any]


def json_response(
    data: Any, *, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """A JSON response whose content type is exactly ``application/json``, as Discord's is
    (discord.py decodes a body only then)."""
    all_headers = {"Content-Type": "application/json", **(headers or {})}
    return web.Response(body=json.dumps(data).encode(), status=status, headers=all_headers)


def now_iso() -> str:
    return datetime.now(UTC).isoformat()


@dataclass
class InteractionRecord:
    """One interaction the test injected, and how the bot answered it."""

    id: int
    token: str
    kind: int  # 2 application command, 3 component
    channel_id: int
    guild_id: int | None
    user_id: int
    source_message_id: int | None = None  # the message a pressed component is on
    pressed: Json = field(default_factory=dict)  # that message as it was when pressed
    user: Json = field(default_factory=dict)  # the user payload of who interacted
    created: float = 0.0  # on the fake's clock
    callbacks: list[Json] = field(default_factory=list)
    original_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)


@dataclass
class SentEvent:
    """A message the bot created or changed, as a test checks it."""

    action: str  # "create", "edit", "delete"
    message: Json
    via: str  # "channel", "callback", "webhook"


@dataclass
class Throttle:
    method: str
    path: re.Pattern[str]
    retry_after: float
    times: int
    is_global: bool = False


def too_many(rule: Throttle) -> web.Response:
    """A 429 as Discord sends it (discord.py insists on the ``Via`` header)."""
    headers = {
        "Via": "1.1 google",
        "X-RateLimit-Limit": "5",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": f"{time.time() + rule.retry_after:.3f}",
        "X-RateLimit-Reset-After": f"{rule.retry_after:.3f}",
        "X-RateLimit-Bucket": "fake-bucket",
        "X-RateLimit-Scope": "global" if rule.is_global else "user",
    }
    if rule.is_global:
        headers["X-RateLimit-Global"] = "true"
    body = {
        "message": "You are being rate limited.",
        "retry_after": rule.retry_after,
        "global": rule.is_global,
    }
    return json_response(body, status=429, headers=headers)


def error_response(status: int, code: int, message: str) -> web.Response:
    return json_response({"code": code, "message": message}, status=status)


async def read_body(request: web.Request) -> tuple[Json, list[Json]]:
    """The JSON payload and any attached files (name and size)."""
    if request.content_type.startswith("multipart/"):
        payload: Json = {}
        files: list[Json] = []
        reader = await request.multipart()
        async for part in reader:
            assert isinstance(part, BodyPartReader)
            if part.name == "payload_json":
                payload = json.loads(await part.text())
            else:
                data = await part.read()
                files.append({"filename": part.filename, "data": bytes(data)})
        return payload, files
    if not request.can_read_body:
        return {}, []
    return await request.json(), []


def name_problems(commands: list[Json]) -> list[str]:
    """What Discord would refuse in synced commands: a name or a localized name that
    is not 1 to 32 lowercase letters, digits, ``-`` or ``_``, or two options of one
    command that share a name in some language."""
    problems: list[str] = []
    for command in commands:
        names = {"default": command["name"], **(command.get("name_localizations") or {})}
        problems += [f"{loc}: {name!r}" for loc, name in names.items() if not _discord_name(name)]
        options = command.get("options") or []
        locales = {"default"} | {loc for o in options for loc in o.get("name_localizations") or {}}
        for locale in sorted(locales):
            seen = [(o.get("name_localizations") or {}).get(locale, o["name"]) for o in options]
            problems += [f"{locale}: {name!r} twice" for name in set(seen) if seen.count(name) > 1]
        problems += name_problems(options)
    return problems


def _discord_name(name: str) -> bool:
    # ^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$, lowercase where a letter has a case
    return (
        0 < len(name) <= 32
        and name == name.lower()
        and all(c in "-_" or unicodedata.category(c)[0] in "LN" for c in name)
    )
