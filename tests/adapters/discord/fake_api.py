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
import re
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
from aiohttp import web

from tests.adapters.discord.fake_interactions import InteractionEndpoints
from tests.adapters.discord.fake_wire import (
    ALL_PERMISSIONS,
    API_PREFIX,
    EPHEMERAL,
    LOADING,
    SEND_MESSAGES,
    InteractionRecord,
    Json,
    SentEvent,
    Throttle,
    error_response,
    json_response,
    name_problems,
    now_iso,
    read_body,
    too_many,
)

__all__ = ["EPHEMERAL", "FakeDiscord", "InteractionRecord", "Json", "SentEvent"]


class FakeDiscord:
    """The fake API. ``await fake.start()`` then point ``discord.http.Route.BASE`` at
    :attr:`base_url`."""

    def __init__(self) -> None:
        self._last_id = 0
        self._spare = itertools.count(1)  # tells apart ids made for the same past moment
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
        self.undeletable: set[int] = set()  # messages the bot lacks the right to delete
        self.denied: dict[int, int] = {}  # channel id -> permission bits the bot lacks there
        self.clock_offset = 0.0  # seconds added to time for token expiry
        self._runner: web.AppRunner | None = None
        self.base_url = ""
        self.callback_hooks: list[Callable[[InteractionRecord], None]] = []
        self.endpoints = InteractionEndpoints(self)
        # The gateway websocket, when a test runs one (see fake_socket.py).
        self.socket_handler: Callable[[web.Request], Awaitable[web.StreamResponse]] | None = None

    # -- set-up -----------------------------------------------------------------

    def snowflake(self, *, age: float = 0.0) -> int:
        """A new id, made as Discord makes them: from the moment it stands for (now,
        or ``age`` seconds ago), so ``created_at`` tells an interaction's age; ids made
        now always rise."""
        made = discord.utils.time_snowflake(datetime.now(UTC) - timedelta(seconds=age))
        if age:
            return made + next(self._spare)
        self._last_id = max(self._last_id + 1, made)
        return self._last_id

    def add_channel(self, channel_id: int, guild_id: int, *, kind: int = 0) -> None:
        self.channels[channel_id] = {"id": str(channel_id), "guild_id": str(guild_id), "type": kind}

    def app_permissions(self, channel_id: int) -> int:
        """What the bot may do in a channel, as an interaction's ``app_permissions``."""
        return ALL_PERMISSIONS & ~self.denied.get(channel_id, 0)

    def _may_send(self, channel_id: int) -> bool:
        return bool(self.app_permissions(channel_id) & SEND_MESSAGES)

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
                return too_many(rule)
        response: web.StreamResponse = await handler(request)
        self.requests.append((time.monotonic(), request.method, path, response.status))
        return response

    def _routes(self) -> list[web.RouteDef]:
        p = API_PREFIX
        return [
            web.get(p + "/users/@me", self._me),
            web.post(p + "/users/@me/channels", self._open_direct),
            web.get(p + "/oauth2/applications/@me", self._application),
            web.get(p + "/gateway/bot", self._gateway),
            web.put(p + "/applications/{app}/commands", self._sync_global),
            web.put(p + "/applications/{app}/guilds/{guild}/commands", self._sync_guild),
            web.post(p + "/channels/{cid}/messages", self._channel_send),
            web.get(p + "/channels/{cid}/messages/{mid}", self._channel_get),
            web.patch(p + "/channels/{cid}/messages/{mid}", self._channel_edit),
            web.delete(p + "/channels/{cid}/messages/{mid}", self._channel_delete),
            *self.endpoints.routes(),
            web.get("/gateway", self._socket),
        ]

    def new_message(self, channel_id: int, payload: Json, files: list[Json], *, flags: int) -> Json:
        message_id = self.snowflake()
        channel = self.channels.get(channel_id, {})
        attachments = [self._attachment(f) for f in files]
        message: Json = {
            "id": str(message_id),
            "channel_id": str(channel_id),
            "author": self.bot_user,
            "content": payload.get("content") or "",
            "timestamp": now_iso(),
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

    def _attachment(self, upload: Json) -> Json:
        return {
            "id": str(self.snowflake()),
            "filename": upload["filename"],
            "size": len(upload["data"]),
            "url": f"https://cdn.invalid/{upload['filename']}",
            "proxy_url": f"https://cdn.invalid/{upload['filename']}",
            "data": upload["data"].decode("utf-8", "replace"),
        }

    def edit_message(
        self, message: Json, payload: Json, via: str, files: list[Json] | None = None
    ) -> Json:
        for key in ("content", "embeds", "components", "allowed_mentions"):
            if key in payload:
                message[key] = payload[key] if payload[key] is not None else []
        if files:  # uploads sent with an edit replace the message's attachments
            message["attachments"] = [self._attachment(f) for f in files]
        if message.get("content") is None:
            message["content"] = ""
        if "flags" in payload and payload["flags"] is not None:
            keep = message["flags"] & EPHEMERAL
            message["flags"] = (payload["flags"] & ~EPHEMERAL) | keep
        message["flags"] &= ~LOADING
        message["edited_timestamp"] = now_iso()
        self.events.append(SentEvent("edit", dict(message), via))
        return message

    def record(self, action: str, message: Json, via: str) -> None:
        self.events.append(SentEvent(action, dict(message), via))

    # -- users and application --------------------------------------------------------

    async def _me(self, request: web.Request) -> web.Response:
        return json_response(self.bot_user)

    async def _open_direct(self, request: web.Request) -> web.Response:
        """A person's direct messages with the bot (type 1), opened once."""
        user_id = str((await request.json())["recipient_id"])
        found = next((c for c in self.channels.values() if c.get("recipient") == user_id), None)
        if found is None:
            found = {"id": str(self.snowflake()), "type": 1, "recipient": user_id}
            self.channels[int(found["id"])] = found
        recipient = {
            "id": user_id,
            "username": f"user{user_id}",
            "discriminator": "0",
            "avatar": None,
        }
        return json_response({"id": found["id"], "type": 1, "recipients": [recipient]})

    async def _application(self, request: web.Request) -> web.Response:
        return json_response(
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

    @property
    def gateway_url(self) -> str:
        return self.base_url.removesuffix(API_PREFIX).replace("http://", "ws://") + "/gateway"

    async def _gateway(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        body = {"url": self.gateway_url, "shards": 1, "session_start_limit": limit}
        return json_response(body)

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        if self.socket_handler is None:
            return error_response(404, 0, "no gateway in this test")
        return await self.socket_handler(request)

    async def _sync_global(self, request: web.Request) -> web.Response:
        return self._sync("global", await request.json())

    async def _sync_guild(self, request: web.Request) -> web.Response:
        return self._sync(request.match_info["guild"], await request.json())

    def _sync(self, scope: str, commands: list[Json]) -> web.Response:
        problems = name_problems(commands)
        if problems:
            return error_response(400, 50035, "Invalid Form Body: " + "; ".join(problems))
        return json_response(self._store_commands(scope, commands))

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

    # -- channel messages -----------------------------------------------------------------

    def _channel_message(self, request: web.Request) -> Json | web.Response:
        channel_id = int(request.match_info["cid"])
        if channel_id not in self.channels:
            return error_response(404, 10003, "Unknown Channel")
        message = self.messages.get(int(request.match_info["mid"]))
        if (
            message is None
            or int(message["channel_id"]) != channel_id
            or message.get("flags", 0) & EPHEMERAL
        ):
            return error_response(404, 10008, "Unknown Message")
        return message

    async def _channel_send(self, request: web.Request) -> web.Response:
        channel_id = int(request.match_info["cid"])
        if channel_id not in self.channels:
            return error_response(404, 10003, "Unknown Channel")
        if not self._may_send(channel_id):
            return error_response(403, 50013, "Missing Permissions")
        body, files = await read_body(request)
        flags = (body.get("flags") or 0) & ~EPHEMERAL  # a channel message cannot be ephemeral
        message = self.new_message(channel_id, body, files, flags=flags)
        self.record("create", message, "channel")
        return json_response(message)

    async def _channel_get(self, request: web.Request) -> web.Response:
        found = self._channel_message(request)
        return found if isinstance(found, web.Response) else json_response(found)

    async def _channel_edit(self, request: web.Request) -> web.Response:
        found = self._channel_message(request)
        if isinstance(found, web.Response):
            return found
        if found["author"]["id"] != self.bot_user["id"]:
            return error_response(403, 50005, "Cannot edit a message authored by another user")
        if not self._may_send(int(found["channel_id"])):
            return error_response(403, 50013, "Missing Permissions")
        body, files = await read_body(request)
        return json_response(self.edit_message(found, body, "channel", files))

    async def _channel_delete(self, request: web.Request) -> web.Response:
        found = self._channel_message(request)
        if isinstance(found, web.Response):
            return found
        if int(found["id"]) in self.undeletable:
            return error_response(403, 50013, "Missing Permissions")
        self.messages.pop(int(found["id"]))
        self.record("delete", found, "channel")
        return web.Response(status=204)
