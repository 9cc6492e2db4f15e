"""People acting in the fake Bot API's world: typing in a chat, opening the bot
(through a deep link or not), pressing a button the bot sent. Each act is an update
the bot gets, as Telegram would send it."""

from __future__ import annotations

import itertools
import time
from typing import Any

from tests.adapters.telegram.fakeworld import ANONYMOUS_ADMIN_ID, FakeUser, callback_data_of


class PeopleActing:
    """Mixed into the fake server, whose world it acts in."""

    messages: dict[tuple[int, int], dict[str, Any]]
    started: set[int]
    blocked: set[int]
    open_queries: dict[str, dict[str, Any]]
    _query_ids: itertools.count[int]

    def next_message_id(self, chat_id: int) -> int:
        raise NotImplementedError

    def chat_json(self, chat_id: int) -> dict[str, Any]:
        raise NotImplementedError

    def push_update(self, update: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

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
            "message_id": self.next_message_id(chat_id),
            "date": int(time.time()),
            "chat": self.chat_json(chat_id),
            "text": text,
        }
        if anonymous:
            message["from"] = {"id": ANONYMOUS_ADMIN_ID, "is_bot": True, "first_name": "Group"}
            message["sender_chat"] = self.chat_json(chat_id)
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
