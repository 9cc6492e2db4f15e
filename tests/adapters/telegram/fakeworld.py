"""What the fake Bot API server knows about: users, group chats, recorded calls and the
faults tests ask it to inject; and small readers for the messages it stores."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.adapters.telegram.fakewire import ApiError

BOT_ID = 7000
ANONYMOUS_ADMIN_ID = 1087968824  # Telegram's "Group" user that stands for anonymous admins


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
    error: str = ""  # Telegram's description of a refusal
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
    kind: str = "supergroup"  # or "group", a basic group that may become a supergroup
    migrated_to: int | None = None  # the supergroup a basic group became

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "type": self.kind, "title": self.title}
        if self.forum:
            data["is_forum"] = True
        return data


ADMIN_RIGHTS = {
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


def callback_data_of(message: dict[str, Any]) -> list[str]:
    """Every callback_data on the message's inline keyboard."""
    rows = (message.get("reply_markup") or {}).get("inline_keyboard", [])
    return [b["callback_data"] for row in rows for b in row if "callback_data" in b]


def button_rows(message: dict[str, Any]) -> list[list[dict[str, Any]]]:
    return list((message.get("reply_markup") or {}).get("inline_keyboard", []))


def set_markup(message: dict[str, Any], markup: Any) -> None:
    chat_id = message.get("chat", {}).get("id", 0)
    rows = (markup or {}).get("inline_keyboard", [])
    if chat_id < 0 and any("web_app" in button for row in rows for button in row):
        # Telegram opens a Mini App from an inline button in a private chat alone.
        raise ApiError(400, "Bad Request: BUTTON_TYPE_INVALID")
    if markup:
        message["reply_markup"] = markup
    else:
        message.pop("reply_markup", None)
