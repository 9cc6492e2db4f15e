"""The fake API's interaction endpoints: the callback that answers an interaction
once, and the webhook routes (follow-ups, the original response) that its token
opens for 15 minutes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

from tests.adapters.discord.fake_wire import (
    API_PREFIX,
    EPHEMERAL,
    LOADING,
    TOKEN_LIFETIME,
    InteractionRecord,
    Json,
    error_response,
    json_response,
    read_body,
)

if TYPE_CHECKING:
    from tests.adapters.discord.fake_api import FakeDiscord

FIRST_RESPONSE_WINDOW = 3.0  # seconds Discord waits for an interaction's first response


class InteractionEndpoints:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake

    def routes(self) -> list[web.RouteDef]:
        p = API_PREFIX
        hook = p + "/webhooks/{app}/{token}"
        return [
            web.post(p + "/interactions/{iid}/{token}/callback", self._callback),
            web.post(hook, self._followup),
            web.get(hook + "/messages/{mid}", self._hook_get),
            web.patch(hook + "/messages/{mid}", self._hook_edit),
            web.delete(hook + "/messages/{mid}", self._hook_delete),
        ]

    async def _callback(self, request: web.Request) -> web.Response:
        record = self.fake.interactions.get(int(request.match_info["iid"]))
        if record is None or record.token != request.match_info["token"]:
            return error_response(404, 10062, "Unknown interaction")
        if self._expired(record, lifetime=FIRST_RESPONSE_WINDOW):
            return error_response(404, 10062, "Unknown interaction")
        body, files = await read_body(request)
        if record.callbacks:
            return error_response(400, 40060, "Interaction has already been acknowledged.")
        record.callbacks.append(body)
        kind = body["type"]
        data = body.get("data") or {}
        message: Json | None = None
        if kind in (4, 5):
            flags = (data.get("flags") or 0) & EPHEMERAL
            message = self.fake.new_message(
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
            self.fake.record("create", message, "callback")
        elif kind in (6, 7):
            record.original_id = record.source_message_id
            source = self.fake.messages.get(record.source_message_id or 0)
            if kind == 7:
                if source is None:
                    return error_response(404, 10008, "Unknown Message")
                message = self.fake.edit_message(source, data, "callback")
        for hook in self.fake.callback_hooks:
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
        return json_response(answer)

    def _expired(self, record: InteractionRecord, *, lifetime: float = TOKEN_LIFETIME) -> bool:
        return self.fake.now() - record.created > lifetime

    def _by_token(self, request: web.Request) -> InteractionRecord | web.Response:
        token = request.match_info["token"]
        if request.match_info["app"] != str(self.fake.app_id):
            return error_response(404, 10015, "Unknown Webhook")
        for record in self.fake.interactions.values():
            if record.token == token:
                if self._expired(record):
                    return error_response(401, 50027, "Invalid Webhook Token")
                if not record.callbacks:
                    return error_response(404, 10015, "Unknown Webhook")
                return record
        return error_response(404, 10015, "Unknown Webhook")

    def _hook_message(self, request: web.Request) -> Json | web.Response:
        record = self._by_token(request)
        if isinstance(record, web.Response):
            return record
        wanted = request.match_info["mid"]
        allowed = {record.original_id, *record.followup_ids}
        message_id = record.original_id if wanted == "@original" else int(wanted)
        if message_id is None or message_id not in allowed or message_id not in self.fake.messages:
            return error_response(404, 10008, "Unknown Message")
        return self.fake.messages[message_id]

    async def _followup(self, request: web.Request) -> web.Response:
        record = self._by_token(request)
        if isinstance(record, web.Response):
            return record
        body, files = await read_body(request)
        flags = (body.get("flags") or 0) & EPHEMERAL
        message = self.fake.new_message(record.channel_id, body, files, flags=flags)
        message["webhook_id"] = str(self.fake.app_id)
        record.followup_ids.append(int(message["id"]))
        self.fake.record("create", message, "webhook")
        return json_response(message)

    async def _hook_get(self, request: web.Request) -> web.Response:
        found = self._hook_message(request)
        return found if isinstance(found, web.Response) else json_response(found)

    async def _hook_edit(self, request: web.Request) -> web.Response:
        found = self._hook_message(request)
        if isinstance(found, web.Response):
            return found
        body, files = await read_body(request)
        return json_response(self.fake.edit_message(found, body, "webhook", files))

    async def _hook_delete(self, request: web.Request) -> web.Response:
        found = self._hook_message(request)
        if isinstance(found, web.Response):
            return found
        self.fake.messages.pop(int(found["id"]))
        self.fake.record("delete", found, "webhook")
        return web.Response(status=204)
