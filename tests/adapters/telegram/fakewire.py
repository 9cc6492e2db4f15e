"""The Bot API's wire format as the fake server reads and writes it: form, multipart and
JSON bodies in; ``{"ok": false, ...}`` errors out; Telegram's own error texts."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import BodyPartReader, web

from tests.adapters.telegram.htmlcheck import HtmlError, plain_text

# Form fields arrive as strings; these carry JSON, numbers or flags.
_JSON_FIELDS = {
    "reply_markup",
    "reply_parameters",
    "commands",
    "allowed_updates",
    "scope",
    "link_preview_options",
    "entities",
    "media",
}
_INT_FIELDS = {
    "chat_id",
    "message_id",
    "message_thread_id",
    "user_id",
    "offset",
    "limit",
    "timeout",
    "cache_time",
    "max_connections",
}
_BOOL_FIELDS = {"show_alert", "disable_notification", "drop_pending_updates", "protect_content"}

NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup "
    "are exactly the same as a current content and reply markup of the message"
)
EDIT_NOT_FOUND = "Bad Request: message to edit not found"
CANT_EDIT = "Bad Request: message can't be edited"
DELETE_NOT_FOUND = "Bad Request: message to delete not found"
BLOCKED = "Forbidden: bot was blocked by the user"
NEVER_STARTED = "Forbidden: bot can't initiate conversation with a user"
KICKED = "Forbidden: bot was kicked from the group chat"
UPGRADED = "Bad Request: group chat was upgraded to a supergroup chat"
QUERY_INVALID = "Bad Request: query is too old and response timeout expired or query ID is invalid"
REPLY_NOT_FOUND = "Bad Request: message to be replied not found"
DELETE_REFUSED = "Bad Request: message can't be deleted"


class ApiError(Exception):
    def __init__(
        self, status: int, description: str, parameters: dict[str, Any] | None = None
    ) -> None:
        super().__init__(description)
        self.status = status
        self.description = description
        self.parameters = parameters


def checked_text(params: dict[str, Any]) -> str:
    """The message's visible text, after checking it the way Telegram does."""
    text = str(params.get("text", ""))
    if params.get("parse_mode") == "HTML":
        try:
            text = plain_text(text)
        except HtmlError as err:
            raise ApiError(400, f"Bad Request: can't parse entities: {err}") from err
    if not text.strip():
        raise ApiError(400, "Bad Request: message text is empty")
    if len(text) > 4096:
        raise ApiError(400, "Bad Request: message is too long")
    return text


async def read_params(request: web.Request) -> tuple[dict[str, Any], dict[str, tuple[str, int]]]:
    raw: dict[str, Any] = {}
    files: dict[str, tuple[str, int]] = {}
    if request.content_type == "application/json":
        raw = await request.json()
    elif request.content_type.startswith("multipart/"):
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, BodyPartReader) or part.name is None:
                continue
            if part.filename is not None:
                files[part.name] = (part.filename, len(await part.read()))
            else:
                raw[part.name] = await part.text()
    else:
        raw = dict(await request.post())
    raw.update(request.query)
    # A file sent by multipart is referenced as attach://<part>.
    for name, value in list(raw.items()):
        if isinstance(value, str) and value.startswith("attach://"):
            files[name] = files.pop(value.removeprefix("attach://"), ("", 0))
            del raw[name]
    return {k: decode(k, v) for k, v in raw.items()}, files


def decode(name: str, value: Any) -> Any:
    if not isinstance(value, str):
        return value
    if name in _JSON_FIELDS:
        return json.loads(value)
    if name in _INT_FIELDS:
        try:
            return int(value)
        except ValueError:
            return value
    if name in _BOOL_FIELDS:
        return value.lower() == "true"
    return value


def error_response(
    status: int,
    description: str,
    retry_after: int | None = None,
    parameters: dict[str, Any] | None = None,
) -> web.Response:
    body: dict[str, Any] = {"ok": False, "error_code": status, "description": description}
    if retry_after is not None:
        parameters = {**(parameters or {}), "retry_after": retry_after}
    if parameters:
        body["parameters"] = parameters
    return web.json_response(body, status=status)
