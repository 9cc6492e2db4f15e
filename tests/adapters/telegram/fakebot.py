"""A small Bot API server on loopback that the real python-telegram-bot talks to.

It keeps just enough of Telegram's world to be honest about what a bot may do:
chats and their messages, users who have (or have not) opened the private chat
with the bot, who blocked it, who is an admin. It records every call with the
time on a shared clock, can be told to fail a call (429, 400, 403), and lets
tests act as users: type a command, press a button the bot sent, open the bot
through a deep link.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Awaitable, Callable, Hashable
from typing import Any

from aiohttp import web

from tests.adapters.telegram.fakefeed import UpdateFeed
from tests.adapters.telegram.fakepeople import PeopleActing
from tests.adapters.telegram.fakepins import PinnedMessages
from tests.adapters.telegram.fakewire import (
    BLOCKED,
    CANT_EDIT,
    DELETE_NOT_FOUND,
    EDIT_NOT_FOUND,
    KICKED,
    NEVER_STARTED,
    NOT_MODIFIED,
    QUERY_INVALID,
    REPLY_NOT_FOUND,
    UPGRADED,
    ApiError,
    checked_text,
    error_response,
    read_params,
)
from tests.adapters.telegram.fakeworld import (
    ADMIN_RIGHTS,
    BOT_ID,
    Call,
    Clock,
    FakeChat,
    FakeUser,
    Fault,
    set_markup,
)


class FakeBotApi(PinnedMessages, PeopleActing):
    """The server. ``await start()`` returns the base URL to give the bot."""

    def __init__(
        self, token: str = "7000:TESTTOKEN", username: str = "domino_test_bot", clock: Any = None
    ) -> None:
        super().__init__()
        self.token = token
        self.username = username
        self.clock = clock or Clock()
        self.calls: list[Call] = []
        self.faults: list[Fault] = []
        # Tests that look at every call as it arrives, before it is carried out.
        self.watchers: dict[Hashable, Callable[[Call], Awaitable[None]]] = {}
        self.users: dict[int, FakeUser] = {}
        self.groups: dict[int, FakeChat] = {}
        self.started: set[int] = set()  # users who opened the private chat
        self.blocked: set[int] = set()
        self.kicked: set[int] = set()  # groups the bot was removed from
        self.admins: dict[int, set[int]] = {}
        self.messages: dict[tuple[int, int], dict[str, Any]] = {}  # (chat, id) -> message
        self.commands: list[dict[str, Any]] = []
        self.webhook: dict[str, Any] = {}
        self.answered: dict[str, dict[str, Any]] = {}
        self.open_queries: dict[str, dict[str, Any]] = {}
        self._message_ids: dict[int, itertools.count[int]] = {}
        self._query_ids = itertools.count(1)
        self.feed = UpdateFeed()
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
        self.feed.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def _dispatch(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return error_response(401, "Unauthorized")
        method = request.match_info["method"]
        params, files = await read_params(request)
        call = Call(method, params, self.clock.now(), files=files)
        self.calls.append(call)
        for watcher in list(self.watchers.values()):
            await watcher(call)
        fault = self._take_fault(method, params)
        if fault is not None:
            call.status, call.error = fault.status, fault.description
            return error_response(fault.status, fault.description, fault.retry_after)
        handler = getattr(self, "api_" + method, None)
        if handler is None:
            call.status, call.error = 404, "Not Found"
            return error_response(404, "Not Found")
        try:
            result = await handler(params, files)
        except ApiError as err:
            call.status, call.error = err.status, err.description
            return error_response(err.status, err.description, parameters=err.parameters)
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

    def add_group(
        self, chat_id: int, title: str, *, forum: bool = False, kind: str = "supergroup"
    ) -> FakeChat:
        chat = FakeChat(chat_id, title, forum, kind)
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

    def chat_json(self, chat_id: int) -> dict[str, Any]:
        if chat_id in self.groups:
            return self.groups[chat_id].as_json()
        if chat_id in self.users:
            return self.users[chat_id].private_chat()
        raise ApiError(400, "Bad Request: chat not found")

    def next_message_id(self, chat_id: int) -> int:
        counter = self._message_ids.setdefault(chat_id, itertools.count(1))
        return next(counter)

    def _check_can_write(self, chat_id: int) -> None:
        if chat_id in self.groups:
            moved_to = self.groups[chat_id].migrated_to
            if moved_to is not None:
                raise ApiError(400, UPGRADED, {"migrate_to_chat_id": moved_to})
            if chat_id in self.kicked:
                raise ApiError(403, KICKED)
            return
        if chat_id not in self.users:
            raise ApiError(400, "Bad Request: chat not found")
        if chat_id in self.blocked:
            raise ApiError(403, BLOCKED)
        if chat_id not in self.started:
            raise ApiError(403, NEVER_STARTED)

    # -- acting as users -----------------------------------------------------------

    def push_update(self, update: dict[str, Any]) -> dict[str, Any]:
        return self.feed.push(update)

    def deliver_to(self, urls: list[str], secret: str, copies: int = 1) -> None:
        """Post updates to these webhook workers in turn, as a load balancer would."""
        self.feed.deliver_to(urls, secret, copies)

    @property
    def pushed(self) -> int:
        return self.feed.pushed

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
        return self.feed.pending()

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
        return await self.feed.fetch(params.get("offset") or 0, params.get("timeout") or 0)

    async def api_getChatMember(self, params: dict[str, Any], files: Any) -> Any:
        chat_id, user_id = params["chat_id"], params["user_id"]
        user = self.users.get(user_id)
        if user is None:
            raise ApiError(400, "Bad Request: user not found")
        status = "administrator" if user_id in self.admins.get(chat_id, set()) else "member"
        member: dict[str, Any] = {"status": status, "user": user.as_json()}
        if status == "administrator":
            member.update(ADMIN_RIGHTS)
        return member

    async def api_sendMessage(self, params: dict[str, Any], files: Any) -> Any:
        chat_id = params["chat_id"]
        self._check_can_write(chat_id)
        text = checked_text(params)
        content: dict[str, Any] = {"text": text}
        replying = params.get("reply_parameters")
        if replying is not None:
            target = self.messages.get((chat_id, replying["message_id"]))
            if target is None and not replying.get("allow_sending_without_reply"):
                raise ApiError(400, REPLY_NOT_FOUND)
            if target is not None:
                content["reply_to_message"] = {
                    k: v for k, v in target.items() if k != "reply_to_message"
                }
        return self._store_message(chat_id, params, content)

    async def api_editMessageText(self, params: dict[str, Any], files: Any) -> Any:
        message = self._message_to_edit(params)
        if "text" not in message:
            raise ApiError(400, "Bad Request: there is no text in the message to edit")
        text = checked_text(params)
        markup = params.get("reply_markup")
        if message.get("text") == text and message.get("reply_markup") == markup:
            raise ApiError(400, NOT_MODIFIED)
        message["text"] = text
        message["html"] = params["text"]
        set_markup(message, markup)
        message["edit_date"] = int(time.time())
        return message

    async def api_editMessageMedia(self, params: dict[str, Any], files: Any) -> Any:
        """A photo message gets a new photo (and caption); a text message has no media."""
        message = self._message_to_edit(params)
        media = params["media"]
        if "photo" not in message:
            raise ApiError(400, "Bad Request: there is no media in the message to edit")
        attached = str(media.get("media", "")).removeprefix("attach://")
        if media.get("type") != "photo" or attached not in files:
            raise ApiError(400, "Bad Request: there is no photo in the request")
        name, size = files[attached]
        photo = {"file_id": f"p{size}", "file_unique_id": f"u{size}", "width": 1, "height": 1}
        message["photo"] = [photo]
        message["photo_name"] = name
        message["caption"] = media.get("caption", "")
        set_markup(message, params.get("reply_markup"))
        message["edit_date"] = int(time.time())
        return message

    async def api_editMessageReplyMarkup(self, params: dict[str, Any], files: Any) -> Any:
        message = self._message_to_edit(params)
        markup = params.get("reply_markup")
        if message.get("reply_markup") == markup:
            raise ApiError(400, NOT_MODIFIED)
        set_markup(message, markup)
        return message

    async def api_deleteMessage(self, params: dict[str, Any], files: Any) -> Any:
        key = (params["chat_id"], params["message_id"])
        if key not in self.messages:
            raise ApiError(400, DELETE_NOT_FOUND)
        del self.messages[key]
        self.forget_pin(*key)
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
            "message_id": self.next_message_id(chat_id),
            "date": int(time.time()),
            "chat": self.chat_json(chat_id),
            "from": self.bot_user(),
            **content,
        }
        if "text" in params:
            message["html"] = params["text"]
        thread = params.get("message_thread_id")
        if thread is not None:
            message["message_thread_id"] = thread
            message["is_topic_message"] = True
        set_markup(message, params.get("reply_markup"))
        self.messages[(chat_id, message["message_id"])] = message
        return message

    def _message_to_edit(self, params: dict[str, Any]) -> dict[str, Any]:
        key = (params["chat_id"], params["message_id"])
        self._check_can_write(params["chat_id"])
        if key not in self.messages:
            raise ApiError(400, EDIT_NOT_FOUND)
        if self.messages[key]["from"]["id"] != BOT_ID:
            raise ApiError(400, CANT_EDIT)
        return self.messages[key]
