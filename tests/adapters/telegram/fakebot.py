"""A small Bot API server on loopback that the real python-telegram-bot talks to.

It keeps just enough of Telegram's world to be honest about what a bot may do:
chats and their messages, users who have (or have not) opened the private chat
with the bot, who blocked it, who is an admin. It records every call with the
time on a shared clock, can be told to fail a call (429, 400, 403), and lets
tests act as users: type a command, press a button the bot sent, open the bot
through a deep link.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import BodyPartReader, web

from tests.adapters.telegram.htmlcheck import HtmlError, plain_text

BOT_ID = 7000
ANONYMOUS_ADMIN_ID = 1087968824  # Telegram's "Group" user that stands for anonymous admins

# Form fields arrive as strings; these carry JSON, numbers or flags.
_JSON_FIELDS = {
    "reply_markup",
    "commands",
    "allowed_updates",
    "scope",
    "link_preview_options",
    "reply_parameters",
    "entities",
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
DELETE_NOT_FOUND = "Bad Request: message to delete not found"
BLOCKED = "Forbidden: bot was blocked by the user"
NEVER_STARTED = "Forbidden: bot can't initiate conversation with a user"
QUERY_INVALID = "Bad Request: query is too old and response timeout expired or query ID is invalid"


class Clock:
    """The time the server stamps calls with; tests may share one with the bot."""

    def now(self) -> float:
        return time.monotonic()


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    at: float
    status: int = 200
    files: dict[str, tuple[str, int]] = field(default_factory=dict)  # part -> (filename, size)

    @property
    def chat_id(self) -> int | None:
        value = self.params.get("chat_id")
        return value if isinstance(value, int) else None


@dataclass
class Fault:
    """Fail the next ``times`` calls of ``method`` matching ``when``."""

    method: str
    status: int
    description: str
    retry_after: int | None = None
    times: int = 1
    when: Callable[[dict[str, Any]], bool] | None = None


@dataclass
class FakeUser:
    id: int
    first_name: str
    username: str | None = None
    language_code: str | None = "en"

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        if self.username:
            data["username"] = self.username
        if self.language_code:
            data["language_code"] = self.language_code
        return data

    def private_chat(self) -> dict[str, Any]:
        return {"id": self.id, "type": "private", "first_name": self.first_name}


@dataclass
class FakeChat:
    id: int
    title: str
    forum: bool = False

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "type": "supergroup", "title": self.title}
        if self.forum:
            data["is_forum"] = True
        return data


class FakeBotApi:
    """The server. ``await start()`` returns the base URL to give the bot."""

    def __init__(
        self, token: str = "7000:TESTTOKEN", username: str = "domino_test_bot", clock: Any = None
    ) -> None:
        self.token = token
        self.username = username
        self.clock = clock or Clock()
        self.calls: list[Call] = []
        self.faults: list[Fault] = []
        self.users: dict[int, FakeUser] = {}
        self.groups: dict[int, FakeChat] = {}
        self.started: set[int] = set()  # users who opened the private chat
        self.blocked: set[int] = set()
        self.admins: dict[int, set[int]] = {}
        self.messages: dict[tuple[int, int], dict[str, Any]] = {}  # (chat, id) -> message
        self.commands: list[dict[str, Any]] = []
        self.webhook: dict[str, Any] = {}
        self.answered: dict[str, dict[str, Any]] = {}
        self.open_queries: dict[str, dict[str, Any]] = {}
        self._updates: list[dict[str, Any]] = []
        self._update_ids = itertools.count(1)
        self._message_ids: dict[int, itertools.count[int]] = {}
        self._query_ids = itertools.count(1)
        self._new_update = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- server ----------------------------------------------------------------

    async def start(self) -> str:
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._dispatch)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        return f"http://127.0.0.1:{self.port}/bot"

    async def close(self) -> None:
        self._new_update.set()
        if self._runner is not None:
            await self._runner.cleanup()

    async def _dispatch(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return _error(401, "Unauthorized")
        method = request.match_info["method"]
        params, files = await _read_params(request)
        call = Call(method, params, self.clock.now(), files=files)
        self.calls.append(call)
        fault = self._take_fault(method, params)
        if fault is not None:
            call.status = fault.status
            return _error(fault.status, fault.description, fault.retry_after)
        handler = getattr(self, "api_" + method, None)
        if handler is None:
            call.status = 404
            return _error(404, "Not Found")
        try:
            result = await handler(params, files)
        except ApiError as err:
            call.status = err.status
            return _error(err.status, err.description)
        return web.json_response({"ok": True, "result": result})

    def _take_fault(self, method: str, params: dict[str, Any]) -> Fault | None:
        for fault in self.faults:
            if fault.method == method and (fault.when is None or fault.when(params)):
                fault.times -= 1
                if fault.times <= 0:
                    self.faults.remove(fault)
                return fault
        return None

    def inject(
        self,
        method: str,
        status: int,
        description: str,
        *,
        retry_after: int | None = None,
        times: int = 1,
        when: Callable[[dict[str, Any]], bool] | None = None,
    ) -> None:
        self.faults.append(Fault(method, status, description, retry_after, times, when))

    # -- the world ---------------------------------------------------------------

    def add_user(self, user_id: int, first_name: str, username: str | None = None) -> FakeUser:
        user = FakeUser(user_id, first_name, username)
        self.users[user_id] = user
        return user

    def add_group(self, chat_id: int, title: str, *, forum: bool = False) -> FakeChat:
        chat = FakeChat(chat_id, title, forum)
        self.groups[chat_id] = chat
        return chat

    def bot_user(self) -> dict[str, Any]:
        return {
            "id": BOT_ID,
            "is_bot": True,
            "first_name": "Domino",
            "username": self.username,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
        }

    def _chat_json(self, chat_id: int) -> dict[str, Any]:
        if chat_id in self.groups:
            return self.groups[chat_id].as_json()
        if chat_id in self.users:
            return self.users[chat_id].private_chat()
        raise ApiError(400, "Bad Request: chat not found")

    def _next_message_id(self, chat_id: int) -> int:
        counter = self._message_ids.setdefault(chat_id, itertools.count(1))
        return next(counter)

    def _check_can_write(self, chat_id: int) -> None:
        if chat_id in self.groups:
            return
        if chat_id not in self.users:
            raise ApiError(400, "Bad Request: chat not found")
        if chat_id in self.blocked:
            raise ApiError(403, BLOCKED)
        if chat_id not in self.started:
            raise ApiError(403, NEVER_STARTED)

    # -- acting as users -----------------------------------------------------------

    def push_update(self, update: dict[str, Any]) -> dict[str, Any]:
        update["update_id"] = next(self._update_ids)
        self._updates.append(update)
        self._new_update.set()
        return update

    def type_text(
        self,
        user: FakeUser | None,
        chat_id: int,
        text: str,
        *,
        thread: int | None = None,
        anonymous: bool = False,
    ) -> dict[str, Any]:
        """A user (or an anonymous admin, ``user=None``) writes ``text`` in a chat."""
        message: dict[str, Any] = {
            "message_id": self._next_message_id(chat_id),
            "date": int(time.time()),
            "chat": self._chat_json(chat_id),
            "text": text,
        }
        if anonymous:
            message["from"] = {"id": ANONYMOUS_ADMIN_ID, "is_bot": True, "first_name": "Group"}
            message["sender_chat"] = self._chat_json(chat_id)
        else:
            assert user is not None
            message["from"] = user.as_json()
        if text.startswith("/"):
            length = len(text.split()[0])
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": length}]
        if thread is not None:
            message["message_thread_id"] = thread
            message["is_topic_message"] = True
        self.messages[(chat_id, message["message_id"])] = message
        return self.push_update({"message": message})

    def open_bot(self, user: FakeUser, payload: str | None = None) -> dict[str, Any]:
        """The user opens the private chat (a deep link carries ``payload``)."""
        self.started.add(user.id)
        self.blocked.discard(user.id)
        text = "/start" if payload is None else f"/start {payload}"
        return self.type_text(user, user.id, text)

    def press(self, user: FakeUser, message: dict[str, Any], data: str) -> str:
        """The user presses the callback button carrying ``data`` under ``message``."""
        assert data in callback_data_of(message), f"{data!r} is not on that message"
        query_id = str(next(self._query_ids))
        query = {
            "id": query_id,
            "from": user.as_json(),
            "message": message,
            "chat_instance": str(message["chat"]["id"]),
            "data": data,
        }
        self.open_queries[query_id] = query
        self.push_update({"callback_query": query})
        return query_id

    def remove_message(self, chat_id: int, message_id: int) -> None:
        """Someone (an admin) deleted a message in the chat."""
        del self.messages[(chat_id, message_id)]

    # -- looking at what the bot did ------------------------------------------------

    def bot_messages(self, chat_id: int, thread: int | None = None) -> list[dict[str, Any]]:
        """The bot's messages still in a chat (topic), oldest first."""
        return [
            m
            for (c, _), m in sorted(self.messages.items())
            if c == chat_id
            and m["from"]["id"] == BOT_ID
            and (thread is None or m.get("message_thread_id") == thread)
        ]

    def calls_to(self, method: str) -> list[Call]:
        return [c for c in self.calls if c.method == method]

    def pending_updates(self) -> int:
        return len(self._updates)

    # -- API methods --------------------------------------------------------------

    async def api_getMe(self, params: dict[str, Any], files: Any) -> Any:
        return self.bot_user()

    async def api_deleteWebhook(self, params: dict[str, Any], files: Any) -> Any:
        self.webhook = {}
        return True

    async def api_setWebhook(self, params: dict[str, Any], files: Any) -> Any:
        self.webhook = dict(params)
        return True

    async def api_setMyCommands(self, params: dict[str, Any], files: Any) -> Any:
        self.commands = list(params.get("commands", []))
        return True

    async def api_getUpdates(self, params: dict[str, Any], files: Any) -> Any:
        offset = params.get("offset") or 0
        self._updates = [u for u in self._updates if u["update_id"] >= offset]
        if not self._updates and params.get("timeout"):
            self._new_update.clear()
            try:
                await asyncio.wait_for(self._new_update.wait(), params["timeout"])
            except TimeoutError:
                return []
        limit = params.get("limit") or 100
        return self._updates[:limit]

    async def api_getChatMember(self, params: dict[str, Any], files: Any) -> Any:
        chat_id, user_id = params["chat_id"], params["user_id"]
        user = self.users.get(user_id)
        if user is None:
            raise ApiError(400, "Bad Request: user not found")
        status = "administrator" if user_id in self.admins.get(chat_id, set()) else "member"
        member: dict[str, Any] = {"status": status, "user": user.as_json()}
        if status == "administrator":
            member.update(_ADMIN_RIGHTS)
        return member

    async def api_sendMessage(self, params: dict[str, Any], files: Any) -> Any:
        chat_id = params["chat_id"]
        self._check_can_write(chat_id)
        text = _checked_text(params)
        return self._store_message(chat_id, params, {"text": text})

    async def api_editMessageText(self, params: dict[str, Any], files: Any) -> Any:
        message = self._message_to_edit(params)
        text = _checked_text(params)
        markup = params.get("reply_markup")
        if message.get("text") == text and message.get("reply_markup") == markup:
            raise ApiError(400, NOT_MODIFIED)
        message["text"] = text
        message["html"] = params["text"]
        _set_markup(message, markup)
        message["edit_date"] = int(time.time())
        return message

    async def api_editMessageReplyMarkup(self, params: dict[str, Any], files: Any) -> Any:
        message = self._message_to_edit(params)
        markup = params.get("reply_markup")
        if message.get("reply_markup") == markup:
            raise ApiError(400, NOT_MODIFIED)
        _set_markup(message, markup)
        return message

    async def api_deleteMessage(self, params: dict[str, Any], files: Any) -> Any:
        key = (params["chat_id"], params["message_id"])
        if key not in self.messages:
            raise ApiError(400, DELETE_NOT_FOUND)
        del self.messages[key]
        return True

    async def api_answerCallbackQuery(self, params: dict[str, Any], files: Any) -> Any:
        query_id = str(params["callback_query_id"])
        if query_id not in self.open_queries:
            raise ApiError(400, QUERY_INVALID)
        del self.open_queries[query_id]
        self.answered[query_id] = params
        return True

    async def api_sendDocument(self, params: dict[str, Any], files: Any) -> Any:
        return self._send_file(params, files, "document")

    async def api_sendPhoto(self, params: dict[str, Any], files: Any) -> Any:
        return self._send_file(params, files, "photo")

    def _send_file(self, params: dict[str, Any], files: dict[str, Any], kind: str) -> Any:
        chat_id = params["chat_id"]
        self._check_can_write(chat_id)
        if kind not in files:
            raise ApiError(400, f"Bad Request: there is no {kind} in the request")
        name, size = files[kind]
        extra: dict[str, Any] = {
            kind: {"file_id": f"file{size}", "file_unique_id": f"u{size}", "file_name": name}
        }
        if kind == "photo":
            extra[kind] = [{"file_id": "p", "file_unique_id": "p", "width": 1, "height": 1}]
        if "caption" in params:
            extra["caption"] = params["caption"]
        return self._store_message(chat_id, params, extra)

    def _store_message(
        self, chat_id: int, params: dict[str, Any], content: dict[str, Any]
    ) -> dict[str, Any]:
        message: dict[str, Any] = {
            "message_id": self._next_message_id(chat_id),
            "date": int(time.time()),
            "chat": self._chat_json(chat_id),
            "from": self.bot_user(),
            **content,
        }
        if "text" in params:
            message["html"] = params["text"]
        thread = params.get("message_thread_id")
        if thread is not None:
            message["message_thread_id"] = thread
            message["is_topic_message"] = True
        _set_markup(message, params.get("reply_markup"))
        self.messages[(chat_id, message["message_id"])] = message
        return message

    def _message_to_edit(self, params: dict[str, Any]) -> dict[str, Any]:
        key = (params["chat_id"], params["message_id"])
        if key not in self.messages:
            raise ApiError(400, EDIT_NOT_FOUND)
        self._check_can_write(params["chat_id"])
        return self.messages[key]


