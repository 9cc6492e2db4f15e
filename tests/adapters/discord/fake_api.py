"""A local stand-in for Discord's REST API, on loopback, for the real discord.py client.

It keeps what a test needs to check: every message the bot sent or edited (channel
messages, interaction responses, follow-ups), every interaction callback, and the
commands synced. It speaks the parts of the API the adapter uses, with Discord's
rules where they matter to the tests: an interaction is answered once, ephemeral
messages are reachable only through their interaction's token, tokens expire after
15 minutes, and a request can be answered with a 429 the way Discord sends one.
"""

from __future__ import annotations

import itertools
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import BodyPartReader, web

API_PREFIX = "/api/v10"
EPHEMERAL = 64
LOADING = 128
TOKEN_LIFETIME = 15 * 60

Json = dict[str, Any]


def _json(data: Any, *, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """A JSON response whose content type is exactly ``application/json``, as Discord's is
    (discord.py decodes a body only then)."""
    all_headers = {"Content-Type": "application/json", **(headers or {})}
    return web.Response(body=json.dumps(data).encode(), status=status, headers=all_headers)


def _now_iso() -> str:
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


class FakeDiscord:
    """The fake API. ``await fake.start()`` then point ``discord.http.Route.BASE`` at
    :attr:`base_url`."""

    def __init__(self) -> None:
        self._ids = itertools.count(1_200_000_000_000_000_000)
        self.app_id = self.snowflake()
        self.bot_user: Json = {
            "id": str(self.app_id),
            "username": "domino",
            "global_name": "Domino",
            "discriminator": "0",
            "avatar": None,
            "bot": True,
            "flags": 0,
        }
        self.owner_user: Json = {
            "id": str(self.snowflake()),
            "username": "owner",
            "discriminator": "0",
            "avatar": None,
        }
        self.channels: dict[int, Json] = {}
        self.messages: dict[int, Json] = {}
        self.events: list[SentEvent] = []
        self.interactions: dict[int, InteractionRecord] = {}
        self.commands: dict[str, list[Json]] = {}  # "global" or a guild id
        self.requests: list[tuple[float, str, str, int]] = []  # (time, method, path, status)
        self.throttles: list[Throttle] = []
        self.clock_offset = 0.0  # seconds added to time for token expiry
        self._runner: web.AppRunner | None = None
        self.base_url = ""
        self.callback_hooks: list[Callable[[InteractionRecord], None]] = []

    # -- set-up -----------------------------------------------------------------

    def snowflake(self) -> int:
        return next(self._ids)

    def add_channel(self, channel_id: int, guild_id: int, *, kind: int = 0) -> None:
        self.channels[channel_id] = {"id": str(channel_id), "guild_id": str(guild_id), "type": kind}

    def register_interaction(self, record: InteractionRecord) -> None:
        self.interactions[record.id] = record

    def throttle(
        self, method: str, path: str, *, retry_after: float, times: int = 1, is_global: bool = False
    ) -> None:
        """Answer the next ``times`` requests matching ``method`` and the ``path``
        regex (under the API prefix) with a 429."""
        self.throttles.append(Throttle(method, re.compile(path), retry_after, times, is_global))

    def now(self) -> float:
        """The fake's clock: real time plus whatever :meth:`advance` added."""
        return time.monotonic() + self.clock_offset

    def advance(self, seconds: float) -> None:
        """Let time pass for interaction tokens."""
        self.clock_offset += seconds

    async def start(self) -> None:
        app = web.Application(middlewares=[self._middleware])
        app.router.add_routes(self._routes())
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.base_url = f"http://127.0.0.1:{port}{API_PREFIX}"

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    # -- queries for tests --------------------------------------------------------

    def channel_events(self, channel_id: int | None = None) -> list[SentEvent]:
        """Events of messages everyone in a channel sees (not ephemeral)."""
        return [
            e
            for e in self.events
            if not e.message.get("flags", 0) & EPHEMERAL
            and (channel_id is None or int(e.message["channel_id"]) == channel_id)
        ]

    def ephemeral_events(self) -> list[SentEvent]:
        return [e for e in self.events if e.message.get("flags", 0) & EPHEMERAL]

    def live_channel_messages(self, channel_id: int) -> list[Json]:
        return [
            m
            for m in self.messages.values()
            if int(m["channel_id"]) == channel_id and not m.get("flags", 0) & EPHEMERAL
        ]

    # -- plumbing -------------------------------------------------------------------

    @web.middleware
    async def _middleware(
        self, request: web.Request, handler: Callable[[web.Request], Any]
    ) -> web.StreamResponse:
        path = request.path.removeprefix(API_PREFIX)
        for rule in self.throttles:
            if rule.times > 0 and rule.method == request.method and rule.path.fullmatch(path):
                rule.times -= 1
                self.requests.append((time.monotonic(), request.method, path, 429))
                return self._too_many(rule)
        response: web.StreamResponse = await handler(request)
        self.requests.append((time.monotonic(), request.method, path, response.status))
        return response

    @staticmethod
    def _too_many(rule: Throttle) -> web.Response:
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
        return _json(body, status=429, headers=headers)

    def _routes(self) -> list[web.RouteDef]:
        p = API_PREFIX
        hook = p + "/webhooks/{app}/{token}"
        return [
            web.get(p + "/users/@me", self._me),
            web.get(p + "/oauth2/applications/@me", self._application),
            web.get(p + "/gateway/bot", self._gateway),
            web.put(p + "/applications/{app}/commands", self._sync_global),
            web.put(p + "/applications/{app}/guilds/{guild}/commands", self._sync_guild),
            web.post(p + "/interactions/{iid}/{token}/callback", self._callback),
            web.post(hook, self._followup),
            web.get(hook + "/messages/{mid}", self._hook_get),
            web.patch(hook + "/messages/{mid}", self._hook_edit),
            web.delete(hook + "/messages/{mid}", self._hook_delete),
            web.post(p + "/channels/{cid}/messages", self._channel_send),
            web.get(p + "/channels/{cid}/messages/{mid}", self._channel_get),
            web.patch(p + "/channels/{cid}/messages/{mid}", self._channel_edit),
            web.delete(p + "/channels/{cid}/messages/{mid}", self._channel_delete),
        ]

    @staticmethod
    def _error(status: int, code: int, message: str) -> web.Response:
        return _json({"code": code, "message": message}, status=status)

    @staticmethod
    async def _body(request: web.Request) -> tuple[Json, list[Json]]:
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

    def _new_message(
        self, channel_id: int, payload: Json, files: list[Json], *, flags: int
    ) -> Json:
        message_id = self.snowflake()
        channel = self.channels.get(channel_id, {})
        attachments = [
            {
                "id": str(self.snowflake()),
                "filename": f["filename"],
                "size": len(f["data"]),
                "url": f"https://cdn.invalid/{f['filename']}",
                "proxy_url": f"https://cdn.invalid/{f['filename']}",
                "data": f["data"].decode("utf-8", "replace"),
            }
            for f in files
        ]
        message: Json = {
            "id": str(message_id),
            "channel_id": str(channel_id),
            "author": self.bot_user,
            "content": payload.get("content") or "",
            "timestamp": _now_iso(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": attachments,
            "embeds": payload.get("embeds") or [],
            "components": payload.get("components") or [],
            "pinned": False,
            "type": 0,
            "flags": flags,
            "allowed_mentions": payload.get("allowed_mentions"),
        }
        if "guild_id" in channel:
            message["guild_id"] = channel["guild_id"]
        self.messages[message_id] = message
        return message

    def _edit_message(self, message: Json, payload: Json, via: str) -> Json:
        for key in ("content", "embeds", "components", "allowed_mentions"):
            if key in payload:
                message[key] = payload[key] if payload[key] is not None else []
        if message.get("content") is None:
            message["content"] = ""
        if "flags" in payload and payload["flags"] is not None:
            keep = message["flags"] & EPHEMERAL
            message["flags"] = (payload["flags"] & ~EPHEMERAL) | keep
        message["flags"] &= ~LOADING
        message["edited_timestamp"] = _now_iso()
        self.events.append(SentEvent("edit", dict(message), via))
        return message

    def _record(self, action: str, message: Json, via: str) -> None:
        self.events.append(SentEvent(action, dict(message), via))

    # -- users and application --------------------------------------------------------

    async def _me(self, request: web.Request) -> web.Response:
        return _json(self.bot_user)

    async def _application(self, request: web.Request) -> web.Response:
        return _json(
            {
                "id": str(self.app_id),
                "name": "domino",
                "icon": None,
                "description": "",
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.owner_user,
                "verify_key": "0" * 64,
                "flags": 0,
                "bot": self.bot_user,
            }
        )

    async def _gateway(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        body = {"url": "wss://gateway.invalid", "shards": 1, "session_start_limit": limit}
        return _json(body)

    async def _sync_global(self, request: web.Request) -> web.Response:
        return _json(self._store_commands("global", await request.json()))

    async def _sync_guild(self, request: web.Request) -> web.Response:
        scope = request.match_info["guild"]
        return _json(self._store_commands(scope, await request.json()))

    def _store_commands(self, scope: str, commands: list[Json]) -> list[Json]:
        stored = []
        for command in commands:
            entry = dict(command)
            entry.setdefault("type", 1)
            entry.update(id=str(self.snowflake()), application_id=str(self.app_id), version="1")
            if scope != "global":
                entry["guild_id"] = scope
            stored.append(entry)
        self.commands[scope] = stored
        return stored

    # -- interactions ------------------------------------------------------------------

    async def _callback(self, request: web.Request) -> web.Response:
        record = self.interactions.get(int(request.match_info["iid"]))
        if record is None or record.token != request.match_info["token"]:
            return self._error(404, 10062, "Unknown interaction")
        if self._expired(record, lifetime=3.0):
            return self._error(404, 10062, "Unknown interaction")
        body, files = await self._body(request)
        if record.callbacks:
            return self._error(400, 40060, "Interaction has already been acknowledged.")
        record.callbacks.append(body)
        kind = body["type"]
        data = body.get("data") or {}
        message: Json | None = None
        if kind in (4, 5):
            flags = (data.get("flags") or 0) & EPHEMERAL
            message = self._new_message(
                record.channel_id, data, files, flags=flags | (LOADING if kind == 5 else 0)
            )
            message["type"] = 20 if record.kind == 2 else 19
            message["interaction_metadata"] = {
                "id": str(record.id),
                "type": record.kind,
                "user": record.user,
                "authorizing_integration_owners": {},
            }
            record.original_id = int(message["id"])
            self._record("create", message, "callback")
        elif kind in (6, 7):
            record.original_id = record.source_message_id
            source = self.messages.get(record.source_message_id or 0)
            if kind == 7:
                if source is None:
                    return self._error(404, 10008, "Unknown Message")
                message = self._edit_message(source, data, "callback")
        for hook in self.callback_hooks:
            hook(record)
        answer: Json = {
            "interaction": {
                "id": str(record.id),
                "type": record.kind,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(message and message["flags"] & EPHEMERAL),
            }
        }
        if record.original_id is not None:
            answer["interaction"]["response_message_id"] = str(record.original_id)
        if message is not None:
            answer["resource"] = {"type": kind, "message": message}
        return _json(answer)

    def _expired(self, record: InteractionRecord, *, lifetime: float = TOKEN_LIFETIME) -> bool:
        return self.now() - record.created > lifetime

    def _by_token(self, request: web.Request) -> InteractionRecord | web.Response:
        token = request.match_info["token"]
        if request.match_info["app"] != str(self.app_id):
            return self._error(404, 10015, "Unknown Webhook")
        for record in self.interactions.values():
            if record.token == token:
                if self._expired(record):
                    return self._error(401, 50027, "Invalid Webhook Token")
                if not record.callbacks:
                    return self._error(404, 10015, "Unknown Webhook")
                return record
        return self._error(404, 10015, "Unknown Webhook")

    def _hook_message(self, request: web.Request) -> Json | web.Response:
        record = self._by_token(request)
        if isinstance(record, web.Response):
            return record
        wanted = request.match_info["mid"]
        allowed = {record.original_id, *record.followup_ids}
        message_id = record.original_id if wanted == "@original" else int(wanted)
        if message_id is None or message_id not in allowed or message_id not in self.messages:
            return self._error(404, 10008, "Unknown Message")
        return self.messages[message_id]

    async def _followup(self, request: web.Request) -> web.Response:
        record = self._by_token(request)
        if isinstance(record, web.Response):
            return record
        body, files = await self._body(request)
        flags = (body.get("flags") or 0) & EPHEMERAL
        message = self._new_message(record.channel_id, body, files, flags=flags)
        message["webhook_id"] = str(self.app_id)
        record.followup_ids.append(int(message["id"]))
        self._record("create", message, "webhook")
        return _json(message)

    async def _hook_get(self, request: web.Request) -> web.Response:
        found = self._hook_message(request)
        return found if isinstance(found, web.Response) else _json(found)

    async def _hook_edit(self, request: web.Request) -> web.Response:
        found = self._hook_message(request)
        if isinstance(found, web.Response):
            return found
        body, _ = await self._body(request)
        return _json(self._edit_message(found, body, "webhook"))

    async def _hook_delete(self, request: web.Request) -> web.Response:
        found = self._hook_message(request)
        if isinstance(found, web.Response):
            return found
        self.messages.pop(int(found["id"]))
        self._record("delete", found, "webhook")
        return web.Response(status=204)

    # -- channel messages -----------------------------------------------------------------

    def _channel_message(self, request: web.Request) -> Json | web.Response:
        channel_id = int(request.match_info["cid"])
        if channel_id not in self.channels:
            return self._error(404, 10003, "Unknown Channel")
        message = self.messages.get(int(request.match_info["mid"]))
        if (
            message is None
            or int(message["channel_id"]) != channel_id
            or message.get("flags", 0) & EPHEMERAL
        ):
            return self._error(404, 10008, "Unknown Message")
        return message

    async def _channel_send(self, request: web.Request) -> web.Response:
        channel_id = int(request.match_info["cid"])
        if channel_id not in self.channels:
            return self._error(404, 10003, "Unknown Channel")
        body, files = await self._body(request)
        flags = (body.get("flags") or 0) & ~EPHEMERAL  # a channel message cannot be ephemeral
        message = self._new_message(channel_id, body, files, flags=flags)
        self._record("create", message, "channel")
        return _json(message)

    async def _channel_get(self, request: web.Request) -> web.Response:
        found = self._channel_message(request)
        return found if isinstance(found, web.Response) else _json(found)

    async def _channel_edit(self, request: web.Request) -> web.Response:
        found = self._channel_message(request)
        if isinstance(found, web.Response):
            return found
        if found["author"]["id"] != self.bot_user["id"]:
            return self._error(403, 50005, "Cannot edit a message authored by another user")
        body, _ = await self._body(request)
        return _json(self._edit_message(found, body, "channel"))

    async def _channel_delete(self, request: web.Request) -> web.Response:
        found = self._channel_message(request)
        if isinstance(found, web.Response):
            return found
        self.messages.pop(int(found["id"]))
        self._record("delete", found, "channel")
        return web.Response(status=204)
