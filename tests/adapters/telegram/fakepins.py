"""Pinned messages in the fake Bot API: ``pinChatMessage`` and ``unpinChatMessage``
as Telegram answers them, for a bot that may pin in a group or may not."""

from __future__ import annotations

from typing import Any

from tests.adapters.telegram.fakewire import ApiError

NO_PIN_RIGHTS = "Bad Request: not enough rights to manage pinned messages in the chat"
UNPIN_NOT_FOUND = "Bad Request: message to unpin not found"


class PinnedMessages:
    """Mixed into the fake server: ``may_pin`` holds the groups where the bot is an
    admin with the right to pin; ``pinned`` each chat's pinned messages, newest last."""

    messages: dict[tuple[int, int], dict[str, Any]]

    def __init__(self) -> None:
        self.may_pin: set[int] = set()
        self.pinned: dict[int, list[int]] = {}

    def _check_may_pin(self, params: dict[str, Any]) -> tuple[int, int]:
        chat_id, message_id = int(params["chat_id"]), int(params.get("message_id") or 0)
        if chat_id < 0 and chat_id not in self.may_pin:
            raise ApiError(400, NO_PIN_RIGHTS)
        return chat_id, message_id

    async def api_pinChatMessage(self, params: dict[str, Any], files: Any) -> Any:
        chat_id, message_id = self._check_may_pin(params)
        if (chat_id, message_id) not in self.messages:
            raise ApiError(400, "Bad Request: message to pin not found")
        pins = self.pinned.setdefault(chat_id, [])
        if message_id in pins:
            pins.remove(message_id)
        pins.append(message_id)
        return True

    async def api_unpinChatMessage(self, params: dict[str, Any], files: Any) -> Any:
        chat_id, message_id = self._check_may_pin(params)
        pins = self.pinned.get(chat_id, [])
        if message_id not in pins:
            raise ApiError(400, UNPIN_NOT_FOUND)
        pins.remove(message_id)
        return True

    def forget_pin(self, chat_id: int, message_id: int) -> None:
        """A deleted message is no longer pinned."""
        pins = self.pinned.get(chat_id, [])
        if message_id in pins:
            pins.remove(message_id)