_ADMIN_RIGHTS = {
    "can_be_edited": False,
    "is_anonymous": False,
    "can_manage_chat": True,
    "can_delete_messages": True,
    "can_manage_video_chats": True,
    "can_restrict_members": True,
    "can_promote_members": False,
    "can_change_info": True,
    "can_invite_users": True,
    "can_post_stories": False,
    "can_edit_stories": False,
    "can_delete_stories": False,
}


class ApiError(Exception):
    def __init__(self, status: int, description: str) -> None:
        super().__init__(description)
        self.status = status
        self.description = description


def callback_data_of(message: dict[str, Any]) -> list[str]:
    """Every callback_data on the message's inline keyboard."""
    rows = (message.get("reply_markup") or {}).get("inline_keyboard", [])
    return [b["callback_data"] for row in rows for b in row if "callback_data" in b]


def button_rows(message: dict[str, Any]) -> list[list[dict[str, Any]]]:
    return list((message.get("reply_markup") or {}).get("inline_keyboard", []))


def _set_markup(message: dict[str, Any], markup: Any) -> None:
    if markup:
        message["reply_markup"] = markup
    else:
        message.pop("reply_markup", None)


def _checked_text(params: dict[str, Any]) -> str:
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


async def _read_params(request: web.Request) -> tuple[dict[str, Any], dict[str, tuple[str, int]]]:
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
    return {k: _decode(k, v) for k, v in raw.items()}, files


def _decode(name: str, value: Any) -> Any:
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


def _error(status: int, description: str, retry_after: int | None = None) -> web.Response:
    body: dict[str, Any] = {"ok": False, "error_code": status, "description": description}
    if retry_after is not None:
        body["parameters"] = {"retry_after": retry_after}
    return web.json_response(body, status=status)
